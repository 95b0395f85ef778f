// The queue and the alerts (/dispatch, /dispatch/alerts): with JavaScript, the list follows the
// console's live stream (/dispatch/stream). On a ride or alert event the page re-fetches its part
// (data-part) and says what is new in the polite live region; focus stays where it was. Every
// action stays a plain form, and without this file the page works by reloading.
(function () {
  'use strict';
  var part = document.querySelector('[data-part]');
  if (!part || !window.EventSource || !window.fetch || !('content' in document.createElement('template'))) return;
  var live = document.getElementById('live');
  var isQueue = part.id === 'queue-part';
  var marker = isQueue ? '[data-ref]' : '[data-alert]';
  var timer = null, fetching = false, again = false, held = false;

  function items(root) { return Array.prototype.slice.call(root.querySelectorAll(marker)); }
  // A reason being typed, or a field's error message, is never thrown away: the refresh waits
  // until the field is left empty or the form is sent.
  function typing() {
    return !!part.querySelector('.invalid') ||
      Array.prototype.some.call(part.querySelectorAll('input[type="text"]'), function (input) { return input.value !== ''; });
  }
  function words(item) {
    return isQueue ? 'New ride waiting: ' + item.getAttribute('data-ref') + ' for ' + item.getAttribute('data-rider') + '.'
                   : 'New alert: ' + item.getAttribute('data-words') + '.';
  }
  function refresh() {
    if (typing()) { held = true; return; }
    if (fetching) { again = true; return; }
    fetching = true;
    fetch(part.getAttribute('data-part'), { credentials: 'same-origin', headers: { Accept: 'text/html' } })
      .then(function (response) {
        if (!response.ok || response.redirected) throw new Error('not refreshed');
        return response.text();
      })
      .then(function (html) {
        if (typing()) { held = true; return; }
        var seen = {};
        items(part).forEach(function (item) { seen[item.id] = true; });
        var active = document.activeElement;
        var focused = active && part.contains(active) ? active.id : '';
        var template = document.createElement('template');
        template.innerHTML = html;
        var fresh = items(template.content).filter(function (item) { return !seen[item.id]; });
        part.replaceChildren(template.content);
        if (focused) {
          var back = document.getElementById(focused);
          var heading = part.querySelector('h2');
          if (back) back.focus();
          else if (heading) { heading.setAttribute('tabindex', '-1'); heading.focus(); }
        }
        if (fresh.length && live) {
          live.textContent = fresh.length > 3 ? fresh.length + (isQueue ? ' new rides waiting.' : ' new alerts.')
                                              : fresh.map(words).join(' ');
        }
      })
      .catch(function () {})
      .then(function () {
        fetching = false;
        if (again) { again = false; refresh(); }
      });
  }
  function soon() {
    if (timer) clearTimeout(timer);
    timer = setTimeout(function () { timer = null; refresh(); }, 250);
  }
  part.addEventListener('focusout', function () { if (held && !typing()) { held = false; soon(); } });

  var source = new EventSource('/dispatch/stream');
  source.addEventListener('open', function () { part.setAttribute('data-live', 'open'); });
  source.addEventListener('error', function () { part.removeAttribute('data-live'); });
  source.addEventListener('ride', soon);
  if (!isQueue) {
    source.addEventListener('alert', soon);
    // A ride crossing the pending limit and a delivery parked send no event: look again each minute.
    setInterval(soon, 60000);
  }
  source.addEventListener('closed', function (event) {
    source.close();
    // A newer console page took this one's place (at most four per dispatcher): look again every
    // 30 s instead, and say so once. A session that ended sends its own reason: stay as loaded.
    var reason = '';
    try { reason = JSON.parse(event.data).reason; } catch (e) { reason = ''; }
    if (reason !== 'too_many_streams') return;
    part.removeAttribute('data-live');
    if (live) live.textContent = 'Live updates moved to a newer console page; this page now looks again every 30 seconds.';
    setInterval(soon, 30000);
  });
  window.addEventListener('pagehide', function () { source.close(); });
})();
