"""The dispatcher's console in a real browser (run by suite.py): a dispatcher signs in and lands
on /dispatch; riders and drivers are refused it; axe-core on every console page, screenshots at
desktop width. Each part of the console adds its flows in a module of its own,
`dispatch_<part>.py`, with a function `flows(console)` returning [(name, function)]; this file
finds them, so parts never edit each other's files.
"""
import glob
import importlib
import os
import re
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By

from suite import PASSWORD, Failed, Rider, Suite, Server, check, start_browser

DISPATCHER = ("dd300", "Dee Dispatcher")
DRIVER = ("dv301", "Dana Driver")
RIDER = ("ar302", "Ann Rivera")
PAGES = (("/dispatch", "Queue"), ("/dispatch/board", "Day board"), ("/dispatch/map", "Map"),
         ("/dispatch/alerts", "Alerts"), ("/dispatch/book", "Book for a rider"), ("/dispatch/appeals", "Appeals"))


class Dispatcher(Rider):
    """A browser at the dispatcher's console."""

    def audit(self, name):
        """axe (light and dark), weight, reflow, and the screenshot at desktop width."""
        self.suite.audit(self, name, desktop=True)


class Console:
    """What every part's flows share: the server, the suite, a signed-in dispatcher's browser
    (`dispatcher`), a browser with JavaScript off (`nojs`, signed in on first use), the accounts."""

    def __init__(self, server, suite, browser):
        self.server = server
        self.suite = suite
        self.dispatcher = Dispatcher(suite, browser)
        self.dispatcher_account = DISPATCHER
        self.driver_account = DRIVER
        self.rider_account = RIDER
        self.rider_tokens = {}
        self._nojs = None

    def rider_token(self, net_id, name):
        """A whitelisted rider with her own password, signed in through the API (cached)."""
        if net_id not in self.rider_tokens:
            self.rider_tokens[net_id] = self.server.api_rider(net_id, name)
        return self.rider_tokens[net_id]

    def approved_ride(self, rider, day, hour):
        """An SCL → Davenport ride booked by `rider` (net ID, name) through the API on `day` at
        `hour`:00 and approved with vanadmin: the API's answer (ref, id, …) and her token."""
        token = self.rider_token(*rider)
        status, body = self.server.api("POST", "/v1/rides", {"pickup": "SCL", "dropoff": "Davenport",
                                                             "pickup_at": f"{day.isoformat()}T{hour:02d}:00"}, token)
        check(status == 201, f"booking for {rider[0]} at {hour}:00 answered {status}: {body}")
        self.server.admin("rides", "approve", body["ref"])
        return body, token

    @property
    def nojs(self):
        if self._nojs is None:
            browser = start_browser(javascript=False)
            self._nojs = Dispatcher(self.suite, browser, javascript=False)
            self._nojs.sign_in(DISPATCHER[0], PASSWORD)
            self._nojs.wait_path(r"^dispatch$")
        return self._nojs

    def close(self):
        if self._nojs is not None:
            self._nojs.d.quit()


def dispatch_flows(args, browser):
    """The console on a vand of its own; the suite with its counts."""
    server = Server(args.bin, env={"VAND_AUTO_APPROVE": "false"})
    suite = Suite(server, args.screenshots)
    console = Console(server, suite, browser)
    try:
        server.admin("demo")
        server.admin("hours", "set", "Mon-Sun 00:00-24:00")
        temporary = re.search(r"temporary password: (\S+)", server.admin("dispatchers", "add", DISPATCHER[0], "--name", DISPATCHER[1])).group(1)
        driver_temporary = re.search(r"temporary password: (\S+)", server.admin("drivers", "add", DRIVER[0], "--name", DRIVER[1])).group(1)
        _, login = server.api("POST", "/v1/session", {"net_id": DRIVER[0], "password": driver_temporary})
        server.api("POST", "/v1/password", {"current": driver_temporary, "new": PASSWORD}, login["token"])
        console.rider_token(*RIDER)
        d = console.dispatcher

        def dispatcher_signs_in_and_lands_on_the_console():
            browser.delete_all_cookies()
            d.sign_in(DISPATCHER[0], temporary)
            d.wait_path(r"^password")
            d.type("#current", temporary)
            d.type("#new", PASSWORD)
            d.type("#confirm", PASSWORD)
            d.click("form[action='/password'] button[type=submit]")
            d.wait_path(r"^dispatch$")
            d.click("footer form[action='/sign-out'] button")
            d.wait_text("You are signed out")
            d.sign_in(DISPATCHER[0], PASSWORD)
            d.wait_path(r"^dispatch$")
            nav = [a.text for a in d.d.find_elements(By.CSS_SELECTOR, "nav[aria-label=Main] a")]
            check(nav == [title for _, title in PAGES], f"the console's navigation is {nav}")

        def every_console_page_passes_axe():
            for path, title in PAGES:
                d.go(path)
                d.wait(lambda _: d.el("h1").text.strip() != "", f"{path} has no heading")
                current = d.el("nav a[aria-current=page]").text
                check(current == title, f"{path}: the navigation marks {current!r}")
                d.audit("dispatch-" + (path.rsplit("/", 1)[-1] if path != "/dispatch" else "queue"))

        def riders_and_drivers_are_refused_the_console():
            for net_id in (RIDER[0], DRIVER[0]):
                other = Rider(suite, start_browser(javascript=True))
                try:
                    other.sign_in(net_id, PASSWORD)
                    other.wait_path(r"^$|^\?|^driver")
                    cookie = "vand_session=" + other.d.get_cookie("vand_session")["value"]
                    for path, _ in PAGES:
                        try:
                            with urllib.request.urlopen(urllib.request.Request(server.base + path, headers={"Cookie": cookie, "Accept": "text/html"}), timeout=30) as answer:
                                raise Failed(f"{path} answered {net_id} {answer.status}")
                        except urllib.error.HTTPError as error:
                            check(error.code == 403, f"{path} answered {net_id} {error.code}")
                finally:
                    other.d.quit()
            # The rider's own browser shows the refusal page with her navigation.
            rider = Rider(suite, start_browser(javascript=True))
            try:
                rider.sign_in(RIDER[0], PASSWORD)
                rider.wait_path(r"^$|^\?")
                rider.go("/dispatch")
                rider.wait_text("Only a dispatcher uses this.")
                check(rider.el("h1").text == "Not for this kind of account", f"heading {rider.el('h1').text!r}")
            finally:
                rider.d.quit()

        suite.run("dispatcher signs in and lands on the console", dispatcher_signs_in_and_lands_on_the_console)
        suite.run("every console page passes axe", every_console_page_passes_axe)
        suite.run("riders and drivers are refused the console", riders_and_drivers_are_refused_the_console)
        here = os.path.dirname(os.path.abspath(__file__))
        # The console's parts, then the rider's standing series (series.py) on the same vand.
        for path in sorted(glob.glob(os.path.join(here, "dispatch_*.py"))) + [os.path.join(here, "series.py")]:
            module = importlib.import_module(os.path.basename(path)[:-3])
            for name, function in module.flows(console):
                suite.run(name, function)
    finally:
        console.close()
        server.stop()
    return suite
