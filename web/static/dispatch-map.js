// The dispatcher's map, live: the page works without this file (the map and table as of the
// page load). With it (and dispatch-live.js), the map and its table are fetched again from
// /dispatch/map/part on the console's stream (events "van" and "ride"), and every minute so
// positions' ages stay true; while the stream is down, every 10 s. Focus never moves: only the
// drawing, the table and the "as of" line are swapped, inside containers that stay.
(function () {
  'use strict';
  var live = document.getElementById('map-live');
  if (!live || !window.vandLive) return;

  function paint(html) {
    var page = new DOMParser().parseFromString('<div>' + html + '</div>', 'text/html');
    ['map-asof', 'map-drawing', 'map-table'].forEach(function (id) {
      var fresh = page.getElementById(id), old = document.getElementById(id);
      if (fresh && old) old.replaceWith(document.adoptNode(fresh));
    });
  }

  window.vandLive({
    part: live,
    url: live.getAttribute('data-part'),
    events: { van: true, ride: true },
    paint: paint,
    every: 60000,
    poll: 10000
  });
})();
