// Place search as you type: refreshes each place field's suggestions from GET /v1/places?q=.
// Without it the lists still hold every place (rendered by the server).
(function () {
  'use strict';
  var inputs = document.querySelectorAll('input[data-places]');
  Array.prototype.forEach.call(inputs, function (input) {
    var list = document.getElementById(input.getAttribute('list'));
    var timer = null;
    var asked = null;
    input.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var q = input.value.trim();
        if (q === asked) return;
        asked = q;
        fetch('/v1/places?q=' + encodeURIComponent(q), { headers: { accept: 'application/json' } })
          .then(function (r) { return r.ok ? r.json() : null; })
          .then(function (places) {
            if (!places || q !== input.value.trim()) return;
            list.textContent = '';
            places.slice(0, 10).forEach(function (place) {
              var option = document.createElement('option');
              option.value = place.name;
              option.textContent = place.aliases.join(', ');
              list.appendChild(option);
            });
          })
          .catch(function () {});
      }, 150);
    });
  });
})();
