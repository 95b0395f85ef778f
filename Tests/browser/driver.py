"""The driver's day in a real browser (run by suite.py): sign in as a driver, start a shift,
arrive, board, undo, drop off, a no-show refused before the wait and allowed after it, end the
shift; the same with JavaScript off; a rider refused /driver; axe-core on every driver page.

The driver's vand runs on the real clock with a no-show wait of 30 seconds
(VAND_NO_SHOW_WAIT, a setting in seconds) and on-demand rides picked up at once
(VAND_ON_DEMAND_MINUTES=0), so a ride's pickup window holds "now" and the wait passes while
the page counts it down: the suite waits for the page, never sleeps.
"""
import re
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from selenium.common.exceptions import StaleElementReferenceException

from suite import PASSWORD, WAIT, Failed, Rider, Server, Suite, check, start_browser
from suite import phone as phone_screen

NO_SHOW_WAIT = 30  # seconds: the refusal must come within it after the arrival, so never under the suite's 30 s (scripts/check-test-clocks)
DRIVER = ("dv100", "Dana Driver")


class Driver(Rider):
    """A browser at the driver's pages."""

    def next_stop(self):
        """(kind, rider) of the large next stop: ("Pick up", "Ann R.")."""
        section = self.el("section.next-stop")
        # textContent: the label is shown in capitals (CSS), its words are "Next: Pick up".
        label = section.find_element(By.CSS_SELECTOR, ".next-label").get_attribute("textContent")
        return label.replace("Next: ", "").strip(), section.find_element(By.CSS_SELECTOR, ".next-rider").get_attribute("textContent").strip()

    def tap(self, action, refused_ok=False):
        """Taps the next stop's button for `action` (arrived, boarded, no_show, dropped_off)."""
        before = self.version()
        for attempt in range(2):
            buttons = self.d.find_elements(By.CSS_SELECTOR, f"section.next-stop form.tap-form button.{action}")
            if not buttons:
                raise Failed(f"no {action} button; the page says: {self.main_text()[:500]!r}")
            try:
                buttons[0].click()
                break
            except StaleElementReferenceException:
                # The page redrew itself (the end of a no-show wait) between finding and clicking.
                if attempt == 1:
                    raise
                before = self.version()
        # With JavaScript the run is redrawn in place (a new version); without, the page reloads.
        self.wait(lambda d: self.version() != before, f"the run did not change after tapping {action}")
        refusals = self.d.find_elements(By.CSS_SELECTOR, "#run .refusal")
        if refusals and not refused_ok:
            raise Failed(f"tapping {action} was refused: {refusals[0].text!r}")

    def version(self):
        """The run's version (the server's digest of what it shows), or None between pages."""
        try:
            return self.el("#run [data-version]").get_attribute("data-version")
        except Exception:
            return None

    def live(self):
        return self.el("#live").text

    def buttons(self):
        return [b.text for b in self.d.find_elements(By.CSS_SELECTOR, "section.next-stop .taps button")]


def contrast(d, css):
    """The WCAG contrast ratio of the element's text against its own background (both opaque)."""
    colours = d.execute_script("""
        var s = getComputedStyle(document.querySelector(arguments[0]));
        return [s.color, s.backgroundColor].map(function (c) { return c.match(/[0-9.]+/g).slice(0, 3).map(Number); });""", css)

    def luminance(rgb):
        def channel(v):
            v = v / 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        r, g, b = (channel(v) for v in rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((luminance(colours[0]), luminance(colours[1])), reverse=True)
    return (high + 0.05) / (low + 0.05)


def driver_flows(args, browser):
    """The driver's day on a vand of its own; the suite with its counts."""
    server = Server(args.bin, env={"VAND_NO_SHOW_WAIT": str(NO_SHOW_WAIT), "VAND_ON_DEMAND_MINUTES": "0", "VAND_AUTO_APPROVE": "true"})
    suite = Suite(server, args.screenshots)
    nojs_browser = None
    try:
        server.admin("demo")
        server.admin("hours", "set", "Mon-Sun 00:00-24:00")
        # One van takes every ride, so the run is the one the driver starts on.
        server.admin("vans", "retire", "Van 2")
        server.admin("vans", "retire", "Van 3")
        # Promise windows of 30 minutes: a van starting its day takes a while to reach the first pickup,
        # and every ride here is asked for "now" (the window starts at the booking).
        server.admin("scheduler", "set", "--window", "30")
        out = server.admin("drivers", "add", DRIVER[0], "--name", DRIVER[1])
        temporary = re.search(r"temporary password: (\S+)", out).group(1)
        riders = {}
        for net_id, name, phone in (("ar200", "Ann Rivera", "203-555-0111"), ("bs201", "Ben Stone", "203-555-0112"),
                                    ("cw202", "Cleo Walsh", "203-555-0113"), ("dk203", "Dev Khan", None)):
            token = server.api_rider(net_id, name)
            if phone:
                status, _ = server.api("PATCH", "/v1/me", {"phone": phone}, token)
                check(status == 200, f"setting {name}'s phone answered {status}")
            riders[net_id] = token

        def book(net_id, dropoff, **extra):
            status, body = server.api("POST", "/v1/rides", {"kind": "on_demand", "pickup": "SCL", "dropoff": dropoff, **extra}, riders[net_id])
            check(status == 201, f"booking for {net_id} answered {status}: {body}")
            check(body.get("status") == "approved", f"the ride is {body.get('status')}, not approved")
            return body

        driver = Driver(suite, browser)
        state = {}

        def rider_refused():
            browser.delete_all_cookies()
            driver.sign_in("ar200", PASSWORD)
            driver.wait_path(r"^$|^\?")
            driver.go("/driver")
            driver.wait_text("Only a driver on shift uses this.")
            check(driver.el("h1").text == "Not for this kind of account", f"heading {driver.el('h1').text!r}")
            nav = [a.get_attribute("href").split(server.base)[-1] for a in driver.d.find_elements(By.CSS_SELECTOR, "nav a")]
            check("/rides" in nav and "/driver" not in nav, f"the refused rider's navigation is {nav}")
            cookie = "vand_session=" + driver.d.get_cookie("vand_session")["value"]
            for path in ("/driver", "/driver/run"):
                try:
                    with urllib.request.urlopen(urllib.request.Request(server.base + path, headers={"Cookie": cookie}), timeout=30) as answer:
                        raise Failed(f"{path} answered a rider {answer.status}")
                except urllib.error.HTTPError as error:
                    check(error.code == 403, f"{path} answered a rider {error.code}")
            driver.audit("driver-refused")
            driver.click("footer form[action='/sign-out'] button")
            driver.wait_text("You are signed out")

        def driver_signs_in_and_starts_a_shift():
            driver.sign_in(DRIVER[0], temporary)
            driver.wait_path(r"^password")
            driver.type("#current", temporary)
            driver.type("#new", PASSWORD)
            driver.type("#confirm", PASSWORD)
            driver.click("form[action='/password'] button[type=submit]")
            driver.wait_path(r"^driver$")
            driver.wait_text("Start your shift")
            # Signed out and in again: a driver lands on her page.
            driver.click("footer form[action='/sign-out'] button")
            driver.wait_text("You are signed out")
            driver.sign_in(DRIVER[0], PASSWORD)
            driver.wait_path(r"^driver$")
            driver.audit("driver-start")
            # Start without a van: the error by the choice.
            driver.click("form[action='/driver/shift'] button[type=submit]")
            driver.wait_text("Choose the van you are driving")
            check("error-summary" in (driver.focused().get_attribute("class") or ""), "focus did not move to the error summary")
            driver.audit("driver-start-error")
            # A rider's page is not hers.
            driver.go("/book")
            driver.wait_text("Not for this kind of account")
            check(driver.d.find_elements(By.CSS_SELECTOR, "nav a[href='/driver']"), "a driver refused a rider's page lost her navigation")
            driver.go("/driver")
            # Rides booked now (picked up at once: VAND_ON_DEMAND_MINUTES=0), auto-approved onto Van 1.
            state["ann"] = book("ar200", "Davenport", needs_wheelchair=True, companions=1, note="Side door, ramp please")
            state["ben"] = book("bs201", "Bass")
            driver.el("form[action='/driver/shift'] input[type=radio]").click()
            driver.click("form[action='/driver/shift'] button[type=submit]")
            driver.wait_text("today's run")
            check(driver.d.current_url.endswith("/driver"), f"after starting: {driver.d.current_url}")

        def the_run_shows_the_next_stop_large():
            browser.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.base, "permissions": ["geolocation"]})
            browser.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": 41.31633, "longitude": -72.92241, "accuracy": 12})
            driver.go("/driver")
            kind, rider = driver.next_stop()
            check(kind == "Pick up" and rider in ("Ann R.", "Ben S."), f"next stop {kind!r} {rider!r}")
            text = driver.el("section.next-stop").text
            check("Sterling Chemistry Lab" in text, "the place is not shown")
            check(re.search(r"Pick-up window\s+\d{1,2}:\d{2} [AP]M to \d{1,2}:\d{2} [AP]M", text), f"no promise window in {text!r}")
            check(re.search(r"Planned\s+\d{1,2}:\d{2} [AP]M", text), "no planned time")
            later = driver.el("#later-heading").text
            check(re.fullmatch(r"Later stops \(3\)", later), f"later stops heading {later!r} (Ann on {state['ann'].get('van')} at {state['ann'].get('pickup_at')}, Ben on {state['ben'].get('van')} at {state['ben'].get('pickup_at')})")
            if rider == "Ann R.":
                check("Side door, ramp please" in text and "Yes, needs a wheelchair position" in text, "Ann's note or wheelchair missing")
                check(driver.el("section.next-stop a[href^='tel:']").get_attribute("href") == "tel:2035550111", "no tap-to-call for Ann")
            button = driver.el("section.next-stop button.arrived")
            name = button.get_attribute("textContent")
            check(re.fullmatch(rf"Arrived at Sterling Chemistry Lab to pick up {rider}", " ".join(name.split())), f"the Arrived button is named {name!r}")
            size = button.size
            check(size["height"] >= 56 and size["width"] >= 300, f"the Arrived button is {size}")
            # The phone shares the van's position with the server (the page says so when it was accepted).
            driver.wait(lambda d: "Sharing the van" in d.find_element(By.ID, "position-status").text, "the position was never shared")
            driver.audit("driver-run")

        def arrive_refused_no_show_then_wait():
            # Ben's pickup (whichever comes first, Ann's is boarded on the way).
            for _ in range(4):
                kind, rider = driver.next_stop()
                if rider == "Ben S.":
                    break
                run_ann_stop(kind)
            check(driver.next_stop() == ("Pick up", "Ben S."), f"Ben's pickup never came next: {driver.next_stop()}")
            driver.tap("arrived")
            driver.wait(lambda d: "Arrived at Sterling Chemistry Lab to pick up Ben S." in driver.live(), "the arrival was not announced")
            wait = driver.el("section.next-stop .wait")
            check(re.match(r"No-show possible at \d{1,2}:\d{2} [AP]M", wait.text), f"wait line {wait.text!r}")
            driver.wait(lambda d: re.search(r"\(in 0:[0-5]\d\)", wait.text), "the wait does not count down")
            buttons = driver.buttons()
            check(len(buttons) == 1 and buttons[0].startswith("On board"), f"buttons before the wait: {buttons}")
            check(not driver.d.find_elements(By.CSS_SELECTOR, "section.next-stop button.no_show"), "No-show offered before the wait")
            # A no-show sent before the wait (an old page, a retried form): refused next to the action.
            # Sent at once, before any audit: only a few steps stand between the arrival and it, far
            # inside the 30 s wait however loaded the machine (an audit first took most of it).
            driver.d.execute_script("""
                var form = document.querySelector('section.next-stop form.tap-form').cloneNode(true);
                form.querySelector('input[name=action]').value = 'no_show';
                form.querySelector('input[name=key]').value = crypto.randomUUID();
                form.querySelector('button').className = 'tap no_show forged';
                document.querySelector('section.next-stop .taps').appendChild(form);""")
            driver.click("button.forged")
            driver.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "section.next-stop .refusal"), "no refusal by the action")
            refusal = driver.el("section.next-stop .refusal").text
            check(re.fullmatch(rf"No-show is possible from \d{{1,2}}:\d{{2}} [AP]M, after the {NO_SHOW_WAIT}-second wait\.", refusal), f"refusal {refusal!r}")
            driver.wait(lambda d: refusal in driver.live(), "the refusal was not announced")
            check("refused" in (driver.el("#live").get_attribute("class") or "").split(), "the refusal is shown in the success style")
            check(driver.next_stop() == ("Pick up", "Ben S."), "the driver's place was lost after the refusal")
            check("Arrived" in driver.el("section.next-stop").text, "the arrival was lost after the refusal")
            driver.audit("driver-refusal")
            # The countdown ends; the page redraws with the No-show button and says so.
            driver.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "section.next-stop button.no_show"), "No-show never offered after the wait",
                        timeout=NO_SHOW_WAIT + WAIT)
            driver.wait(lambda d: "No-show is now possible for Ben S." in driver.live(), "the end of the wait was not announced")
            check("Ben S.." not in driver.live(), f"the end of the wait reads {driver.live()!r} (a doubled full stop)")
            driver.tap("no_show")
            driver.wait(lambda d: "Ben S. is marked a no-show" in driver.live(), "the no-show was not announced")

        def run_ann_stop(kind):
            if kind == "Pick up":
                driver.tap("arrived")
                # At once, inside the no-show wait: tap() clicks again should the wait's end redraw the run.
                driver.tap("boarded")
                driver.wait(lambda d: "Ann R. is on board" in driver.live(), "boarding was not announced")
                # Undo: back to arrived, the On board button again; then board again.
                undo = driver.el("form.undo button")
                named = " ".join(undo.get_attribute("textContent").split())
                check(named == "Undo on board: Ann R. at Sterling Chemistry Lab", f"undo is named {named!r}")
                before = driver.version()
                undo.click()
                driver.wait(lambda d: driver.version() != before, "the undo did not redraw the run")
                driver.wait(lambda d: "Undone: on board for Ann R." in driver.live(), "the undo was not announced")
                check(driver.next_stop() == ("Pick up", "Ann R.") and driver.buttons()[0].startswith("On board"), "the undo did not put Ann back to arrived")
                driver.tap("boarded")
            else:
                driver.tap("arrived")
                driver.tap("dropped_off")
                driver.wait(lambda d: "Ann R. is dropped off" in driver.live(), "the drop-off was not announced")

        def board_and_drop_off_the_rest():
            for _ in range(4):
                if not driver.d.find_elements(By.CSS_SELECTOR, "section.next-stop .next-rider"):
                    break
                kind, rider = driver.next_stop()
                check(rider == "Ann R.", f"unexpected stop {kind} {rider}")
                run_ann_stop(kind)
            driver.wait_text("No stops left")
            done = driver.el("#done-heading").text
            check(done == "Done stops (3)", f"done heading {done!r}")  # Ann's pickup and drop-off, Ben's no-show
            check(not driver.el("details.done").get_attribute("open"), "done stops are not collapsed")
            status, ride = server.api("GET", f"/v1/rides/{state['ann']['id']}", token=riders["ar200"])
            check(ride.get("status") == "completed", f"Ann's ride is {ride.get('status')}")
            status, ride = server.api("GET", f"/v1/rides/{state['ben']['id']}", token=riders["bs201"])
            check(ride.get("status") == "no_show", f"Ben's ride is {ride.get('status')}")

        def end_shift():
            driver.click_text("End shift")
            driver.wait_text("End your shift?")
            driver.audit("driver-end")
            # Bright sun: the main action is 7:1 like the driver's others, in light and in dark (was 6.54:1).
            for dark in (False, True):
                phone_screen(driver.d, dark=dark)
                ratio = contrast(driver.d, "form[action='/driver/shift/end'] button")
                check(ratio >= 7, f"'Yes, end my shift' has a contrast of {ratio:.2f}:1 in {'dark' if dark else 'light'} mode")
            phone_screen(driver.d)
            driver.click("form[action='/driver/shift/end'] button")
            driver.wait_text("Your shift is ended")
            check(driver.d.find_elements(By.CSS_SELECTOR, "form[action='/driver/shift'] input[type=radio]"), "Van 1 is not free again")

        def keyboard_only():
            # Start a shift and tap Arrived with the keyboard alone: Tab to the control, Space/Enter.
            from selenium.webdriver.common.keys import Keys
            from selenium.webdriver import ActionChains
            # A fresh van for the rest of the day (Van 1 drove the first riders and is busy on paper):
            # two riders picked up at once, as the first two.
            server.admin("vans", "add", "Van 4", "--seats", "8", "--wheelchair", "1")
            server.admin("vans", "retire", "Van 1")
            state["cleo"] = book("cw202", "Commons")
            state["dev"] = book("dk203", "Gym")
            driver.go("/driver")
            radio = driver.el("form[action='/driver/shift'] input[type=radio]")
            for _ in range(30):
                ActionChains(driver.d).send_keys(Keys.TAB).perform()
                if driver.focused() == radio:
                    break
            check(driver.focused() == radio, "the van choice is not reachable with Tab")
            ActionChains(driver.d).send_keys(Keys.SPACE).perform()
            ActionChains(driver.d).send_keys(Keys.TAB).perform()
            check(driver.focused().text == "Start shift", f"Tab after the van lands on {driver.focused().text!r}")
            ActionChains(driver.d).send_keys(Keys.ENTER).perform()
            driver.wait_text("today's run")
            arrived = driver.el("section.next-stop button.arrived")
            for _ in range(40):
                ActionChains(driver.d).send_keys(Keys.TAB).perform()
                if driver.focused() == arrived:
                    break
            check(driver.focused() == arrived, "the Arrived button is not reachable with Tab")
            before = driver.version()
            ActionChains(driver.d).send_keys(Keys.ENTER).perform()
            driver.wait(lambda d: driver.version() != before, "Enter on Arrived did nothing")
            check(driver.focused().tag_name == "button" and driver.focused().text.startswith("On board"),
                  f"after the tap focus is on {driver.focused().text!r}, not the next action")
            driver.go("/driver/end")
            driver.click("form[action='/driver/shift/end'] button")
            driver.wait_text("Your shift is ended")

        def no_javascript_day():
            nonlocal nojs_browser
            nojs_browser = start_browser(javascript=False)
            plain = Driver(suite, nojs_browser, javascript=False)
            plain.sign_in(DRIVER[0], PASSWORD)
            plain.wait_path(r"^driver$")
            plain.el("form[action='/driver/shift'] input[type=radio]").click()
            plain.click("form[action='/driver/shift'] button[type=submit]")
            plain.wait_text("today's run")
            plain.audit("driver-nojs-run")
            seen = set()
            for _ in range(8):
                if not plain.d.find_elements(By.CSS_SELECTOR, "section.next-stop .next-rider"):
                    break
                kind, rider = plain.next_stop()
                if rider == "Dev K.":
                    if plain.buttons()[0].startswith("Arrived"):
                        plain.tap("arrived")
                        plain.wait_text("Arrived at Sterling Chemistry Lab to pick up Dev K.")
                        check("No-show possible at" in plain.main_text(), "no wait shown without JavaScript")
                    # Without JavaScript the page offers "Check again"; the wait passes, then No-show.
                    WebDriverWait(plain.d, NO_SHOW_WAIT + WAIT, poll_frequency=1).until(
                        lambda d: d.find_elements(By.CSS_SELECTOR, "section.next-stop button.no_show") or plain.click_text("Check again"))
                    plain.tap("no_show")
                    plain.wait_text("Dev K. is marked a no-show")
                    seen.add("no-show")
                elif kind == "Pick up":
                    if plain.buttons()[0].startswith("Arrived"):
                        plain.tap("arrived")
                    plain.tap("boarded")
                    plain.wait_text(f"{rider} is on board")
                    if "undo" not in seen:
                        plain.click("form.undo button")
                        plain.wait_text(f"Undone: on board for {rider}")
                        plain.tap("boarded")
                        seen.add("undo")
                else:
                    if plain.buttons()[0].startswith("Arrived"):
                        plain.tap("arrived")
                    plain.tap("dropped_off")
                    plain.wait_text(f"{rider} is dropped off")
                    seen.add("drop-off")
            check(seen == {"no-show", "undo", "drop-off"}, f"without JavaScript the day did {sorted(seen)}")
            plain.wait_text("No stops left")
            plain.click_text("End shift")
            plain.wait_text("End your shift?")
            plain.click("form[action='/driver/shift/end'] button")
            plain.wait_text("Your shift is ended")

        for name, function in [
            ("a rider who opens /driver gets the 403 page in the app's style", rider_refused),
            ("a driver signs in, lands on /driver, is refused a rider's page and starts a shift", driver_signs_in_and_starts_a_shift),
            ("the run shows the next stop large, named buttons and the shared position", the_run_shows_the_next_stop_large),
            ("arrived; a no-show before the wait is refused by the action; after the countdown it is allowed", arrive_refused_no_show_then_wait),
            ("on board, undo, on board, dropped off; the done stops collapsed", board_and_drop_off_the_rest),
            ("end the shift (confirmed); the van is free again", end_shift),
            ("keyboard only: choose a van, start, tap Arrived, focus on the next action", keyboard_only),
            ("with JavaScript off: start, arrive, board, undo, drop off, no-show after the wait, end", no_javascript_day),
        ]:
            suite.run(f"driver: {name}", function)
    finally:
        if nojs_browser:
            nojs_browser.quit()
        browser.delete_all_cookies()
        server.stop()
    return suite
