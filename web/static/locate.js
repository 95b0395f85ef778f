// "Use my location" for a ride now: fills the hidden pickup_lat/pickup_lon fields.
// The server matches the point to a campus place within 150 m (or keeps the point).
(function () {
  'use strict';
  var button = document.getElementById('use-location');
  if (!button || !navigator.geolocation) return;
  var status = document.getElementById('location-status');
  var pickup = document.getElementById('pickup');
  var lat = document.getElementById('pickup_lat');
  var lon = document.getElementById('pickup_lon');
  button.hidden = false;
  if (lat.value && lon.value && !pickup.value) status.textContent = 'Using your location.';
  pickup.addEventListener('input', function () {
    lat.value = '';
    lon.value = '';
    status.textContent = '';
  });
  button.addEventListener('click', function () {
    status.textContent = 'Finding your location…';
    navigator.geolocation.getCurrentPosition(function (position) {
      lat.value = position.coords.latitude.toFixed(6);
      lon.value = position.coords.longitude.toFixed(6);
      pickup.value = '';
      status.textContent = 'Using your location.';
      fetch('/v1/places?near=' + lat.value + ',' + lon.value, { headers: { accept: 'application/json' } })
        .then(function (r) { return r.ok ? r.json() : []; })
        .then(function (places) {
          if (places.length && places[0].distance_m <= 150) status.textContent = 'Using your location: near ' + places[0].name + '.';
        })
        .catch(function () {});
    }, function (error) {
      status.textContent = 'Could not find your location (' + error.message + '). Type the place instead.';
    }, { enableHighAccuracy: true, timeout: 15000, maximumAge: 60000 });
  });
})();
