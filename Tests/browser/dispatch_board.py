"""The day board in a real browser (run by dispatch.py): rides booked through the API and
approved with vanadmin; the board's fleet summary lists the vans, and a van chosen shows its
stops; a ride found by its reference typed as spoken ("k7m 3qx"); moved to another time; a move
that cannot be (a time in the past) refused by the field; the same find and move with JavaScript off; the whole
flow with the keyboard alone; a driver's taps shown live on the open board; axe on the board and
the ride's page.
"""
import datetime
import uuid

from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from suite import PASSWORD, ZONE, Failed, check

RIDERS = (("bb310", "Bea Board"), ("bb311", "Ben Board"), ("bb312", "Bo Board"))


def spoken(ref):
    """K7M-3QX as a dispatcher types it from the phone: "k7m 3qx"."""
    return ref.lower().replace("-", " ")


def flows(console):
    server = console.server
    d = console.dispatcher
    day = datetime.datetime.now(ZONE).date() + datetime.timedelta(days=1)
    yesterday = day - datetime.timedelta(days=2)
    state = {}

    def book(rider, hour):
        """An approved SCL → Davenport ride for `rider` tomorrow at `hour`:00; its reference."""
        return console.approved_ride(rider, day, hour)[0]["ref"]

    def rides():
        if not state:
            state["a"] = book(RIDERS[0], 9)
            state["b"] = book(RIDERS[1], 10)
            state["c"] = book(RIDERS[2], 11)
        return state

    def find(browser, text):
        browser.type("#ref", text)
        browser.click("form[action='/dispatch/find'] button[type=submit]")

    def van_of(ref):
        """The id of the van holding ride `ref`."""
        return server.sql(f"SELECT van_id FROM rides WHERE ref = '{ref}'")

    def choose_van(browser, ref):
        """Follows the fleet summary's link to the van holding `ref`; waits for the ride's row."""
        browser.click(f"table.fleet a[href*='van={van_of(ref)}#']")
        browser.wait_path(rf"^dispatch/board\?day=[-\d]+&van={van_of(ref)}$")
        check(browser.d.current_url.endswith(f"#van-{van_of(ref)}"), f"the van's link lands at {browser.d.current_url}")
        browser.wait(lambda _: browser.d.find_elements(By.ID, f"ride-{ref}"), f"the van's stops do not show {ref}")

    def move(browser, at):
        browser.type("#at", at)
        browser.click("form[action$='/move'] button[type=submit]")

    def board_shows_the_days_rides_and_finds_one_as_spoken():
        refs = rides()
        d.go(f"/dispatch/board?day={day.isoformat()}")
        d.wait_text("Vans: choose one to see its stops")
        fleet = d.el("table.fleet").text
        check(refs["a"] in fleet, f"the 9:00 ride is no van's next stop: {fleet!r}")
        check(not d.d.find_elements(By.CSS_SELECTOR, "table.board"), "a van's stops shown before one was chosen")
        d.audit("dispatch-board-fleet")
        for key in ("a", "b", "c"):
            choose_van(d, refs[key])
            row = d.el(f"#ride-{refs[key]}")
            check("Pickup" in row.text, f"the row of {refs[key]} reads {row.text!r}")
            current = d.el("table.fleet a[aria-current='true']").get_attribute("href")
            check(f"van={van_of(refs[key])}#" in current, f"the chosen van is not marked current: {current}")
        check(d.el("table.board caption").text.endswith("stops in route order"), "no caption on the van's table")
        d.audit("dispatch-board")
        # A malformed reference: the message by the field, what was typed kept.
        find(d, "k7m 3q")
        d.wait_text("That is not a ride reference")
        check(d.el("#ref").get_attribute("value") == "k7m 3q", "the typed reference was not kept")
        check(d.el("#ref").get_attribute("aria-invalid") == "true", "the field is not marked invalid")
        find(d, spoken(refs["a"]))
        d.wait_path(rf"^dispatch/rides/{refs['a']}$")
        d.wait_text("Bea Board (bb310)")
        d.audit("dispatch-ride")

    def move_a_ride_and_a_move_refused_by_the_field():
        refs = rides()
        d.go(f"/dispatch/rides/{refs['a']}")
        move(d, "3:30 PM")
        d.wait_text("The ride is moved")
        check("Pickup between 3:30 PM and" in d.main_text(), f"the promise did not move: {d.main_text()[:400]!r}")
        check("ride move" in d.main_text(), "the history does not show the move")
        move(d, f"{yesterday.isoformat()} 10:00")
        d.wait_text("The new time is in the past")
        error = d.el("#at-error").text
        check("The new time is in the past; choose a time from now on" in error, f"the refusal reads {error!r}")
        check(d.el("#at").get_attribute("value") == f"{yesterday.isoformat()} 10:00", "the typed time was not kept")
        check("Pickup between 3:30 PM and" in d.main_text(), "a refused move changed the ride")
        # Back on the board, the ride's anchor is its row.
        d.click("p.back a")
        d.wait_path(r"^dispatch/board\?day=")
        check(d.d.current_url.endswith(f"#ride-{refs['a']}"), f"the back link lands at {d.d.current_url}")

    def find_and_move_with_javascript_off():
        refs = rides()
        n = console.nojs
        n.go("/dispatch/board")
        n.click("a[rel=next]")
        n.wait_path(rf"^dispatch/board\?day={day.isoformat()}$")
        choose_van(n, refs["b"])
        find(n, "nope")
        n.wait_text("That is not a ride reference")
        check(n.el("#ref").get_attribute("value") == "nope", "the typed reference was not kept")
        find(n, spoken(refs["b"]).replace(" ", ""))
        n.wait_path(rf"^dispatch/rides/{refs['b']}$")
        move(n, "16:00")
        n.wait_text("The ride is moved")
        check("Pickup between 4:00 PM and" in n.main_text(), "the promise did not move")
        move(n, f"{yesterday.isoformat()} 10:00")
        n.wait_text("The new time is in the past")
        check(n.el("#at").get_attribute("aria-invalid") == "true", "the time field is not marked invalid")

    def keyboard_only():
        refs = rides()
        d.go(f"/dispatch/board?day={day.isoformat()}")
        d.wait_text("Vans: choose one to see its stops")

        def tab_to(css, limit=80):
            target = d.el(css)
            for _ in range(limit):
                d.focused().send_keys(Keys.TAB)
                if d.focused() == target:
                    return
            raise Failed(f"{css} never took the focus by Tab")

        d.d.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
        # A van chosen from the fleet summary by Tab and Enter.
        tab_to(f"table.fleet a[href*='van={van_of(refs['c'])}#']")
        d.focused().send_keys(Keys.ENTER)
        d.wait_path(rf"^dispatch/board\?day=[-\d]+&van={van_of(refs['c'])}$")
        d.wait(lambda _: d.d.find_elements(By.ID, f"ride-{refs['c']}"), "the chosen van's stops do not show the ride")
        d.d.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
        tab_to("#ref")
        d.focused().send_keys(spoken(refs["c"]) + Keys.ENTER)
        d.wait_path(rf"^dispatch/rides/{refs['c']}$")
        tab_to("#at")
        d.focused().send_keys("2:15 PM")
        tab_to("form[action$='/move'] button[type=submit]")
        d.focused().send_keys(Keys.ENTER)
        d.wait_text("The ride is moved")
        check("Pickup between 2:15 PM and" in d.main_text(), "the keyboard's move did not land")
        # The flash takes the focus, so a screen reader hears it.
        check("flash" in (d.focused().get_attribute("class") or ""), "the result did not take the focus")

    def a_drivers_taps_show_live_on_the_open_board():
        """A ride today on the van of a driver on shift; the board open on that van with
        JavaScript; the driver's taps (through the driver's API) redraw it without a reload."""
        driver_net_id, _ = console.driver_account
        status, login = server.api("POST", "/v1/session", {"net_id": driver_net_id, "password": PASSWORD})
        check(status == 201, f"the driver's sign-in answered {status}: {login}")
        driver = login["token"]
        van = server.sql("SELECT id FROM vans WHERE name = 'Van 1'")
        status, body = server.api("POST", "/v1/driver/shift", {"van": int(van)}, driver)
        check(status == 201, f"starting the shift answered {status}: {body}")
        try:
            status, ride = server.api("POST", "/v1/rides", {"kind": "on_demand", "pickup": "SCL", "dropoff": "Davenport"},
                                      console.rider_token(*RIDERS[2]))
            check(status == 201, f"booking answered {status}: {ride}")
            ref = ride["ref"]
            server.admin("rides", "approve", ref, "--van", "Van 1")
            d.go(f"/dispatch/board?van={van}")
            d.wait(lambda _: d.d.find_elements(By.ID, f"ride-{ref}"), "the board does not show today's ride")

            # The board may be redrawn while it is read: then the row reads as not there yet.
            def cells():
                try:
                    return [cell.text for cell in d.el(f"#ride-{ref}").find_elements(By.CSS_SELECTOR, "th, td")]
                except (StaleElementReferenceException, NoSuchElementException):
                    return ["", "(redrawn)"]

            def fleet_row():
                try:
                    return d.el(f"table.fleet a[href*='van={van}#']").find_element(By.XPATH, "./ancestor::tr").text
                except (StaleElementReferenceException, NoSuchElementException):
                    return "(redrawn)"

            d.wait(lambda _: len(cells()) == 8 and cells()[1] == "" and "0 of 2" in fleet_row(),
                   f"before any tap: {cells()} / {fleet_row()!r}")
            # A mark on this page's window: a reload would lose it.
            d.d.execute_script("window.boardNotReloaded = true")
            d.d.execute_script("document.activeElement && document.activeElement.blur()")

            def tap(stop, action):
                status, body = server.api("POST", "/v1/driver/taps", {"tap_key": str(uuid.uuid4()), "ride_id": ride["id"],
                                                                      "stop": stop, "action": action}, driver)
                check(status == 201, f"the {action} tap answered {status}: {body}")

            tap("pickup", "arrived")
            d.wait(lambda _: cells()[1].startswith("Arrived "), f"the arrival never showed: {cells()}")
            tap("pickup", "boarded")
            d.wait(lambda _: cells()[1].startswith("Boarded ") and "1 of 2" in fleet_row(),
                   f"the boarding never showed: {cells()} / {fleet_row()!r}")
            check(d.d.execute_script("return window.boardNotReloaded === true"), "the page was reloaded")
            check(d.d.find_elements(By.CSS_SELECTOR, f"#ride-{ref}:not([hidden])"), "the ride's row is gone")
            d.audit("dispatch-board-live")
            tap("dropoff", "arrived")
            tap("dropoff", "dropped_off")
            d.wait(lambda _: "2 of 2" in fleet_row(), f"the drop-off never showed: {fleet_row()!r}")
        finally:
            server.api("DELETE", "/v1/driver/shift", None, driver)

    return [
        ("day board: the day's rides, find a ride by its reference as spoken", board_shows_the_days_rides_and_finds_one_as_spoken),
        ("day board: move a ride; a move that does not fit is refused by the field", move_a_ride_and_a_move_refused_by_the_field),
        ("day board: find and move with JavaScript off", find_and_move_with_javascript_off),
        ("day board: keyboard only", keyboard_only),
        ("day board: a driver's taps show live on the open board", a_drivers_taps_show_live_on_the_open_board),
    ]
