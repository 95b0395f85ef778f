"""The queue and the alerts of the dispatcher's console (run by dispatch.py): riders book through
the API, the dispatcher approves, rejects with a reason (an empty one first), approves all that
fit, with JavaScript and without, by keyboard alone; a booking appears live in the queue and a
late alert live on the alerts page; axe on both pages with content.
"""
import datetime

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from suite import ZONE, Failed, check

RIDERS = [("qa310", "Quinn Abbott"), ("qb311", "Rosa Banks"), ("qc312", "Sam Chen"), ("qd313", "Tess Diaz"),
          ("qe314", "Uma Evans"), ("qf315", "Vic Ford"), ("qg316", "Wes Gray")]


def flows(console):
    d = console.dispatcher
    server = console.server
    riders = iter(RIDERS)

    def book(when, rider=None):
        """A ride booked through the API by a fresh whitelisted rider; (its reference, her name)."""
        net_id, name = rider or next(riders)
        token = console.rider_token(net_id, name)
        status, ride = server.api("POST", "/v1/rides", {"pickup": "SCL", "dropoff": "Davenport",
                                                          "pickup_at": when.strftime("%Y-%m-%dT%H:%M")}, token)
        check(status == 201, f"booking for {net_id} at {when} answered {status}: {ride}")
        server.sql(f"UPDATE riders SET phone = '203-555-0{net_id[-3:]}' WHERE net_id = '{net_id}'")
        return ride["ref"], name

    def tomorrow(hour, minute=0):
        day = datetime.datetime.now(ZONE).date() + datetime.timedelta(days=1)
        return datetime.datetime.combine(day, datetime.time(hour, minute))

    def live(page_part):
        """Waits until the page's script holds the stream open (so nothing sent from now is missed)."""
        d.wait(lambda _: d.el(page_part).get_attribute("data-live") == "open", "the page never opened the live stream")

    def clear_the_queue():
        approved, _ = book(tomorrow(9))
        rejected, _ = book(tomorrow(10))
        rest, rest_name = book(tomorrow(11))
        d.go("/dispatch")
        for ref in (approved, rejected, rest):
            d.wait(lambda _: d.d.find_elements(By.ID, f"ride-{ref}"), f"{ref} is not in the queue")
        route = d.el(f"#ride-{approved} table.route").text
        check("(this ride)" in route, f"{approved}'s route does not mark its own stops: {route!r}")
        d.audit("dispatch-queue-rides")
        d.click(f"#approve-{approved}")
        d.wait_text(f"Approved {approved} for Quinn Abbott.")
        check(not d.d.find_elements(By.ID, f"ride-{approved}"), f"{approved} is still in the queue")
        # An empty reason: the message by the field, focus on the error summary, nothing changed.
        d.click(f"#reject-{rejected}")
        d.wait(lambda _: d.d.find_elements(By.ID, f"reason-{rejected}-error"), "no message next to the empty reason")
        check("error-summary" in (d.focused().get_attribute("class") or ""), "the error summary does not have the focus")
        check(d.el(f"#reason-{rejected}").get_attribute("aria-invalid") == "true", "the reason field is not marked invalid")
        d.type(f"#reason-{rejected}", "No van runs that early on Saturdays")
        d.click(f"#reject-{rejected}")
        d.wait_text(f"Rejected {rejected} for Rosa Banks.")
        d.click("#approve-all")
        d.wait_text("Approved ")
        check(not d.d.find_elements(By.ID, f"ride-{rest}"), f"{rest} still waits after approve all")
        status = server.sql(f"SELECT status FROM rides WHERE ref = '{rejected}'")
        check(status == "rejected", f"{rejected} is {status}")
        actor = server.sql(f"SELECT actor FROM audit_log WHERE action = 'ride.reject' ORDER BY id DESC LIMIT 1")
        check(actor == "Dee Dispatcher (dd300)", f"the audit log says {actor!r}")

    def approve_without_javascript():
        ref, name = book(tomorrow(13))
        n = console.nojs
        n.go("/dispatch")
        n.wait(lambda _: n.d.find_elements(By.ID, f"approve-{ref}"), f"{ref} is not in the queue")
        n.click(f"#approve-{ref}")
        n.wait_text(f"Approved {ref} for {name}.")
        n.wait_path(r"^dispatch$")

    def approve_by_keyboard_alone():
        ref, name = book(tomorrow(14))
        d.go("/dispatch")
        d.wait(lambda _: d.d.find_elements(By.ID, f"approve-{ref}"), f"{ref} is not in the queue")
        # From the top of the page, as a dispatcher arriving on it.
        for _ in range(100):
            ActionChains(d.d).send_keys(Keys.TAB).perform()
            if d.focused().get_attribute("id") == f"approve-{ref}":
                break
        else:
            raise Failed(f"Tab never reached the approve button of {ref}")
        ActionChains(d.d).send_keys(Keys.ENTER).perform()
        d.wait_text(f"Approved {ref} for {name}.")

    def a_booking_appears_live_in_the_queue():
        d.go("/dispatch")
        live("#queue-part")
        ref, name = book(tomorrow(15))
        d.wait(lambda _: d.d.find_elements(By.ID, f"ride-{ref}"), f"{ref} never appeared in the open queue")
        d.wait(lambda _: f"New ride waiting: {ref} for {name}." in d.el("#live").text, "the live region never announced the ride")
        check(d.d.current_url.endswith("/dispatch"), "the page was reloaded instead of updated")

    def a_late_alert_appears_live():
        now = datetime.datetime.now(ZONE)
        soon = now + datetime.timedelta(minutes=40)
        if soon.date() != now.date():
            soon = now + datetime.timedelta(minutes=6)
        ref, name = book(soon.replace(second=0, microsecond=0))
        server.admin("rides", "approve", ref)
        d.go("/dispatch/alerts")
        live("#alerts-part")
        check(not d.d.find_elements(By.ID, f"late-{ref}"), f"{ref} is late before its alert")
        server.sql(f"""INSERT INTO ride_alerts (ride_id, kind, raised_at, stop, eta, window_end, van_id)
                       SELECT id, 'late', now(), 'pickup', window_end + interval '9 minutes', window_end, van_id FROM rides WHERE ref = '{ref}'""")
        d.wait(lambda _: d.d.find_elements(By.ID, f"late-{ref}"), f"{ref}'s late alert never appeared")
        d.wait(lambda _: f"New alert: {ref} for {name} is late." in d.el("#live").text, "the live region never announced the alert")
        item = d.el(f"#late-{ref}")
        links = [a.get_attribute("href") for a in item.find_elements(By.TAG_NAME, "a")]
        check(any(f"/dispatch/board?day={now.date().isoformat()}&van=" in link and link.endswith(f"#ride-{ref}") for link in links),
              f"no board link: {links}")
        check(any(link.startswith("tel:") for link in links), f"no phone link: {links}")
        d.audit("dispatch-alerts-late")

    return [
        ("queue: approve, reject with a reason, approve all that fit", clear_the_queue),
        ("queue: approve with JavaScript off", approve_without_javascript),
        ("queue: approve by keyboard alone", approve_by_keyboard_alone),
        ("queue: a new booking appears live", a_booking_appears_live_in_the_queue),
        ("alerts: a late alert appears live", a_late_alert_appears_live),
    ]
