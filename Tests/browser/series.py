"""A rider's standing series in a real browser (run by dispatch.py, on the console's vand): a
rider books a weekly series through the API, then on her series page, by keyboard alone with axe
on every page and again with JavaScript off: changes one date (check page, confirm), and puts the
series on hold (a range that ends before it starts refused first, next to its field, her input
kept) and resumes it early (check page, confirm).
"""
import datetime

from selenium import webdriver
from selenium.webdriver.common.keys import Keys

from suite import PASSWORD, ZONE_NAME, check, keys, next_weekday, press, Rider, start_browser, tab_to

RIDER = ("sr601", "Sam Series")
CODES = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


def flows(console):
    server = console.server
    first = next_weekday(3)
    second = first + datetime.timedelta(days=7)
    last = first + datetime.timedelta(days=14)
    state = {}

    def live(day):
        """Her live rides' times on `day`, as the service's clock reads them (the suite's zone)."""
        return server.sql(f"""SELECT coalesce(string_agg(to_char(window_start AT TIME ZONE '{ZONE_NAME}', 'HH24:MI'), ','), '')
                              FROM rides WHERE series_id = '{state["id"]}' AND status IN ('pending', 'approved')
                                AND (window_start AT TIME ZONE '{ZONE_NAME}')::date = '{day.isoformat()}'""")

    def setup():
        token = console.rider_token(*RIDER)
        status, body = server.api("POST", "/v1/rides", {
            "pickup": "SCL", "dropoff": "Davenport", "pickup_at": f"{first.isoformat()}T05:30",
            "repeat": {"weekdays": [CODES[first.weekday()]], "until": last.isoformat()}}, token)
        check(status == 201, f"the series answered {status}: {body}")
        state["id"] = body["series_id"]
        check(len(body["booked"]) == 3, f"the series booked {len(body['booked'])} rides")

    def sign_in(browser):
        browser.sign_in(RIDER[0], PASSWORD)
        browser.wait_path(r"^$|^\?")

    def typed_by_keyboard(browser, field, text):
        """Tabs to the field `field` (its id) and types `text` into it, keys alone."""
        tab_to(browser, lambda e: e.get_attribute("id") == field, f"the field #{field}")
        webdriver.ActionChains(browser.d).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).send_keys(text).perform()

    def edit_one_date_by_keyboard_alone():
        rider = Rider(console.suite, start_browser(javascript=True))
        try:
            sign_in(rider)
            rider.go(f"/series/{state['id']}")
            rider.wait_text("Your weekly rides")
            rider.audit("series")
            rider.go(f"/series/{state['id']}")
            # The first date is chosen and "This date only" checked: she types the new time and checks.
            tab_to(rider, lambda e: e.get_attribute("id") == "time", "the new time")
            keys(rider, "0615AM")
            press(rider, "Check this change")
            rider.wait_text("Every date fits")
            check(live(first) == "05:30", "a check changed her ride")
            rider.audit("series-check")
            press(rider, "Confirm this change")
            rider.wait_text("Your series is changed")
        finally:
            rider.d.quit()
        check(live(first) == "06:15", f"the first date is at {live(first)!r}")
        check(live(second) == "05:30", "another date changed")

    def hold_and_resume_by_keyboard_alone():
        rider = Rider(console.suite, start_browser(javascript=True))
        try:
            sign_in(rider)
            rider.go(f"/series/{state['id']}")
            rider.wait_text("Put the series on hold")
            # A range that ends before it starts: refused next to the last date, her input kept.
            typed_by_keyboard(rider, "from", last.isoformat())
            typed_by_keyboard(rider, "to", second.isoformat())
            press(rider, "Hold these dates")
            rider.wait_text("There is a problem")
            check(rider.el("#to").get_attribute("aria-invalid") == "true", "the last date is not marked invalid")
            check(rider.el("#from").get_attribute("value") == last.isoformat(), "her first date was lost")
            check(live(second) == "05:30", "a refused hold changed her rides")
            rider.audit("series-error")
            typed_by_keyboard(rider, "from", second.isoformat())
            typed_by_keyboard(rider, "to", last.isoformat())
            press(rider, "Hold these dates")
            rider.wait_text("Your series is on hold: 2 rides are cancelled")
            check(live(second) == "" and live(last) == "", "the held dates still have rides")
            rider.audit("series-held")
            press(rider, "Resume now")
            rider.wait_text("Every date fits")
            check(live(second) == "", "checking the resume booked a date")
            rider.audit("series-resume-check")
            press(rider, "Confirm this change")
            rider.wait_text("Your series is resumed: 2 rides are booked again")
        finally:
            rider.d.quit()
        check(live(second) == "05:30" and live(last) == "05:30", "the resumed dates are not booked again")

    def edit_with_javascript_off():
        rider = Rider(console.suite, start_browser(javascript=False), javascript=False)
        try:
            sign_in(rider)
            rider.go(f"/series/{state['id']}")
            rider.wait_text("Your weekly rides")
            rider.el(f"#date option[value='{second.isoformat()}']").click()
            rider.set_time("#time", 6, 45)
            rider.click(f"form[action='/series/{state['id']}/edit'] button[type=submit]")
            rider.wait_text("Every date fits")
            check(live(second) == "05:30", "a check changed her ride")
            rider.click("form[action$='/edit/apply'] button[type=submit]")
            rider.wait_text("Your series is changed")
        finally:
            rider.d.quit()
        check(live(second) == "06:45", f"the second date is at {live(second)!r}")
        check(live(first) == "06:15" and live(last) == "05:30", "another date changed")

    def hold_and_resume_with_javascript_off():
        rider = Rider(console.suite, start_browser(javascript=False), javascript=False)
        try:
            sign_in(rider)
            rider.go(f"/series/{state['id']}")
            rider.type("#from", last.isoformat())
            rider.type("#to", second.isoformat())
            rider.click(f"form[action='/series/{state['id']}/hold'] button[type=submit]")
            rider.wait_text("There is a problem")
            check(rider.el("#to").get_attribute("aria-invalid") == "true", "the last date is not marked invalid")
            check(rider.el("#from").get_attribute("value") == last.isoformat(), "her first date was lost")
            rider.type("#from", second.isoformat())
            rider.type("#to", last.isoformat())
            rider.click(f"form[action='/series/{state['id']}/hold'] button[type=submit]")
            rider.wait_text("Your series is on hold: 2 rides are cancelled")
            check(live(second) == "" and live(last) == "", "the held dates still have rides")
            late = server.sql(f"SELECT count(*) FROM rides WHERE series_id = '{state['id']}' AND cancelled_late")
            check(late == "0", "a held date counts as a late cancellation")
            rider.click(f"form[action^='/series/{state['id']}/holds/'] button[type=submit]")
            rider.wait_text("Every date fits")
            rider.click("form[action$='/resume/apply'] button[type=submit]")
            rider.wait_text("Your series is resumed: 2 rides are booked again")
        finally:
            rider.d.quit()
        check(live(second) == "05:30" and live(last) == "05:30", "the resumed dates are not booked again")

    return [
        ("series: a rider books a weekly series", setup),
        ("series: she changes one date by keyboard alone (checked, then confirmed)", edit_one_date_by_keyboard_alone),
        ("series: she holds it (a backwards range refused first) and resumes early by keyboard alone", hold_and_resume_by_keyboard_alone),
        ("series: with JavaScript off she changes another date (checked, then confirmed)", edit_with_javascript_off),
        ("series: with JavaScript off she holds it (a backwards range refused first) and resumes early", hold_and_resume_with_javascript_off),
    ]
