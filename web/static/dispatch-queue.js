// The queue and the alerts (/dispatch, /dispatch/alerts): with JavaScript (and dispatch-live.js),
// the list follows the console's live stream. On a ride or alert event the page re-fetches its
// part (data-part) and says what is new in the polite live region; focus stays where it was.
// Every action stays a plain form, and without this file the page works by reloading.
(function () {
  'use strict';
  var part = document.querySelector('[data-part]');
  if (!part || !window.vandLive || !('content' in document.createElement('template'))) return;
  var live = document.getElementById('live');
  var isQueue = part.id === 'queue-part';
  var marker = isQueue ? '[data-ref]' : '[data-alert]';

  function items(root) { return Array.prototype.slice.call(root.querySelectorAll(marker)); }
  // A reason being typed, or a field's error message, is never thrown away: the redraw waits
  // until the field is left empty or the form is sent.
  function typing() {
    return !!part.querySelector('.invalid') ||
      Array.prototype.some.call(part.querySelectorAll('input[type="text"]'), function (input) { return input.value !== ''; });
  }
  function words(item) {
    return isQueue ? 'New ride waiting: ' + item.getAttribute('data-ref') + ' for ' + item.getAttribute('data-rider') + '.'
                   : 'New alert: ' + item.getAttribute('data-words') + '.';
  }
  function paint(html) {
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
  }

  var events = { ride: true };
  if (!isQueue) events.alert = true;
  var page = window.vandLive({
    part: part,
    url: function () { return part.getAttribute('data-part'); },
    events: events,
    paint: paint,
    delay: 250,
    // A ride crossing the pending limit and a delivery parked send no event: the alerts look again each minute.
    every: isQueue ? 0 : 60000,
    hold: typing
  });
  part.addEventListener('focusout', page.resume);
})();
