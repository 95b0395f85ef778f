"""A rider's weekly rides at the console in a real browser: the dispatcher opens her page from her
booking page and, by keyboard alone with axe on every page, holds a date range (a backwards range
refused first, next to its field, the dates kept) and resumes it early (checked, then confirmed);
the page also works with JavaScript off.
"""
import datetime

from selenium import webdriver
from selenium.webdriver.common.keys import Keys

from suite import ZONE_NAME, check, keys, next_weekday, press, tab_to

RIDER = ("cs602", "Cora Series")
CODES = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


def flows(console):
    server = console.server
    first = next_weekday(3)
    second = first + datetime.timedelta(days=7)
    last = first + datetime.timedelta(days=14)
    page = f"/dispatch/riders/{RIDER[0]}/series"
    state = {}

    def typed(browser, field, text):
        tab_to(browser, lambda e: e.get_attribute("id") == field, f"the field #{field}")
        webdriver.ActionChains(browser.d).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).send_keys(text).perform()

    def live(day):
        return server.sql(f"""SELECT count(*) FROM rides WHERE series_id = '{state["id"]}' AND status IN ('pending', 'approved')
                              AND (window_start AT TIME ZONE '{ZONE_NAME}')::date = '{day.isoformat()}'""")

    def hold_and_resume_by_keyboard_alone():
        token = console.rider_token(*RIDER)
        status, body = server.api("POST", "/v1/rides", {
            "pickup": "SCL", "dropoff": "Davenport", "pickup_at": f"{first.isoformat()}T05:30",
            "repeat": {"weekdays": [CODES[first.weekday()]], "until": last.isoformat()}}, token)
        check(status == 201, f"the series answered {status}: {body}")
        state["id"] = body["series_id"]
        d = console.dispatcher
        d.go(f"/dispatch/book/{RIDER[0]}")
        d.wait_text("Her weekly rides")
        tab_to(d, lambda e: e.tag_name == "a" and e.text.startswith("Her weekly rides"), "the link to her weekly rides")
        keys(d, Keys.ENTER)
        d.wait_path(r"^dispatch/riders/cs602/series$")
        d.wait_text("Put this series on hold")
        d.audit("dispatch-series")
        d.go(page)
        typed(d, "from-1", last.isoformat())
        typed(d, "to-1", second.isoformat())
        press(d, "Hold these dates")
        d.wait_text("There is a problem")
        check(d.el("#to-1").get_attribute("aria-invalid") == "true", "the last date is not marked invalid")
        check(d.el("#from-1").get_attribute("value") == last.isoformat(), "the first date was lost")
        check(live(second) == "1", "a refused hold changed her rides")
        d.audit("dispatch-series-error")
        typed(d, "from-1", second.isoformat())
        typed(d, "to-1", last.isoformat())
        press(d, "Hold these dates")
        d.wait_text("2 rides cancelled, not late")
        check(live(second) == "0" and live(last) == "0", "the held dates still have rides")
        press(d, "Resume now")
        d.wait_text("Every date fits")
        check(live(second) == "0", "checking the resume booked a date")
        d.audit("dispatch-series-check")
        press(d, "Confirm: resume the series")
        d.wait_text("2 rides booked again")
        check(live(second) == "1" and live(last) == "1", "the resumed dates are not booked again")
        actors = server.sql("SELECT string_agg(actor, ',' ORDER BY id) FROM audit_log WHERE action IN ('series.hold', 'series.resume')")
        check(actors == "Dee Dispatcher (dd300),Dee Dispatcher (dd300)", f"audited as {actors!r}")

    def hold_with_javascript_off():
        n = console.nojs
        n.go(page)
        n.wait_text("Put this series on hold")
        n.type("#from-1", second.isoformat())
        n.type("#to-1", second.isoformat())
        n.click(f"form[action='{page}/{state['id']}/hold'] button[type=submit]")
        n.wait_text("1 ride cancelled, not late")
        check(live(second) == "0", "the held date still has a ride")
        n.click(f"form[action^='{page}/{state['id']}/holds/'] button[type=submit]")
        n.wait_text("Every date fits")
        n.click("form[action$='/resume/apply'] button[type=submit]")
        n.wait_text("1 ride booked again")
        check(live(second) == "1", "the resumed date is not booked again")

    return [
        ("console series: by keyboard alone the dispatcher holds a rider's series (a backwards range refused first) and resumes it", hold_and_resume_by_keyboard_alone),
        ("console series: with JavaScript off she holds a date and resumes it", hold_with_javascript_off),
    ]
