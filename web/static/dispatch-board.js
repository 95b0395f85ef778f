// The day board: server-rendered and complete without this file. With it, the board (the fleet's
// summary and the page of the chosen van's stops) redraws itself from GET /dispatch/board/part?day=…&van=…&page=…
// when the console's stream (/dispatch/stream) says a ride of the day or a van changed: debounced, keeping focus on the same link or table and
// each table's sideways scroll. Without the stream (or if it fails) the page stays as loaded.
(function () {
  'use strict';
  var part = document.getElementById('board-part');
  if (!part || !window.EventSource || !window.fetch) return;
  var day = part.getAttribute('data-day');
  var van = part.getAttribute('data-van');
  var page = part.getAttribute('data-page');
  var url = '/dispatch/board/part?day=' + encodeURIComponent(day) + (van ? '&van=' + encodeURIComponent(van) : '') +
    (van && page ? '&page=' + encodeURIComponent(page) : '');
  var timer = null;
  var busy = false;
  var again = false;

  function identity(element) {
    if (!element || !part.contains(element)) return null;
    if (element.id) return '#' + element.id;
    if (element.getAttribute('href')) return 'a[href="' + element.getAttribute('href') + '"]';
    var region = element.closest('[aria-labelledby]');
    return region ? '[aria-labelledby="' + region.getAttribute('aria-labelledby') + '"]' : null;
  }

  function redraw() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(url, { credentials: 'same-origin', headers: { Accept: 'text/html' } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) return;
        var focused = identity(document.activeElement);
        var scrolls = {};
        part.querySelectorAll('.board-scroll').forEach(function (box) { scrolls[box.getAttribute('aria-labelledby')] = box.scrollLeft; });
        var fresh = new DOMParser().parseFromString(html, 'text/html');
        part.replaceChildren.apply(part, Array.prototype.slice.call(fresh.body.childNodes));
        part.querySelectorAll('.board-scroll').forEach(function (box) {
          var left = scrolls[box.getAttribute('aria-labelledby')];
          if (left) box.scrollLeft = left;
        });
        if (focused) {
          var target = part.querySelector(focused);
          if (target) target.focus({ preventScroll: true });
        }
      })
      .catch(function () {})
      .then(function () {
        busy = false;
        if (again) { again = false; schedule(); }
      });
  }

  function schedule() {
    if (timer) window.clearTimeout(timer);
    timer = window.setTimeout(function () { timer = null; redraw(); }, 500);
  }

  var stream = new EventSource('/dispatch/stream');
  stream.addEventListener('ride', function (event) {
    try {
      var data = JSON.parse(event.data);
      if (!data.day || data.day === day) schedule();
    } catch (e) { schedule(); }
  });
  stream.addEventListener('van', schedule);
  stream.addEventListener('closed', function (event) {
    stream.close();
    // A newer console page took this one's place (at most four per dispatcher): look again every
    // 30 s instead, and say so once. A session that ended sends its own reason: stay as loaded.
    var reason = '';
    try { reason = JSON.parse(event.data).reason; } catch (e) { reason = ''; }
    if (reason !== 'too_many_streams') return;
    var live = document.getElementById('live');
    if (live) live.textContent = 'Live updates moved to a newer console page; this board now looks again every 30 seconds.';
    window.setInterval(schedule, 30000);
  });
  stream.addEventListener('error', function () {
    // No stream (not served yet, or the session ended): the page stays as loaded.
    if (stream.readyState === EventSource.CLOSED) stream.close();
  });
})();
