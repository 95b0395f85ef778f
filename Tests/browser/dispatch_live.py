"""The console's live scripts when things go wrong (run by dispatch.py; dispatch-live.js): a part
fetch that hangs does not stall the redraws after it; a board that polls does not paint the
sign-in page into itself when the session ends, and stops; the map stops polling when the
session ends. The browser's own tools do what a flaky network and a slow clock would
(devtools.py): a request held and never answered, the page's timers run ahead at once.
"""
import datetime
import re
import urllib.request

from selenium.webdriver.common.by import By

from devtools import DevTools
from dispatch import Dispatcher
from suite import PASSWORD, ZONE, check, start_browser

LIVE_DISPATCHER = ("lv330", "Lee Live")
RIDERS = (("lv331", "Lia Live"), ("lv332", "Len Live"), ("lv333", "Lou Live"), ("lv334", "Lyn Live"))
VAN = "Van 2"
SIGNED_OUT = "You are signed out"


def flows(console):
    server = console.server
    d = console.dispatcher
    day = datetime.datetime.now(ZONE).date() + datetime.timedelta(days=2)
    riders = iter(RIDERS)
    state = {}

    def book(hour):
        """A ride on `day` at `hour`:00 by a fresh rider, approved on VAN; its reference."""
        net_id, name = next(riders)
        status, body = server.api("POST", "/v1/rides", {"pickup": "SCL", "dropoff": "Davenport",
                                                          "pickup_at": f"{day.isoformat()}T{hour:02d}:00"},
                                  console.rider_token(net_id, name))
        check(status == 201, f"booking for {net_id} at {hour}:00 answered {status}: {body}")
        server.admin("rides", "approve", body["ref"], "--van", VAN)
        return body["ref"]

    def board_path():
        """The board of `day` on VAN, which holds a ride that day."""
        if "first" not in state:
            state["first"] = book(9)
            state["van"] = server.sql(f"SELECT id FROM vans WHERE name = '{VAN}'")
        return f"/dispatch/board?day={day.isoformat()}&van={state['van']}"

    def signed_in_elsewhere():
        """A browser of its own, signed in as a dispatcher of its own (so her streams and her
        sign-out touch no other flow's), on the console."""
        if "dispatcher" not in state:
            added = server.admin("dispatchers", "add", LIVE_DISPATCHER[0], "--name", LIVE_DISPATCHER[1])
            temporary = re.search(r"temporary password: (\S+)", added).group(1)
            status, login = server.api("POST", "/v1/session", {"net_id": LIVE_DISPATCHER[0], "password": temporary})
            check(status == 201, f"the dispatcher's first sign-in answered {status}: {login}")
            status, body = server.api("POST", "/v1/password", {"current": temporary, "new": PASSWORD}, login["token"])
            check(status in (200, 204), f"choosing her password answered {status}: {body}")
            state["dispatcher"] = True
        browser = Dispatcher(console.suite, start_browser(javascript=True))
        browser.sign_in(LIVE_DISPATCHER[0], PASSWORD)
        browser.wait_path(r"^dispatch$")
        return browser

    def open_page(browser, tools, path):
        """Loads `path` and waits until its script holds the console's stream open."""
        before = opened(tools)
        browser.go(path)
        tools.wait_for(lambda: opened(tools) > before, f"{path} never opened the console's stream")

    def opened(tools):
        return sum(1 for e in tools.events if e.get("method") == "Network.responseReceived"
                   and e["params"]["response"]["url"].endswith("/dispatch/stream") and e["params"]["response"]["status"] == 200)

    def sign_out_in_another_tab(browser):
        here = browser.d.current_window_handle
        browser.d.switch_to.new_window("tab")
        browser.go("/dispatch/book")
        browser.click("footer form[action='/sign-out'] button")
        browser.wait_text("You are signed out")
        browser.d.close()
        browser.d.switch_to.window(here)

    def said(browser):
        return browser.el("#live").get_attribute("textContent") or ""

    def parts(tools, path):
        """The page's own requests for `path` so far (not the test's `settle=` ones)."""
        return [url for url in tools.requests() if path in url and "settle=" not in url]

    def a_hung_part_fetch_does_not_stall_later_redraws():
        path = board_path()
        tools = DevTools(d.d)
        try:
            tools.listen_to_streams()
            open_page(d, tools, path)
            d.wait(lambda _: d.d.find_elements(By.ID, f"ride-{state['first']}"), "the board does not show the day's ride")
            # The board's next look at its part is held and never answered, as by a server that hangs.
            tools.intercept("*/dispatch/board/part*", hold=lambda url, n: n == 1)
            second = book(10)
            tools.wait_for(lambda: tools.held, "the board never looked at its part after a ride was booked")
            third = book(11)
            d.wait(lambda _: d.d.find_elements(By.ID, f"ride-{second}") and d.d.find_elements(By.ID, f"ride-{third}"),
                   f"after a hung fetch the board never drew {second} and {third}")
            check(len(parts(tools, "/dispatch/board/part")) >= 2, f"the board's looks: {tools.requests()}")
        finally:
            tools.close()

    def a_polling_board_does_not_paint_the_sign_in_page_when_the_session_ends():
        path = board_path()
        browser = signed_in_elsewhere()
        tools = DevTools(browser.d)
        streams = []
        try:
            tools.listen_to_streams()
            open_page(browser, tools, path)
            # Her newer streams (other screens) take this page's place: it looks again every 30 s.
            cookie = browser.d.get_cookie("vand_session")["value"]
            for _ in range(8):
                request = urllib.request.Request(server.base + "/dispatch/stream", headers={"cookie": f"vand_session={cookie}"})
                answer = urllib.request.urlopen(request, timeout=30)
                check(answer.status == 200, f"a console stream answered {answer.status}")
                answer.readline()
                streams.append(answer)
            browser.wait(lambda _: "Live updates moved to a newer console page" in said(browser), "the board never said it polls")
            tools.intercept("*/dispatch/board/part*")
            sign_out_in_another_tab(browser)
            before = len(parts(tools, "/dispatch/board/part"))
            tools.run_clock(35_000)  # its next look comes due
            browser.wait(lambda _: SIGNED_OUT in said(browser) or browser.d.find_elements(By.CSS_SELECTOR, "#board-part form[action='/sign-in']"),
                         "the board neither said the session ended nor looked again")
            check(not browser.d.find_elements(By.CSS_SELECTOR, "#board-part form[action='/sign-in'], #board-part #password"),
                  "the board painted the sign-in page into itself")
            check(browser.d.find_elements(By.ID, f"ride-{state['first']}"), "the board lost the day it showed")
            looks = len(parts(tools, "/dispatch/board/part"))
            check(looks > before, "the board never looked again after the session ended")
            # Stopped: two more minutes of its clock, and it never looks again.
            tools.run_clock(120_000)
            tools.settle(browser.d, "/dispatch/board/part")
            check(len(parts(tools, "/dispatch/board/part")) == looks, f"the board kept looking after the session ended: {tools.requests()}")
            check(said(browser).count(SIGNED_OUT) == 1, f"the live region says {said(browser)!r}")
        finally:
            for stream in streams:
                stream.close()
            tools.close()
            browser.d.quit()

    def the_map_stops_polling_when_the_session_ends():
        browser = signed_in_elsewhere()
        tools = DevTools(browser.d)
        try:
            tools.listen_to_streams()
            open_page(browser, tools, "/dispatch/map")
            tools.intercept("*/dispatch/map/part*")
            sign_out_in_another_tab(browser)
            tools.wait_for(lambda: tools.stream_event("closed"), "the map's stream never heard that the session ended")
            heard = len(parts(tools, "/dispatch/map/part"))
            # Three minutes of its clock: a map still polling looks every 10 s and every minute.
            tools.run_clock(180_000)
            tools.settle(browser.d, "/dispatch/map/part")
            later = parts(tools, "/dispatch/map/part")[heard:]
            check(not later, f"the map kept polling after the session ended: {len(later)} looks")
            browser.wait(lambda _: SIGNED_OUT in said(browser), "the map never said the session ended")
            check(browser.el("#map-live").get_attribute("data-live") is None, "the map still claims to be live")
        finally:
            tools.close()
            browser.d.quit()

    return [
        ("live: a hung part fetch is given up and a later change is drawn", a_hung_part_fetch_does_not_stall_later_redraws),
        ("live: a polling board does not paint the sign-in page when the session ends, and stops",
         a_polling_board_does_not_paint_the_sign_in_page_when_the_session_ends),
        ("live: the map stops polling when the session ends", the_map_stops_polling_when_the_session_ends),
    ]
