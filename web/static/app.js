// Campus Van: small enhancements; every page works without this file.
(function () {
  'use strict';
  // Move focus to what the rider must read first (error summary, notice, confirmation).
  var first = document.querySelector('[data-focus]');
  if (first && !document.querySelector('[autofocus]')) first.focus();

  // Live notifications from the rider's server-sent event stream (cookie session).
  var body = document.body;
  var after = body.getAttribute('data-after');
  if (after === null || !window.EventSource) return;
  var live = document.getElementById('live');
  var badge = document.getElementById('unread');
  var list = document.getElementById('notification-list');
  var unread = parseInt(body.getAttribute('data-unread') || '0', 10);
  var source = new EventSource('/notifications/stream?after=' + encodeURIComponent(after));
  source.addEventListener('notification', function (event) {
    var item;
    try { item = JSON.parse(event.data); } catch (e) { return; }
    live.textContent = item.message;
    // A decision changes the ride's status wherever the page shows it (data-ride), and a ride
    // that no longer holds a van can no longer be cancelled.
    var change = item.ride_id && body.getAttribute('data-status-' + item.kind);
    if (change) {
      var parts = change.split('|');
      document.querySelectorAll('[data-ride="' + item.ride_id + '"]').forEach(function (status) {
        status.className = 'status ' + parts[0];
        status.textContent = parts[1];
      });
      if (parts[2] !== 'holds') {
        document.querySelectorAll('[data-ride-actions="' + item.ride_id + '"]').forEach(function (actions) { actions.hidden = true; });
      }
    }
    if (list) {
      var li = document.createElement('li');
      var p = document.createElement('p');
      li.className = 'card';
      p.textContent = item.message;
      li.appendChild(p);
      list.insertBefore(li, list.firstChild);
      var none = document.getElementById('no-notifications');
      if (none) none.remove();
    } else if (badge) {
      unread += 1;
      badge.textContent = unread + ' unread';
    }
  });
  // Her van on the road: the ride page's polite live region says where it is (null: no longer shown).
  source.addEventListener('eta', function (event) {
    var update;
    try { update = JSON.parse(event.data); } catch (e) { return; }
    document.querySelectorAll('[data-eta-ride="' + update.ride_id + '"]').forEach(function (region) {
      var words = update.eta ? update.eta.message : '';
      if (region.textContent !== words) region.textContent = words;
    });
  });
  // The server ends the stream for good (signed out, or a newer tab took its place): do not reconnect.
  source.addEventListener('closed', function () { source.close(); });
  window.addEventListener('pagehide', function () { source.close(); });
})();
