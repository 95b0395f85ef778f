// The console's live pages share this (docs/dispatch.md): the stream (/dispatch/stream), the
// debounce, a part fetch given up after 10 s, and the endings. A page's own script calls
//   window.vandLive({ part, url, events: { ride: function (data) { return true; }, van: true },
//                     paint: function (html) {}, delay, every, poll, hold })
// part: redrawn, data-live="open" while the stream is; events: true or a filter of the data;
// delay: debounce ms (500); every: also redraw this often; poll: while the stream is down (30 s);
// hold(): redraws wait while true (the page calls resume()). A redirect, 401 or 403, or `closed`
// session_ended: all stops, said once in #live. too_many_streams: look every 30 s, said once.
(function () {
  'use strict';
  if (!window.fetch || !window.AbortController) return;
  var SIGNED_OUT = 'You are signed out, so this page no longer updates itself. Sign in again to see what changed.';
  var STOPPED = 'Live updates stopped. Reload the page to see what changed.';
  var MOVED = 'Live updates moved to a newer console page; this page now looks again every 30 seconds.';
  var TIMEOUT = 10000;

  window.vandLive = function (options) {
    var part = options.part;
    var delay = options.delay || 500, pollEvery = options.poll || 30000;
    var stream = null, timer = null, polling = null, every = null, control = null;
    var busy = false, again = false, held = false, stopped = false, down = false, moved = false;
    var said = {};

    function say(words) {
      var live = document.getElementById('live');
      if (said[words] || !live) return;
      said[words] = true;
      live.textContent = words;
    }

    function address() { return typeof options.url === 'function' ? options.url() : options.url; }
    function holding() { return options.hold && options.hold(); }

    function redraw() {
      if (stopped) return;
      if (holding()) { held = true; return; }
      if (busy) { again = true; return; }
      busy = true;
      control = new AbortController();
      var guard = window.setTimeout(control.abort.bind(control), TIMEOUT);
      fetch(address(), { credentials: 'same-origin', headers: { Accept: 'text/html' }, signal: control.signal })
        .then(function (response) {
          if (response.redirected || response.status === 401 || response.status === 403) {
            stop(SIGNED_OUT);
            return null;
          }
          return response.ok ? response.text() : null;
        })
        .then(function (html) {
          if (html === null || stopped) return;
          if (holding()) { held = true; return; }
          options.paint(html);
        })
        .catch(function () {})
        .then(function () {
          window.clearTimeout(guard);
          control = null;
          busy = false;
          if (again && !stopped) { again = false; soon(); }
        });
    }

    function soon() {
      if (stopped) return;
      window.clearTimeout(timer);
      timer = window.setTimeout(function () { timer = null; redraw(); }, delay);
    }

    function poll(ms) {
      if (!polling && !stopped) polling = window.setInterval(soon, ms);
    }

    function quiet() {
      window.clearInterval(polling);
      polling = null;
    }

    function disconnect() {
      if (stream) stream.close();
      stream = null;
      part.removeAttribute('data-live');
    }

    function stop(words) {
      if (stopped) return;
      stopped = true;
      disconnect();
      quiet();
      window.clearInterval(every);
      window.clearTimeout(timer);
      if (control) control.abort();
      say(words);
    }

    function listen(name, wanted) {
      stream.addEventListener(name, function (event) {
        if (typeof wanted !== 'function') { soon(); return; }
        var data = null;
        try { data = JSON.parse(event.data); } catch (e) { soon(); return; }
        if (wanted(data)) soon();
      });
    }

    function connect() {
      if (stopped || stream) return;
      if (!window.EventSource) { poll(pollEvery); return; }
      stream = new EventSource('/dispatch/stream');
      Object.keys(options.events || {}).forEach(function (name) { listen(name, options.events[name]); });
      stream.addEventListener('open', function () {
        part.setAttribute('data-live', 'open');
        quiet();
        if (down) { down = false; soon(); }
      });
      stream.addEventListener('closed', function (event) {
        var reason = '';
        try { reason = JSON.parse(event.data).reason; } catch (e) { reason = ''; }
        disconnect();
        if (reason !== 'too_many_streams') { stop(reason === 'session_ended' ? SIGNED_OUT : STOPPED); return; }
        moved = true;
        say(MOVED);
        poll(30000);
      });
      stream.addEventListener('error', function () {
        part.removeAttribute('data-live');
        down = true;
        // Refused for good: look now (a redirect ends all), then poll. Reconnecting: poll meanwhile.
        if (stream && stream.readyState === EventSource.CLOSED) { disconnect(); soon(); }
        poll(pollEvery);
      });
    }

    if (options.every) every = window.setInterval(soon, options.every);
    connect();
    window.addEventListener('pagehide', function () { disconnect(); });
    window.addEventListener('pageshow', function (event) {
      if (event.persisted && !stopped && !moved) { down = true; connect(); }
    });

    return {
      soon: soon,
      resume: function () {
        if (held && !holding()) { held = false; soon(); }
      }
    };
  };
})();
