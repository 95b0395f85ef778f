"""A DevTools protocol connection of its own to the page a Selenium-driven Chromium shows, for
the flows that need what WebDriver cannot do: the browser's request interception (the Fetch
domain: a request held and never answered, every request of a kind seen in order), the event
stream's messages as the page receives them, and the page's virtual clock (its timers run ahead
at once, so "nothing happens in the next two minutes" is checked without waiting two minutes).

Every wait here is for an event the browser reports, with a deadline against a hang; nothing
sleeps for timing.
"""
import json
import threading
import urllib.request

import websocket

from suite import WAIT, Failed


class DevTools:
    """Chromium's DevTools protocol on the page `driver` shows now (its window's target)."""

    def __init__(self, driver):
        address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen(f"http://{address}/json/list", timeout=WAIT) as answer:
            targets = json.load(answer)
        target = next((t for t in targets if t["id"] == driver.current_window_handle), None)
        if target is None:
            raise Failed(f"no DevTools target for the window {driver.current_window_handle}")
        self.socket = websocket.create_connection(target["webSocketDebuggerUrl"], suppress_origin=True, timeout=WAIT)
        self.socket.settimeout(None)
        self.changed = threading.Condition()
        self.replies = {}
        self.events = []
        self.last_id = 0
        self.pattern_hold = None
        self.paused = []      # (url, request id), in the order the page sent them
        self.held = []        # request ids held, never answered (until release())
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while True:
            try:
                message = json.loads(self.socket.recv())
            except Exception:  # noqa: BLE001 — the connection closed: the reader ends
                with self.changed:
                    self.changed.notify_all()
                return
            if message.get("method") == "Fetch.requestPaused":
                self._paused(message["params"])
            with self.changed:
                if "id" in message:
                    self.replies[message["id"]] = message
                else:
                    self.events.append(message)
                self.changed.notify_all()

    def _paused(self, params):
        url, request = params["request"]["url"], params["requestId"]
        with self.changed:
            self.paused.append((url, request))
            hold = self.pattern_hold is not None and self.pattern_hold(url, len(self.paused))
            if hold:
                self.held.append(request)
        if not hold:
            self._send("Fetch.continueRequest", {"requestId": request})

    def _send(self, method, params):
        with self.changed:
            self.last_id += 1
            number = self.last_id
        self.socket.send(json.dumps({"id": number, "method": method, "params": params or {}}))
        return number

    def command(self, method, params=None):
        """Sends `method` and waits for its answer; its result."""
        number = self._send(method, params)
        with self.changed:
            if not self.changed.wait_for(lambda: number in self.replies, timeout=WAIT):
                raise Failed(f"DevTools never answered {method}")
            reply = self.replies.pop(number)
        if "error" in reply:
            raise Failed(f"DevTools refused {method}: {reply['error']}")
        return reply.get("result", {})

    def wait_for(self, condition, message, timeout=WAIT):
        """Waits until `condition()` (read under the lock, as events arrive) holds; its value."""
        with self.changed:
            found = self.changed.wait_for(condition, timeout=timeout)
        if not found:
            raise Failed(message)
        return found

    def intercept(self, url_pattern, hold=None):
        """Pauses every request whose URL matches `url_pattern` (`*` a wildcard) and continues it,
        except those for which `hold(url, n)` (n: its place among the paused, from 1) says True:
        those are held, never answered until `release()`, as a server that hangs."""
        self.pattern_hold = hold
        self.command("Fetch.enable", {"patterns": [{"urlPattern": url_pattern, "requestStage": "Request"}]})

    def requests(self):
        """The URLs of the requests paused so far, in order."""
        with self.changed:
            return [url for url, _ in self.paused]

    def settle(self, driver, path):
        """Sends one request of the page's own to `path` (the interception must match it) and waits
        until it is paused: the page's requests go out in order, so every one it sent before has
        been seen by then. Such requests carry `settle=` in their query."""
        marker = f"{path}{'&' if '?' in path else '?'}settle={len(self.requests())}"
        driver.execute_script("fetch(arguments[0], {credentials: 'omit'}).catch(function () {});", marker)
        self.wait_for(lambda: any(url.endswith(marker) for url, _ in self.paused), f"the page's request {marker} was never seen")

    def release(self):
        """Lets every held request go on to the server."""
        with self.changed:
            held, self.held = self.held, []
        for request in held:
            self._send("Fetch.continueRequest", {"requestId": request})

    def listen_to_streams(self):
        """Reports the page's event-stream messages (`Network.eventSourceMessageReceived`)."""
        self.command("Network.enable")

    def stream_event(self, name):
        """The event-stream messages named `name` the page received so far (their data)."""
        with self.changed:
            return [e["params"]["data"] for e in self.events
                    if e.get("method") == "Network.eventSourceMessageReceived" and e["params"].get("eventName") == name]

    def run_clock(self, milliseconds):
        """Runs the page's clock `milliseconds` ahead at once (its timers fire as they come due) and
        waits until it has; the clock then stands still until the next call. Network answers
        still arrive in real time."""
        before = len(self.events)
        self.command("Emulation.setVirtualTimePolicy", {"policy": "advance", "budget": milliseconds})
        self.wait_for(lambda: any(e.get("method") == "Emulation.virtualTimeBudgetExpired" for e in self.events[before:]),
                      f"the page's clock never ran {milliseconds} ms ahead")

    def close(self):
        try:
            self.socket.close()
        except Exception:  # noqa: BLE001 — closing what may be closed already
            pass
