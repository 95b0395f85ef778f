"""Booking for a rider who phones (/dispatch/book), in a real browser: find the rider by name,
book ahead for her, book at a taken time and take a suggestion, with JavaScript off, by keyboard
only; axe on the find page, the form, the conflict and the confirmation; the rider then sees
the ride through her API. The taken time is made by other riders' bookings (the fleet is not
touched), and every ride these flows book is cancelled at the end, so the parts that run after
this one find the server as they would without it.
"""
import re

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from suite import Failed, check, next_weekday

RIDERS = {"phone": ("pr401", "Pat Phoning"), "nojs": ("pq402", "Quinn Phoning"), "keys": ("pk403", "Kim Phoning")}
NOT_CLEARED = ("pn404", "Nell Phoning")
REF = re.compile(r"^[0-9A-Z]{3}-[0-9A-Z]{3}$")


def flows(console):
    server = console.server
    d = console.dispatcher
    day = next_weekday(3)
    taken = f"{day.isoformat()}T14:00"
    TAKEN = {"pickup": "SCL", "dropoff": "YNHH", "pickup_at": taken, "needs_wheelchair": True, "companions": 2}
    state = {"tokens": {}, "blockers": []}

    def token(key):
        if key not in state["tokens"]:
            state["tokens"][key] = console.rider_token(*RIDERS[key])
        return state["tokens"][key]

    def setup():
        for key in RIDERS:
            token(key)
        server.invite(*NOT_CLEARED, whitelist=False)
        # Other riders book the same ride at 14:00 (a wheelchair and two companions: few vans hold
        # more than one) until one is refused: the time is taken.
        for n in range(12):
            blocker = console.rider_token(f"pb{410 + n}", f"Blocker {n}")
            status, body = server.api("POST", "/v1/rides", TAKEN, blocker)
            if status == 409:
                return
            check(status == 201, f"a blocking booking answered {status}: {body}")
            state["blockers"].append(blocker)
        raise Failed("14:00 was never taken")

    def fill(browser, hour, minute, like_the_taken=False):
        browser.type("#pickup", "SCL")
        browser.type("#dropoff", "YNHH" if like_the_taken else "Davenport")
        browser.set_date("#date", day)
        browser.set_time("#time", hour, minute)
        if like_the_taken:
            browser.click("#wheelchair")
            Select(browser.el("#companions")).select_by_value("2")

    def confirmation(browser, net_id):
        browser.wait_text("Read the reference out to the rider")
        browser.wait_path(rf"^dispatch/book/{net_id}/rides/[0-9a-f-]{{36}}$")
        ref = browser.el(".ref-big span[aria-hidden=true]").text
        check(REF.match(ref), f"the reference reads {ref!r}")
        return ref

    def rider_sees(key, ref):
        status, body = server.api("GET", "/v1/rides", token=token(key))
        check(status == 200, f"GET /v1/rides answered {status}")
        refs = [ride.get("ref") for ride in body.get("rides", [])]
        check(ref in refs, f"{RIDERS[key][0]} does not see {ref} in her app: {refs}")
        actor = server.sql(f"SELECT actor FROM audit_log WHERE action = 'book' AND details->>'ref' = '{ref}'")
        check(actor == f"{console.dispatcher_account[1]} ({console.dispatcher_account[0]})", f"the audit names {actor!r}")

    def find_by_name_and_book_ahead():
        d.go("/dispatch/book")
        d.wait(lambda _: d.focused().get_attribute("id") == "q", "the search field does not have the focus")
        d.audit("dispatch-book")
        d.type("#q", "phoning")
        d.el("#q").send_keys(Keys.ENTER)
        d.wait_text("riders matching")
        check("results-title" == d.focused().get_attribute("id"), "focus did not move to the results")
        rows = {row.find_element(By.CSS_SELECTOR, "td").text: row.text for row in d.d.find_elements(By.CSS_SELECTOR, "table.riders tbody tr")}
        check(set(rows) >= {"pr401", "pq402", "pk403", "pn404"}, f"found {sorted(rows)}")
        check("Not cleared" in rows["pn404"] and "whitelist" in rows["pn404"], f"pn404 reads {rows['pn404']!r}")
        check(not d.d.find_elements(By.CSS_SELECTOR, "a[href='/dispatch/book/pn404']"), "a not-cleared rider has a booking link")
        d.audit("dispatch-book-found")
        d.click("a[href='/dispatch/book/pr401']")
        d.wait_path(r"^dispatch/book/pr401$")
        d.audit("dispatch-book-form")
        fill(d, 10, 30)
        d.click("form[action='/dispatch/book/pr401'] button[type=submit]")
        ref = confirmation(d, "pr401")
        check("10:30 AM" in d.el(".details").text, "the confirmation does not give the time")
        d.audit("dispatch-book-done")
        rider_sees("phone", ref)

    def taken_time_and_a_suggestion():
        d.go("/dispatch/book/pr401")
        fill(d, 14, 0, like_the_taken=True)
        d.click("form[action='/dispatch/book/pr401'] button[type=submit]")
        d.wait_text("That time is taken")
        check("conflict" in (d.focused().get_attribute("class") or ""), "focus did not move to the sentence")
        sentence = d.el(".conflict .sentence").text
        check("2:00 PM" in sentence, f"the sentence reads {sentence!r}")
        # The rider's own sentence for the same request.
        status, body = server.api("POST", "/v1/rides", TAKEN, token("phone"))
        check(status == 409 and body.get("detail") == sentence, f"the rider herself is told {status} {body.get('detail')!r}, the console {sentence!r}")
        d.audit("dispatch-book-conflict")
        buttons = d.d.find_elements(By.CSS_SELECTOR, ".conflict form button")
        check(buttons, "no suggestions")
        label = buttons[0].text  # "Book 1:30 PM on …"
        buttons[0].click()
        ref = confirmation(d, "pr401")
        check(label.split(" ")[1] in d.el(".details").text, f"the ride is not at the suggested {label!r}")
        rider_sees("phone", ref)

    def javascript_off():
        plain = console.nojs
        plain.go("/dispatch/book")
        plain.type("#q", "pq402")
        plain.click("form.find-rider button[type=submit]")
        plain.wait_text("1 rider matching")
        plain.click("a[href='/dispatch/book/pq402']")
        plain.wait_path(r"^dispatch/book/pq402$")
        # A field error keeps what was typed.
        plain.type("#pickup", "SCL")
        plain.type("#dropoff", "Nowhere Hall")
        plain.type("#note", "Side door")
        plain.click("form[action='/dispatch/book/pq402'] button[type=submit]")
        plain.wait_text("There is a problem")
        check(plain.el("#dropoff").get_attribute("value") == "Nowhere Hall", "the destination was lost")
        check(plain.el("#note").get_attribute("value") == "Side door", "the note was lost")
        check(plain.el("#dropoff").get_attribute("aria-invalid") == "true", "the destination is not marked invalid")
        check(server.sql("SELECT count(*) FROM rides WHERE net_id = 'pq402'") == "0", "a ride was written")
        fill(plain, 14, 0, like_the_taken=True)
        plain.click("form[action='/dispatch/book/pq402'] button[type=submit]")
        plain.wait_text("That time is taken")
        plain.d.find_elements(By.CSS_SELECTOR, ".conflict form button")[-1].click()
        ref = confirmation(plain, "pq402")
        rider_sees("nojs", ref)

    def keyboard_only():
        def keys(*sequence):
            webdriver.ActionChains(d.d).send_keys(*sequence).perform()

        def tab_to(predicate, what, limit=60):
            for _ in range(limit):
                keys(Keys.TAB)
                if predicate(d.focused()):
                    return
            raise Failed(f"Tab never reached {what}")

        d.go("/dispatch/book")
        d.wait(lambda _: d.focused().get_attribute("id") == "q", "the search field does not have the focus")
        keys("Kim Phon", Keys.ENTER)
        d.wait_text("1 rider matching")
        tab_to(lambda e: e.get_attribute("href", ) and e.get_attribute("href").endswith("/dispatch/book/pk403"), "the booking link")
        keys(Keys.ENTER)
        d.wait_path(r"^dispatch/book/pk403$")
        tab_to(lambda e: e.get_attribute("id") == "pickup", "the pick-up place")
        keys("SCL", Keys.TAB, "YNHH", Keys.TAB, day.strftime("%m%d%Y"))
        tab_to(lambda e: e.get_attribute("id") == "time", "the time")
        keys("0200PM")
        tab_to(lambda e: e.get_attribute("id") == "wheelchair", "the wheelchair box")
        keys(Keys.SPACE, Keys.TAB, "2")
        check(d.el("#wheelchair").is_selected() and d.el("#companions").get_attribute("value") == "2", "the details were not set")
        check(d.el("#time").get_attribute("value") == "14:00", f"the time reads {d.el('#time').get_attribute('value')!r}")
        check(d.el("#date").get_attribute("value") == day.isoformat(), f"the date reads {d.el('#date').get_attribute('value')!r}")
        tab_to(lambda e: e.tag_name == "button" and e.text.startswith("Book this ride"), "the submit button")
        keys(Keys.ENTER)
        d.wait_text("That time is taken")
        check("conflict" in (d.focused().get_attribute("class") or ""), "focus did not move to the sentence")
        tab_to(lambda e: e.tag_name == "button" and e.text.startswith("Book "), "a suggestion", limit=3)
        label = d.focused().text
        keys(Keys.ENTER)
        ref = confirmation(d, "pk403")
        check(label.split(" ")[1] in d.el(".details").text, f"the ride is not at the suggested {label!r}")
        tab_to(lambda e: (e.get_attribute("href") or "").endswith("/dispatch/book/pk403"), "book another")
        rider_sees("keys", ref)

    def cleanup():
        # Every ride these flows booked, cancelled: the queue and the board that run next see none.
        for rider in list(state["tokens"].values()) + state["blockers"]:
            _, body = server.api("GET", "/v1/rides", token=rider)
            for ride in body.get("rides", []):
                if ride.get("status") in ("pending", "approved"):
                    status, answer = server.api("POST", f"/v1/rides/{ride['id']}/cancel", {}, rider)
                    check(status in (200, 204), f"cancelling {ride.get('ref')} answered {status}: {answer}")
        check(server.sql("SELECT count(*) FROM rides WHERE net_id LIKE 'p_4%' AND status IN ('pending', 'approved')") == "0", "rides left holding vans")

    return [
        ("phone: riders to book for, and a taken time made by other riders", setup),
        ("phone: find the rider by name, book ahead for her; she sees it in her app", find_by_name_and_book_ahead),
        ("phone: a taken time gets her own sentence and suggestions; one taken", taken_time_and_a_suggestion),
        ("phone: with JavaScript off (field errors keep input, a suggestion taken)", javascript_off),
        ("phone: keyboard only, from the search to a suggestion", keyboard_only),
        ("phone: every ride booked here cancelled again", cleanup),
    ]
