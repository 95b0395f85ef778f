// The day board, complete without this file. With it and dispatch-live.js, the fleet's summary
// and the chosen van's stops redraw from /dispatch/board/part on the stream's events of the day,
// keeping focus and each table's sideways scroll.
(function () {
  'use strict';
  var part = document.getElementById('board-part');
  if (!part || !window.vandLive) return;
  var day = part.getAttribute('data-day');
  var van = part.getAttribute('data-van');
  var page = part.getAttribute('data-page');
  var url = '/dispatch/board/part?day=' + encodeURIComponent(day) + (van ? '&van=' + encodeURIComponent(van) : '') +
    (van && page ? '&page=' + encodeURIComponent(page) : '');

  function identity(element) {
    if (!element || !part.contains(element)) return null;
    if (element.id) return '#' + element.id;
    if (element.getAttribute('href')) return 'a[href="' + element.getAttribute('href') + '"]';
    var region = element.closest('[aria-labelledby]');
    return region ? '[aria-labelledby="' + region.getAttribute('aria-labelledby') + '"]' : null;
  }

  function paint(html) {
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
  }

  window.vandLive({
    part: part,
    url: url,
    events: { ride: function (data) { return !data.day || data.day === day; }, van: true },
    paint: paint
  });
})();
