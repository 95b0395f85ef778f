// Place search as you type: refreshes each place field's suggestions from GET /v1/places?q=.
// Without it the lists still hold every place (rendered by the server). An answer that does not
// come (a busy server's 503, a dropped connection) is asked for again, up to 4 times, a little
// later each time; a field typed into before this script ran is searched at once.
(function () {
  'use strict';
  var inputs = document.querySelectorAll('input[data-places]');
  Array.prototype.forEach.call(inputs, function (input) {
    var list = document.getElementById(input.getAttribute('list'));
    var timer = null;
    var shown = null;  // the query whose places the list holds

    function show(places) {
      list.textContent = '';
      places.slice(0, 10).forEach(function (place) {
        var option = document.createElement('option');
        option.value = place.name;
        option.textContent = place.aliases.join(', ');
        list.appendChild(option);
      });
    }

    function search(q, attempt) {
      fetch('/v1/places?q=' + encodeURIComponent(q), { headers: { accept: 'application/json' } })
        .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.json(); })
        .then(function (places) {
          if (q !== input.value.trim()) return;  // typed on meanwhile: that search will show
          shown = q;
          show(places);
        })
        .catch(function () {
          if (attempt >= 4 || q !== input.value.trim()) return;
          clearTimeout(timer);
          timer = setTimeout(function () { search(q, attempt + 1); }, 500 * Math.pow(2, attempt));
        });
    }

    function typed() {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var q = input.value.trim();
        if (q !== shown) search(q, 0);
      }, 150);
    }

    input.addEventListener('input', typed);
    if (input.value.trim() !== '') typed();
  });
})();
