"""The no-show policy's pages, in a real browser (run by dispatch.py, on the console's vand): two
riders each miss three trips this past week (booked through the API, the driver's taps proving
the van came and waited, then closed as no-shows), so the service's own review writes each a
notice; each reads her record ("Your record", /standing) and appeals, one by keyboard alone
with an empty appeal refused first, one with JavaScript off; the dispatcher then decides both
appeals on /dispatch/appeals, one by keyboard alone. axe on the record page (with the form and
with its error), and on the appeals page with the decide forms. Both appeals are overturned, so
no case is left open for the parts that run after this one.
"""
import datetime

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from suite import PASSWORD, ZONE, check, keys, Rider, start_browser, tab_to

RIDERS = {"keys": ("ns501", "Nia Standing"), "nojs": ("ns502", "Noor Standing")}
DRIVER = "dv301"  # dispatch.py's driver: the taps are hers


def flows(console):
    server = console.server
    d = console.dispatcher
    tomorrow = datetime.datetime.now(ZONE).date() + datetime.timedelta(days=1)
    state = {"cases": {}}

    def missed_trip(rider, hour, days_ago):
        """A ride booked by `rider` for tomorrow at `hour`:00, approved, then moved `days_ago`
        days before tomorrow with the driver's taps at its pickup (arrived at the window's start,
        no-show 15 minutes later) and closed as a no-show: a trip that counts."""
        body, _ = console.approved_ride(rider, tomorrow, hour)
        ride = body["id"]
        shift = f"interval '{days_ago} days'"
        server.sql(f"""UPDATE rides SET requested_at = requested_at - {shift} - interval '1 day', pickup_at = pickup_at - {shift},
                              estimated_dropoff_at = estimated_dropoff_at - {shift}, window_start = window_start - {shift},
                              window_end = window_end - {shift} WHERE id = '{ride}';
                       INSERT INTO shifts (driver_net_id, van_id, started_at, ended_at)
                           SELECT '{DRIVER}', van_id, window_start - interval '1 hour', window_start + interval '1 hour' FROM rides WHERE id = '{ride}';
                       INSERT INTO stop_taps (tap_key, shift_id, ride_id, stop, action, at)
                           SELECT gen_random_uuid(), (SELECT max(id) FROM shifts), id, 'pickup', tap.action, window_start + tap.after
                           FROM rides, (VALUES ('arrived', interval '0 minutes'), ('no_show', interval '15 minutes')) AS tap (action, after)
                           WHERE id = '{ride}';
                       UPDATE rides SET status = 'no_show' WHERE id = '{ride}';""")
        return body["ref"]

    def open_record(rider):
        """Her record page, reloaded until the service's review has written her notice."""
        def noticed(_):
            rider.go("/standing")
            return "Notice " in rider.main_text()
        rider.wait(noticed, "the service never wrote her notice")

    def sign_in(browser, key):
        browser.sign_in(RIDERS[key][0], PASSWORD)
        browser.wait_path(r"^$|^\?")

    def setup():
        for key, rider in RIDERS.items():
            console.rider_token(*rider)
            refs = [missed_trip(rider, hour, days) for hour, days in ((6, 4), (7, 3), (8, 2))]
            state["cases"][key] = refs
        for key, rider in RIDERS.items():
            count = server.sql(f"SELECT count(*) FROM rides WHERE net_id = '{rider[0]}' AND status = 'no_show'")
            check(count == "3", f"{rider[0]} has {count} no-shows")

    def her_record_and_appeal_by_keyboard_alone():
        rider = Rider(console.suite, start_browser(javascript=True))
        try:
            sign_in(rider, "keys")
            # From her home page to her record by the keyboard: the link, then Enter.
            tab_to(rider, lambda e: (e.get_attribute("href") or "").endswith("/standing"), "the link to her record")
            keys(rider, Keys.ENTER)
            rider.wait_path(r"^standing$")
            open_record(rider)
            text = rider.main_text()
            # The three trips count toward her notice (and not again toward a new one).
            check(text.count("Counted in notice") == 3, f"not every trip with the taps counts: {text[:600]!r}")
            for ref in state["cases"]["keys"]:
                check(ref in text, f"{ref} is not on her record")
            rider.audit("standing")
            rider.go("/standing")
            # An empty appeal: refused next to the field; the error summary takes the focus.
            tab_to(rider, lambda e: e.tag_name == "button" and e.text == "Send my appeal", "the appeal's button")
            keys(rider, Keys.ENTER)
            rider.wait_text("Write why these trips should not count")
            check(rider.el("#appeal").get_attribute("aria-invalid") == "true", "the appeal is not marked invalid")
            check("error-summary" in (rider.focused().get_attribute("class") or ""), "the focus did not move to the problem")
            rider.audit("standing-error")
            rider.go("/standing")
            tab_to(rider, lambda e: e.get_attribute("id") == "appeal", "the appeal's field")
            keys(rider, "The van came to the north door; I waited at the south door, as I always have.")
            keys(rider, Keys.TAB)
            check(rider.focused().text == "Send my appeal", f"Tab from the field reached {rider.focused().text!r}")
            keys(rider, Keys.ENTER)
            rider.wait_text("Your appeal is filed.")
            rider.wait_path(r"^standing\?done=appealed$")
            check("appealed, on hold" in rider.main_text(), "the notice is not on hold")
            check(not rider.d.find_elements(By.ID, "appeal"), "the form is still offered after her appeal")
        finally:
            rider.d.quit()
        status = server.sql(f"SELECT status FROM suspensions WHERE net_id = '{RIDERS['keys'][0]}'")
        check(status == "appealed", f"the case is {status}")

    def her_appeal_with_javascript_off():
        rider = Rider(console.suite, start_browser(javascript=False), javascript=False)
        try:
            sign_in(rider, "nojs")
            open_record(rider)
            rider.click("form[action='/standing/appeal'] button[type=submit]")
            rider.wait_text("Write why these trips should not count")
            rider.type("#appeal", "I was in hospital that week.")
            rider.click("form[action='/standing/appeal'] button[type=submit]")
            rider.wait_text("Your appeal is filed.")
            check("I was in hospital that week." in rider.main_text(), "her appeal is not on her record")
        finally:
            rider.d.quit()
        status = server.sql(f"SELECT status FROM suspensions WHERE net_id = '{RIDERS['nojs'][0]}'")
        check(status == "appealed", f"the case is {status}")

    def the_dispatcher_decides_by_keyboard_alone():
        case = server.sql(f"SELECT id FROM suspensions WHERE net_id = '{RIDERS['keys'][0]}'")
        d.go("/dispatch/appeals")
        d.wait_text(f"Notice {case}: Nia Standing")
        check("The van came to the north door" in d.main_text(), "her appeal is not shown")
        d.audit("dispatch-appeals-decide")
        d.go("/dispatch/appeals")
        # A decision without reasons: refused by the field, the choice kept.
        tab_to(d, lambda e: e.get_attribute("id") == f"uphold-{case}", "the uphold choice")
        keys(d, Keys.ARROW_DOWN)
        check(d.el(f"#overturn-{case}").is_selected(), "the arrow key did not choose overturn")
        tab_to(d, lambda e: e.tag_name == "button" and e.text == "Send the decision", "the decision's button", limit=3)
        keys(d, Keys.ENTER)
        d.wait_text(f"Give the reasons for the decision on notice {case}")
        check(d.el(f"#overturn-{case}").is_selected(), "the choice was not kept")
        tab_to(d, lambda e: e.get_attribute("id") == f"reason-{case}", "the reasons")
        keys(d, "The taps show the van at the north door; she waited at the south door, as agreed.")
        keys(d, Keys.TAB, Keys.ENTER)
        d.wait_text(f"Notice {case} overturned for Nia Standing")
        check(server.sql(f"SELECT status FROM suspensions WHERE id = {case}") == "overturned", "the case was not overturned")

    def the_dispatcher_decides_with_javascript_off():
        case = server.sql(f"SELECT id FROM suspensions WHERE net_id = '{RIDERS['nojs'][0]}'")
        n = console.nojs
        n.go("/dispatch/appeals")
        n.wait_text(f"Notice {case}: Noor Standing")
        n.click(f"#overturn-{case}")
        n.type(f"#reason-{case}", "A stay in hospital excuses the trips.")
        n.click(f"form[action='/dispatch/appeals/{case}/decide'] button[type=submit]")
        n.wait_text(f"Notice {case} overturned for Noor Standing")
        check(server.sql("SELECT count(*) FROM suspensions WHERE status <> 'overturned'") == "0", "a case is left open")
        check("No open cases" in n.main_text(), "the appeals page still lists a case")

    return [
        ("appeals: two riders miss three trips each, the service writes each a notice", setup),
        ("appeals: her record and her appeal, by keyboard alone (an empty one refused first)", her_record_and_appeal_by_keyboard_alone),
        ("appeals: her appeal with JavaScript off", her_appeal_with_javascript_off),
        ("appeals: the dispatcher overturns one by keyboard alone (without reasons refused first)", the_dispatcher_decides_by_keyboard_alone),
        ("appeals: the dispatcher overturns the other with JavaScript off; no case left open", the_dispatcher_decides_with_javascript_off),
    ]
