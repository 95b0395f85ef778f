// The driver's run: every tap is a plain form that works without this file. With it:
// - taps are sent in the background and the run is redrawn in place; the result is read out
//   in the page's live region and focus goes to the next thing to do;
// - every tap carries the van's last known position, and the position is shared while the page
//   is open (watchPosition; sent at most every 5 s, and only after 50 m of movement unless 30 s
//   have passed, so a parked van stays known);
// - the no-show wait counts down, and the run is refreshed every 15 s and when the wait ends.
(function () {
  'use strict';
  var run = document.getElementById('run');
  document.documentElement.classList.add('js');
  if (!run) return;
  var live = document.getElementById('live');
  var csrf = run.getAttribute('data-csrf');
  var last = null;        // {lat, lon, accuracy} of the latest fix
  var sent = null;        // {lat, lon, time} of the latest position sent
  var busy = false;
  var ticker = null;

  function say(text, refused) {
    // Cleared first, so the same sentence twice is read twice; a refusal is not shown as a success.
    live.textContent = '';
    live.classList.toggle('refused', !!refused);
    window.setTimeout(function () { live.textContent = text; }, 50);
  }

  // ---- the run, redrawn from the server
  function replace(html, focusResult) {
    var page = new DOMParser().parseFromString(html, 'text/html');
    var fresh = page.getElementById('run');
    if (!fresh) { window.location.assign('/driver'); return; }
    var focusedKey = document.activeElement && document.activeElement.closest && document.activeElement.closest('form')
      ? formIdentity(document.activeElement.closest('form')) : null;
    run.innerHTML = fresh.innerHTML;
    var status = page.getElementById('position-status');
    if (status && !last) document.getElementById('position-status').textContent = status.textContent;
    setUp();
    // A refusal is what the driver must hear first; else the tap's result.
    var message = run.querySelector('.refusal[data-result]') || run.querySelector('[data-result]');
    if (focusResult && message) {
      say(message.getAttribute('data-result'), message.classList.contains('refusal'));
      var target = run.querySelector('.refusal') || run.querySelector('.taps button') || message;
      target.focus();
    } else if (focusedKey) {
      // A refresh while the driver had a button focused keeps focus on the same action.
      run.querySelectorAll('form').forEach(function (form) {
        if (formIdentity(form) === focusedKey) form.querySelector('button').focus();
      });
    }
  }

  function formIdentity(form) {
    var parts = [form.getAttribute('action')];
    ['ride', 'stop', 'action', 'tap'].forEach(function (name) {
      var input = form.querySelector('input[name="' + name + '"]');
      if (input) parts.push(input.value);
    });
    return parts.join('|');
  }

  function refresh() {
    if (busy || document.hidden) return;
    fetch(run.getAttribute('data-run'), { credentials: 'same-origin', headers: { accept: 'text/html' } })
      .then(function (r) {
        if (r.redirected || !r.ok) { window.location.assign('/driver'); return null; }
        return r.text();
      })
      .then(function (html) {
        if (html === null || busy) return;
        // Only when the run changed (each render has fresh tap keys, so the server names a version):
        // a redraw would otherwise disturb a screen reader for nothing.
        var version = /data-version="([^"]*)"/.exec(html);
        var mine = run.querySelector('[data-version]');
        if (!version || !mine || version[1] !== mine.getAttribute('data-version')) replace('<div id="run">' + html + '</div>', false);
      })
      .catch(function () {});
  }

  // ---- taps
  function submit(form, event) {
    event.preventDefault();
    if (busy) return;
    // A tap carries the last fix (an undo has no position fields).
    var lat = form.querySelector('input[name="lat"]');
    if (last && lat) {
      lat.value = last.lat.toFixed(6);
      form.querySelector('input[name="lon"]').value = last.lon.toFixed(6);
      form.querySelector('input[name="accuracy"]').value = Math.round(last.accuracy);
    }
    busy = true;
    var button = form.querySelector('button');
    button.setAttribute('aria-disabled', 'true');
    fetch(form.getAttribute('action'), {
      method: 'POST', credentials: 'same-origin', redirect: 'follow',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: new URLSearchParams(new FormData(form)).toString()
    }).then(function (r) {
      return r.text().then(function (html) { busy = false; replace(html, true); });
    }).catch(function () {
      // No answer (the network dropped): send the form itself; its key makes a repeat harmless.
      busy = false;
      form.submit();
    });
  }

  // One listener for every tap and undo form the run holds now or after a redraw.
  run.addEventListener('submit', function (event) {
    var form = event.target;
    if (form.matches && form.matches('form.tap-form, form.undo')) submit(form, event);
  });

  function setUp() {
    run.querySelectorAll('form.undo[data-until]').forEach(function (form) {
      var left = Date.parse(form.getAttribute('data-until')) - Date.now();
      window.setTimeout(function () { if (form.isConnected) form.hidden = true; }, Math.max(0, left));
    });
    countdown();
  }

  // ---- the no-show wait
  function countdown() {
    if (ticker) window.clearInterval(ticker);
    var wait = run.querySelector('[data-countdown]');
    if (!wait) return;
    var at = Date.parse(wait.getAttribute('data-countdown'));
    var left = wait.querySelector('.left');
    function tick() {
      var seconds = Math.ceil((at - Date.now()) / 1000);
      if (seconds <= 0) {
        window.clearInterval(ticker);
        ticker = null;
        left.textContent = '';
        say(wait.getAttribute('data-done'));
        // A second after the server's time, so its clock has passed it too.
        window.setTimeout(refresh, 1000);
        return;
      }
      var minutes = Math.floor(seconds / 60), rest = seconds % 60;
      left.textContent = ' (in ' + minutes + ':' + (rest < 10 ? '0' : '') + rest + ')';
    }
    tick();
    if (at > Date.now()) ticker = window.setInterval(tick, 1000);
  }

  // ---- the van's position
  function metres(a, b) {
    var r = 6371000, rad = Math.PI / 180;
    var dLat = (b.lat - a.lat) * rad, dLon = (b.lon - a.lon) * rad;
    var h = Math.sin(dLat / 2) * Math.sin(dLat / 2) +
      Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) * Math.sin(dLon / 2);
    return 2 * r * Math.asin(Math.sqrt(h));
  }

  function share(position) {
    last = { lat: position.coords.latitude, lon: position.coords.longitude, accuracy: position.coords.accuracy || 0 };
    var now = Date.now();
    if (sent) {
      var since = now - sent.time;
      if (since < 5000) return;
      if (since < 30000 && metres(sent, last) < 50) return;
    }
    sent = { lat: last.lat, lon: last.lon, time: now };
    fetch(run.getAttribute('data-positions'), {
      method: 'POST', credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
      body: JSON.stringify({ lat: last.lat, lon: last.lon, accuracy_m: Math.round(last.accuracy) })
    }).then(function (r) {
      document.getElementById('position-status').textContent = r.ok ? 'Sharing the van\u2019s position.' : 'The van\u2019s position could not be sent.';
    }).catch(function () {});
  }

  if (navigator.geolocation) {
    navigator.geolocation.watchPosition(share, function (error) {
      document.getElementById('position-status').textContent =
        error.code === 1 ? 'The van\u2019s position is not shared: allow location for this site.' : 'Looking for the van\u2019s position\u2026';
    }, { enableHighAccuracy: true, maximumAge: 5000, timeout: 30000 });
  }

  setUp();
  window.setInterval(refresh, 15000);
  document.addEventListener('visibilitychange', refresh);
})();
