"""The dispatcher's map in a real browser (found by dispatch.py): a driver's shift and positions
through the driver's API, the van drawn on the map and listed in its table, moved live when a new
position comes in (the console's stream, or the script's polling without it), the table with
JavaScript off, axe.
"""
import time

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By

from suite import PASSWORD, Failed, check

SML = (41.31112, -72.92880)        # Sterling Memorial Library
STATION = (41.29749, -72.92663)    # Union Station New Haven


def flows(console):
    server = console.server
    d = console.dispatcher
    driver_net_id, driver_name = console.driver_account
    state = {}

    def driver_token():
        if "token" not in state:
            status, login = server.api("POST", "/v1/session", {"net_id": driver_net_id, "password": PASSWORD})
            check(status == 201, f"the driver's sign-in answered {status}: {login}")
            state["token"] = login["token"]
        return state["token"]

    def post_position(point):
        # vand keeps one fix per van per second (202 for another in that second): an earlier flow's
        # tap with a position on this van may have taken this second, so post again in the next one.
        for _ in range(3):
            status, body = server.api("POST", f"/v1/vans/{state['van']}/positions", {"lat": point[0], "lon": point[1], "accuracy_m": 10}, driver_token())
            if status != 202:
                break
            time.sleep(1.05 - time.time() % 1.0)
        check(status == 204, f"posting a position answered {status}: {body}")

    def row():
        # The table may be redrawn (a stream event) while it is read: then it reads as nothing yet.
        try:
            for tr in d.d.find_elements(By.CSS_SELECTOR, "#map-table tbody tr"):
                if tr.find_element(By.CSS_SELECTOR, "th").text.strip() == state["name"]:
                    return tr.text
        except StaleElementReferenceException:
            pass
        return ""

    def marker(browser):
        try:
            found = browser.d.find_elements(By.CSS_SELECTOR, f"#map-drawing g.van[data-van='{state['van']}'] circle")
            return (found[0].get_attribute("cx"), found[0].get_attribute("cy")) if found else None
        except StaleElementReferenceException:
            return ("redrawn", "redrawn")

    def a_van_on_shift_is_drawn_and_listed():
        # Van 3, unless another part's flow left this driver on a shift already: then that van.
        van = server.sql("SELECT id FROM vans WHERE name = 'Van 3'")
        status, body = server.api("POST", "/v1/driver/shift", {"van": int(van)}, driver_token())
        if status == 201:
            state["started"] = True
        else:
            status, body = server.api("GET", "/v1/driver/shift", None, driver_token())
            check(status == 200 and body.get("shift"), f"the driver has no shift and could not start one: {status} {body}")
        shift = body.get("shift", body)
        state["van"] = int(shift.get("van_id") or shift["van"]["id"])
        state["name"] = server.sql(f"SELECT name FROM vans WHERE id = {state['van']}")
        post_position(SML)
        # A rider's ride on demand (about 5 minutes out) from SAS to Bass, approved on the van.
        status, ride = server.api("POST", "/v1/rides", {"kind": "on_demand", "pickup": "SAS", "dropoff": "Bass"},
                                  console.rider_token(*console.rider_account))
        check(status == 201, f"booking answered {status}: {ride}")
        state["ride"] = ride["ref"]
        server.admin("rides", "approve", ride["ref"], "--van", state["name"])
        d.go("/dispatch/map")
        d.wait(lambda _: marker(d) is not None, f"{state['name']} is not drawn on the map")
        label = d.el(f"#map-drawing g.van[data-van='{state['van']}'] text").text
        check(label == state["name"], f"the van's marker is labelled {label!r}")
        d.wait(lambda _: "near SML" in row() and driver_name in row(), f"the table's row reads {row()!r}")
        rider = console.rider_account[1].split()[0]
        # The row is redrawn live as the van's ETAs come in: wait for the stops, never read it once.
        d.wait(lambda _: all(part in row() for part in (f"pickup {rider}", "at SAS", "at Bass", state["ride"])),
               f"the van's next stops are not listed (ride {state['ride']}, rider {rider}): {row()!r}")
        # The line from the van runs through its next stops (the pickup, then the drop-off).
        route = d.d.find_elements(By.CSS_SELECTOR, "#map-drawing g.route path")
        check(len(route) == 1 and route[0].get_attribute("d").count("L") == 2, f"the van's route is drawn as {[r.get_attribute('d') for r in route]}")
        svg = d.el("#map-drawing svg")
        check(svg.get_attribute("role") == "img" and state["name"] in d.el("#map-desc").get_attribute("textContent"),
              "the map's description does not name the van")

    def a_new_position_moves_the_van_live():
        before = marker(d)
        d.d.execute_script("window.mapNotReloaded = true; document.getElementById('map-table').closest('.table-scroll').focus();")
        post_position(STATION)
        d.wait(lambda _: marker(d) not in (None, before) and "near Union Station" in row(),
               f"the van never moved on the map (still at {marker(d)}; row {row()!r})", timeout=40)
        check(d.d.execute_script("return window.mapNotReloaded === true"), "the page was reloaded, not redrawn")
        focused = d.focused().get_attribute("class") or ""
        check("table-scroll" in focused, f"focus moved to {d.focused().tag_name}.{focused}")

    def the_table_without_javascript():
        plain = console.nojs
        plain.go("/dispatch/map")
        plain.wait(lambda _: plain.d.find_elements(By.CSS_SELECTOR, "#map-table tbody tr"), "no table without JavaScript")
        rows = {tr.find_element(By.CSS_SELECTOR, "th").text.strip(): tr.text for tr in plain.d.find_elements(By.CSS_SELECTOR, "#map-table tbody tr")}
        check(state["name"] in rows and "near Union Station" in rows[state["name"]] and driver_name in rows[state["name"]],
              f"the table without JavaScript reads {rows}")
        check(any("Not on shift" in text for name, text in rows.items() if name != state["name"]), f"no van listed off shift: {rows}")
        check(plain.d.find_elements(By.CSS_SELECTOR, f"#map-drawing g.van[data-van='{state['van']}']"), "the van is not drawn without JavaScript")

    def the_map_passes_axe():
        d.go("/dispatch/map")
        d.wait(lambda _: marker(d) is not None, "the van is not drawn")
        d.audit("dispatch-map")
        if state.get("ride"):
            server.admin("rides", "cancel", state["ride"], "--reason", "Browser suite: the map's flows are done")
        if state.get("started"):
            status, body = server.api("DELETE", "/v1/driver/shift", None, driver_token())
            check(status == 200, f"ending the shift answered {status}: {body}")
            d.go("/dispatch/map")
            d.wait(lambda _: marker(d) is None and "Not on shift" in row(), f"the van off shift still drawn: {row()!r}")

    return [
        ("map: a van on shift is drawn at its position and listed", a_van_on_shift_is_drawn_and_listed),
        ("map: a new position moves the van live, focus kept", a_new_position_moves_the_van_live),
        ("map: the table with JavaScript off", the_table_without_javascript),
        ("map: axe, and a van off shift leaves the map", the_map_passes_axe),
    ]
