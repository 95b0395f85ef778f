// The dispatcher's map, live: the page works without this file (the map and table as of the
// page load). With it, the map and its table are fetched again from /dispatch/map/part on the
// console's stream (/dispatch/stream events "van" and "ride"), at most once per debounce, and
// every minute so positions' ages stay true. Without the stream (not there, or refused), the
// part is fetched every 10 s instead. Focus never moves: only the drawing, the table and the
// "as of" line are swapped, inside containers that stay.
(function () {
  'use strict';
  var live = document.getElementById('map-live');
  if (!live) return;
  var url = live.getAttribute('data-part');
  var timer = null, busy = false, again = false, polling = null;

  function swap(html) {
    var page = new DOMParser().parseFromString('<div>' + html + '</div>', 'text/html');
    ['map-asof', 'map-drawing', 'map-table'].forEach(function (id) {
      var fresh = page.getElementById(id), old = document.getElementById(id);
      if (fresh && old) old.replaceWith(document.adoptNode(fresh));
    });
  }

  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    // A fetch that hangs is given up after 8 s, so one stuck request never stops the redraws.
    var control = window.AbortController ? new AbortController() : null;
    var guard = control ? window.setTimeout(function () { control.abort(); }, 8000) : null;
    fetch(url, { credentials: 'same-origin', headers: { accept: 'text/html' }, signal: control ? control.signal : undefined })
      .then(function (r) { return r.ok && !r.redirected ? r.text() : null; })
      .then(function (html) { if (html !== null) swap(html); })
      .catch(function () {})
      .then(function () {
        window.clearTimeout(guard);
        busy = false;
        if (again) { again = false; soon(); }
      });
  }

  function soon() {
    window.clearTimeout(timer);
    timer = window.setTimeout(refresh, 500);
  }

  function poll() {
    if (!polling) polling = window.setInterval(refresh, 10000);
  }

  window.setInterval(refresh, 60000);
  if (!window.EventSource) { poll(); return; }
  var stream = new EventSource('/dispatch/stream');
  stream.addEventListener('van', soon);
  stream.addEventListener('ride', soon);
  stream.addEventListener('open', function () {
    if (polling) { window.clearInterval(polling); polling = null; }
    soon();
  });
  stream.addEventListener('closed', function () {
    // The server ended the stream for good (the session ended, or too many streams open): poll.
    stream.close();
    poll();
  });
  stream.addEventListener('error', function () {
    // Closed for good (no stream on this server, or refused): poll. Reconnecting: poll meanwhile.
    poll();
  });
})();
