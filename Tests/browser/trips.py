"""The way back in a real browser (run by suite.py's rider part, on the rider's vand): a rider
books a ride with "And back at" and one with "I'll call when I'm ready" from the booking form
(both given first: refused next to the field, her input kept), the driver drops her off (as the
road writes it), she taps "I'm ready" and sees her way back booked and linked. By keyboard alone
with axe on every page, and again with JavaScript off.
"""
import re

from selenium.webdriver.common.keys import Keys

from suite import PASSWORD, check, keys, next_weekday, press, Rider, start_browser, tab_to

RIDER = ("tr700", "Tess Trips")
# Another rider for the flow with JavaScript off: Tess's way back, booked now, holds her for its span.
OTHER = ("tr701", "Theo Trips")


def flows(server, suite):
    day = next_weekday(6)
    state = {}

    def to_field(browser, field):
        tab_to(browser, lambda e: e.get_attribute("id") == field, f"the field #{field}")

    def ride_id(browser):
        return re.search(r"/rides/([0-9a-f-]{36})", browser.d.current_url).group(1)

    def dropped_off(ride):
        """The driver dropped her off: the ride there is over (approved, then completed, as the road writes it)."""
        server.sql(f"UPDATE rides SET status = 'approved' WHERE id = '{ride}'")
        server.sql(f"UPDATE rides SET status = 'completed' WHERE id = '{ride}'")

    def ways_back(ride):
        return server.sql(f"SELECT count(*) FROM rides WHERE return_of = '{ride}'")

    def setup():
        server.api_rider(*RIDER)
        server.api_rider(*OTHER)

    def sign_in(browser, rider=RIDER):
        browser.sign_in(rider[0], PASSWORD)
        browser.wait_path(r"^$|^\?")

    def fill_by_keyboard(browser, hour, minute, back=None):
        """The booking form from its pick-up place down, keys alone: SCL to Davenport on `day`."""
        browser.go("/book")
        to_field(browser, "pickup")
        keys(browser, "SCL", Keys.TAB, "Davenport", Keys.TAB, day.strftime("%m%d%Y"))
        to_field(browser, "time")
        keys(browser, f"{(hour + 11) % 12 + 1:02d}{minute:02d}{'AM' if hour < 12 else 'PM'}")
        if back is not None:
            to_field(browser, "return_time")
            keys(browser, f"{(back + 11) % 12 + 1:02d}00{'AM' if back < 12 else 'PM'}")
        check(browser.el("#date").get_attribute("value") == day.isoformat(), f"the date reads {browser.el('#date').get_attribute('value')!r}")
        check(browser.el("#time").get_attribute("value") == f"{hour:02d}:{minute:02d}", f"the time reads {browser.el('#time').get_attribute('value')!r}")

    def by_keyboard_alone():
        rider = Rider(suite, start_browser(javascript=True))
        try:
            sign_in(rider)
            # A timed way back: both rides booked, each page linking the other.
            fill_by_keyboard(rider, 5, 0, back=7)
            check(rider.el("#return_time").get_attribute("value") == "07:00", "the way back's time was not typed")
            press(rider, "Request this ride")
            rider.wait_text("Your ride and your way back are requested")
            check("Your way back: 7:00 AM" in rider.main_text(), f"the ride there does not link its way back: {rider.main_text()[:400]!r}")
            rider.audit("ride-trip")

            # A time and the will-call box both: refused next to the time, her input kept.
            fill_by_keyboard(rider, 9, 30, back=11)
            to_field(rider, "will_call")
            keys(rider, Keys.SPACE)
            check(rider.el("#will_call").is_selected(), "Space did not tick the will-call box")
            press(rider, "Request this ride")
            rider.wait_text("There is a problem")
            check("error-summary" in (rider.focused().get_attribute("class") or ""), "focus did not move to the error summary")
            check(rider.el("#return_time").get_attribute("aria-invalid") == "true", "the way back's time is not marked invalid")
            check("not both" in rider.el("#return_time-error").text, f"the error reads {rider.el('#return_time-error').text!r}")
            check(rider.el("#return_time").get_attribute("value") == "11:00", "her way back's time was lost")
            check(rider.el("#will_call").is_selected(), "her will-call tick was lost")
            check(rider.el("#time").get_attribute("value") == "09:30", "her time was lost")
            rider.audit("book-will-call-error")
            # She keeps the will-call: the way back's time cleared by keys, the form sent again.
            to_field(rider, "return_time")
            keys(rider, Keys.BACKSPACE)
            check(rider.el("#return_time").get_attribute("value") == "", "the way back's time was not cleared")
            press(rider, "Request this ride")
            rider.wait_text("Way back: you'll call when you're ready")
            check("Tap I'm ready here once you have arrived." in rider.main_text(), "no word on when to tap I'm ready")
            check(not rider.d.find_elements("css selector", "form[action$='/ready']"), "I'm ready offered before the ride there is over")
            there = ride_id(rider)
            rider.audit("ride-will-call")

            dropped_off(there)
            rider.go(f"/rides/{there}")
            rider.wait_text("Tap it when you are ready to go back")
            press(rider, "I'm ready")
            rider.wait_text("This is your way back from")
            check("Your way back is requested for" in rider.main_text(), f"the way back's page reads {rider.main_text()[:300]!r}")
            back = ride_id(rider)
            check(back != there and ways_back(there) == "1", "the way back was not booked once")
            rider.audit("ride-way-back")
            rider.go(f"/rides/{there}")
            rider.wait_text("Way back booked:")
            tab_to(rider, lambda e: (e.get_attribute("href") or "").endswith(f"/rides/{back}"), "the way back's link")
            keys(rider, Keys.ENTER)
            rider.wait_path(f"^rides/{back}$")
        finally:
            rider.d.quit()

    def with_javascript_off():
        rider = Rider(suite, start_browser(javascript=False), javascript=False)
        try:
            sign_in(rider, OTHER)
            rider.go("/book")
            rider.type("#pickup", "SCL")
            rider.type("#dropoff", "Davenport")
            rider.set_date("#date", day)
            rider.set_time("#time", 11, 0)
            rider.click("#will_call")
            rider.click("form[action='/book'] button[type=submit]")
            rider.wait_text("Way back: you'll call when you're ready")
            there = ride_id(rider)
            dropped_off(there)
            rider.go(f"/rides/{there}")
            rider.click(f"form[action='/rides/{there}/ready'] button[type=submit]")
            rider.wait_text("This is your way back from")
            back = ride_id(rider)
            rider.audit("nojs-way-back")
            rider.go(f"/rides/{there}")
            rider.wait_text("Way back booked:")
            rider.click(f"a[href='/rides/{back}']")
            rider.wait_path(f"^rides/{back}$")
        finally:
            rider.d.quit()
        check(ways_back(there) == "1", "the way back was not booked once")

    return [
        ("trips: two riders for the way back", setup),
        ("trips: by keyboard alone, a timed way back, a will-call (both refused first), I'm ready, the way back linked", by_keyboard_alone),
        ("trips: with JavaScript off, a will-call, I'm ready, the way back linked", with_javascript_off),
    ]
