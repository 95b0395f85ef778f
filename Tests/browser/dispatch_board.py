"""The day board in a real browser (run by dispatch.py): rides booked through the API and
approved with vanadmin; the board shows them; a ride found by its reference typed as spoken
("k7m 3qx"); moved to another time; a move that does not fit refused by the field; the same find
and move with JavaScript off; the whole flow with the keyboard alone; axe on the board and the
ride's page.
"""
import datetime

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from suite import ZONE, Failed, check

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
        token = console.rider_token(*rider)
        status, body = server.api("POST", "/v1/rides", {"pickup": "SCL", "dropoff": "Davenport",
                                                        "pickup_at": f"{day.isoformat()}T{hour:02d}:00"}, token)
        check(status == 201, f"booking for {rider[0]} at {hour}:00 answered {status}: {body}")
        server.admin("rides", "approve", body["ref"])
        return body["ref"]

    def rides():
        if not state:
            state["a"] = book(RIDERS[0], 9)
            state["b"] = book(RIDERS[1], 10)
            state["c"] = book(RIDERS[2], 11)
        return state

    def find(browser, text):
        browser.type("#ref", text)
        browser.click("form[action='/dispatch/find'] button[type=submit]")

    def move(browser, at):
        browser.type("#at", at)
        browser.click("form[action$='/move'] button[type=submit]")

    def board_shows_the_days_rides_and_finds_one_as_spoken():
        refs = rides()
        d.go(f"/dispatch/board?day={day.isoformat()}")
        d.wait_text("stops in route order")
        for key in ("a", "b", "c"):
            row = d.el(f"#ride-{refs[key]}")
            check("Pickup" in row.text, f"the row of {refs[key]} reads {row.text!r}")
        check(d.el("table.dispatch caption").text.endswith("stops in route order"), "no caption on the van's table")
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
        d.wait_text("It does not fit")
        error = d.el("#at-error").text
        check(error.startswith("Error: It does not fit") or "It does not fit" in error, f"the refusal reads {error!r}")
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
        n.wait(lambda _: n.d.find_elements(By.ID, f"ride-{refs['b']}"), "the next day's board does not show the ride")
        find(n, "nope")
        n.wait_text("That is not a ride reference")
        check(n.el("#ref").get_attribute("value") == "nope", "the typed reference was not kept")
        find(n, spoken(refs["b"]).replace(" ", ""))
        n.wait_path(rf"^dispatch/rides/{refs['b']}$")
        move(n, "16:00")
        n.wait_text("The ride is moved")
        check("Pickup between 4:00 PM and" in n.main_text(), "the promise did not move")
        move(n, f"{yesterday.isoformat()} 10:00")
        n.wait_text("It does not fit")
        check(n.el("#at").get_attribute("aria-invalid") == "true", "the time field is not marked invalid")

    def keyboard_only():
        refs = rides()
        d.go(f"/dispatch/board?day={day.isoformat()}")
        d.wait_text("stops in route order")

        def tab_to(css, limit=80):
            target = d.el(css)
            for _ in range(limit):
                d.focused().send_keys(Keys.TAB)
                if d.focused() == target:
                    return
            raise Failed(f"{css} never took the focus by Tab")

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

    return [
        ("day board: the day's rides, find a ride by its reference as spoken", board_shows_the_days_rides_and_finds_one_as_spoken),
        ("day board: move a ride; a move that does not fit is refused by the field", move_a_ride_and_a_move_refused_by_the_field),
        ("day board: find and move with JavaScript off", find_and_move_with_javascript_off),
        ("day board: keyboard only", keyboard_only),
    ]
