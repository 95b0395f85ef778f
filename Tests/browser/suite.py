#!/usr/bin/env python3
"""The rider web app in a real browser: headless Chromium drives a real `vand` on a
throwaway PostgreSQL through every flow a rider has, with axe-core on every page.

Usage: suite.py --bin DIR [--screenshots DIR] [--part all|rider|driver|dispatch]
  DIR holds the built `vand` and `vanadmin`. Screenshots (390x844; the console's 1280x800) go
  to docs/screenshots.
  --part runs only the rider's flows (with the way back's, Tests/browser/trips.py), the driver's (Tests/browser/driver.py) or the
  dispatcher's console's (Tests/browser/dispatch.py), each on a vand of its own; the default
  runs all three.
Prints one line per check and, last, exactly "N passed, N failed" (CI reads it).
Exits 1 on any failure, or when Chromium cannot start.
"""
import argparse
import base64
import datetime
import gzip
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request
import zlib
import zoneinfo

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

import axe_selenium_python

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
def daytime_zone():
    """A fixed-offset zone in which it is about 10 AM as the suite starts. Every vand of the suite
    serves in it, so no flow runs across a midnight: near midnight in New York a second on-demand ride
    was planned for the next day and left the driver's run (a race with the clock, not the page)."""
    offset = 10 - datetime.datetime.now(datetime.timezone.utc).hour
    if offset < -12:
        offset += 24
    return f"Etc/GMT{'+' if offset <= 0 else '-'}{abs(offset)}"  # POSIX signs: Etc/GMT+5 is UTC−5


ZONE_NAME = daytime_zone()
ZONE = zoneinfo.ZoneInfo(ZONE_NAME)
HOTLINE = "203-555-0142"
PASSWORD = "my van password 1"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
AXE_JS = os.path.join(os.path.dirname(axe_selenium_python.__file__), "node_modules", "axe-core", "axe.min.js")
PAGE_LIMIT = 50 * 1024
FIRST_VISIT_LIMIT = 16 * 1024   # README: every page's first visit (HTML, CSS, scripts as sent) under 16 kB
FOCUS_AMBER = (0xFF, 0xBF, 0x47)  # app.css --focus
WAIT = 30


class Failed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failed(message)


def keys(browser, *sequence):
    """Sends `sequence` to whatever has the focus in `browser`, as a keyboard would."""
    webdriver.ActionChains(browser.d).send_keys(*sequence).perform()


def tab_to(browser, predicate, what, limit=120):
    """Presses Tab until the focused element meets `predicate` (at most `limit` times)."""
    for _ in range(limit):
        keys(browser, Keys.TAB)
        if predicate(browser.focused()):
            return
    raise Failed(f"Tab never reached {what}")


def press(browser, label):
    """Tabs to the button whose text starts with `label` and presses Enter."""
    tab_to(browser, lambda e: e.tag_name == "button" and e.text.strip().startswith(label), f"the button {label!r}")
    keys(browser, Keys.ENTER)


# ---------------------------------------------------------------- vand and its database

class Server:
    """A real vand on its embedded PostgreSQL in a temporary folder, and vanadmin beside it."""

    def __init__(self, bin_dir, env=None):
        self.bin = bin_dir
        self.work = tempfile.mkdtemp(prefix="vand-browser-")
        os.chmod(self.work, 0o755)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = dict(os.environ, VAND_DATA_DIR=os.path.join(self.work, "db"), VAND_PORT=str(self.port),
                        VAND_HOST="127.0.0.1", VAND_BCRYPT_COST="4", VAND_HOTLINE=HOTLINE,
                        VAND_TIMEZONE=ZONE_NAME, VAND_LOG_LEVEL="warning",
                        # No background route search: a moment after a booking it may move the ride to
                        # another van while a flow follows it (loaded runs did, on the board and on the
                        # driver's run). The planner's own tests cover it; the flows need vans as booked.
                        VAND_IMPROVE_SECONDS="0")
        for name in ("DATABASE_URL", "PGHOST", "PGDATABASE", "VAND_AUTO_APPROVE"):
            self.env.pop(name, None)
        self.env.update(env or {})
        self.log = open(os.path.join(self.work, "vand.log"), "w")
        self.process = subprocess.Popen([os.path.join(bin_dir, "vand"), "serve"], env=self.env, stdout=self.log,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(self.base + "/readyz", timeout=30) as answer:
                    if answer.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise SystemExit(f"vand did not become ready; log:\n{open(self.log.name).read()[-3000:]}")
            time.sleep(0.1)  # polling a port, not waiting for a browser

    def admin(self, *args):
        result = subprocess.run([os.path.join(self.bin, "vanadmin"), *args, "--as", "browser-suite"], env=self.env,
                                capture_output=True, text=True, timeout=60)
        if result.returncode != 0:
            raise Failed(f"vanadmin {' '.join(args)} failed: {result.stderr.strip()}")
        return result.stdout

    def invite(self, net_id, name, whitelist=True):
        if whitelist:
            self.admin("whitelist", "add", net_id, "--name", name)
        out = self.admin("riders", "invite", net_id, "--name", name)
        return re.search(r"temporary password: (\S+)", out).group(1)

    def api(self, method, path, body=None, token=None):
        request = urllib.request.Request(self.base + path, method=method, data=json.dumps(body).encode() if body is not None else None)
        request.add_header("content-type", "application/json")
        if token:
            request.add_header("authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def api_rider(self, net_id, name):
        temporary = self.invite(net_id, name)
        _, login = self.api("POST", "/v1/session", {"net_id": net_id, "password": temporary})
        self.api("POST", "/v1/password", {"current": temporary, "new": PASSWORD}, login["token"])
        _, login = self.api("POST", "/v1/session", {"net_id": net_id, "password": PASSWORD})
        return login["token"]

    def sql(self, statement):
        """Runs SQL on vand's embedded database (as the road's services and trackers write it)."""
        run = os.path.join(self.work, "db", "run")
        port = [name.rsplit(".", 1)[1] for name in os.listdir(run) if name.startswith(".s.PGSQL.") and not name.endswith(".lock")][0]
        result = subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-At", f"host={run} port={port} user=postgres dbname=vand",
                                 "-c", statement], capture_output=True, text=True, timeout=30)
        if result.returncode != 0:
            raise Failed(f"psql failed: {result.stderr.strip()}")
        return result.stdout.strip()

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
        self.log.close()
        if os.environ.get("KEEP_WORK"):
            print(f"work folder kept: {self.work}", file=sys.stderr)
        else:
            shutil.rmtree(self.work, ignore_errors=True)


# ---------------------------------------------------------------- the browser

def start_browser(javascript=True):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not chromium or not driver_path:
        raise SystemExit("FATAL: chromium and chromedriver are not installed (scripts/install-browser-deps installs them)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--lang=en-US",
                     "--window-size=390,844", "--disable-features=Translate,MediaRouter", "--no-first-run"):
        options.add_argument(argument)
    prefs = {"intl.accept_languages": "en-US"}
    if not javascript:
        prefs["profile.managed_default_content_settings.javascript"] = 2
    options.add_experimental_option("prefs", prefs)
    try:
        driver = webdriver.Chrome(service=Service(driver_path), options=options)
    except WebDriverException as error:
        raise SystemExit(f"FATAL: Chromium could not start: {error.msg}")
    phone(driver)
    return driver


def phone(driver, width=390, height=844, dark=False):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})


def text_size(driver, percent):
    """The browser's text size setting (its default font size: 16 px is 100%), as a rider sets it;
    the app sizes everything in rem, so everything grows with it."""
    driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 16 * percent // 100, "fixed": 13 * percent // 100}})


def sideways(driver):
    """How many CSS pixels the page is wider than the viewport (0: no sideways scrolling)."""
    return driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth;")


def sticking_out(driver):
    """The deepest element whose right edge passes the viewport's, as `tag.class "text…"` (for a failure's message)."""
    return driver.execute_script(
        "var width = document.documentElement.clientWidth, found = null;"
        "document.querySelectorAll('body *').forEach(function (e) {"
        "  var r = e.getBoundingClientRect(); if (r.width > 0 && r.right > width + 0.5) { found = e; } });"
        "if (!found) { return 'nothing'; }"
        "return found.tagName.toLowerCase() + (found.className ? '.' + String(found.className).split(' ').join('.') : '')"
        "  + ' ' + JSON.stringify((found.textContent || '').trim().slice(0, 60));")


def png_pixels(data):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB(A) non-interlaced PNG, as Chromium writes them."""
    check(data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG")
    position, chunks, width, height, kind = 8, [], 0, 0, 0
    while position < len(data):
        length = int.from_bytes(data[position:position + 4], "big")
        tag = data[position + 4:position + 8]
        body = data[position + 8:position + 8 + length]
        if tag == b"IHDR":
            width, height = int.from_bytes(body[0:4], "big"), int.from_bytes(body[4:8], "big")
            depth, kind, interlace = body[8], body[9], body[12]
            check(depth == 8 and kind in (2, 6) and interlace == 0, f"PNG depth {depth} colour type {kind} interlace {interlace}")
        elif tag == b"IDAT":
            chunks.append(body)
        position += 12 + length
    raw = zlib.decompress(b"".join(chunks))
    step = 4 if kind == 6 else 3
    stride = width * step
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        method, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up = previous[i]
            corner = previous[i - step] if i >= step else 0
            if method == 1:
                line[i] = (line[i] + left) & 0xFF
            elif method == 2:
                line[i] = (line[i] + up) & 0xFF
            elif method == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif method == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append([tuple(line[x * step:x * step + 3]) for x in range(width)])
        previous = line
    return width, height, rows


class Rider:
    """A browser and the checks run in it."""

    def __init__(self, suite, driver, javascript=True):
        self.suite = suite
        self.d = driver
        self.javascript = javascript

    def go(self, path):
        self.d.get(self.suite.server.base + path)

    def wait(self, condition, message, timeout=WAIT):
        """Waits for `condition` on the page. An element that a live redraw replaced while the
        condition read it (stale) or that is not there yet counts as "not yet", never as a failure."""
        try:
            return WebDriverWait(self.d, timeout, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)).until(condition)
        except Exception:
            raise Failed(f"{message} (at {self.d.current_url}: {self.main_text()[:300]!r})")

    def wait_text(self, text, message=None):
        return self.wait(lambda d: text in self.main_text(), message or f"page never said {text!r}")

    def wait_path(self, pattern):
        """Waits for the address (path without its leading slash, then ?query) to match."""
        def here(d):
            parts = urllib.parse.urlsplit(d.current_url)
            return re.search(pattern, parts.path.lstrip("/") + (f"?{parts.query}" if parts.query else ""))
        return self.wait(here, f"never reached a page matching {pattern}")

    def main_text(self):
        try:
            return self.d.find_element(By.TAG_NAME, "main").text
        except Exception:
            return ""

    def el(self, css):
        return self.d.find_element(By.CSS_SELECTOR, css)

    def el_xpath(self, xpath):
        return self.d.find_element(By.XPATH, xpath)

    def type(self, css, text):
        field = self.el(css)
        field.clear()
        field.send_keys(text)

    def click(self, css):
        self.el(css).click()

    def click_text(self, text):
        for element in self.d.find_elements(By.CSS_SELECTOR, "a, button"):
            if element.text.strip() == text or element.text.strip().startswith(text):
                element.click()
                return
        raise Failed(f"no link or button {text!r} on {self.d.current_url}")

    def set_date(self, css, date):
        field = self.el(css)
        field.send_keys(date.strftime("%m%d%Y"))
        check(field.get_attribute("value") == date.isoformat(), f"date field reads {field.get_attribute('value')!r}, typed {date}")

    def set_time(self, css, hour, minute):
        field = self.el(css)
        field.send_keys(datetime.time(hour, minute).strftime("%I%M%p"))
        check(field.get_attribute("value") == f"{hour:02d}:{minute:02d}", f"time field reads {field.get_attribute('value')!r}")

    def focused(self):
        return self.d.switch_to.active_element

    def sign_in(self, net_id, password):
        self.go("/sign-in")
        self.type("#net_id", net_id)
        self.type("#password", password)
        self.click("form[action='/sign-in'] button[type=submit]")

    def audit(self, name):
        """axe (light and dark), the page's weight, reflow at 320 px, and the 390x844 screenshot."""
        self.suite.audit(self, name)


# ---------------------------------------------------------------- the suite

class Suite:
    def __init__(self, server, screenshots):
        self.server = server
        self.screenshots = screenshots
        self.passed = 0
        self.failed = 0
        self.audited = []
        self.weights = {}
        self.timings = {}

    def run(self, name, function):
        started = time.monotonic()
        try:
            function()
            self.passed += 1
            print(f"PASS {name} ({time.monotonic() - started:.1f} s)", flush=True)
        except Exception as error:  # noqa: BLE001 — every failure is reported, the suite goes on
            self.failed += 1
            detail = str(error) if isinstance(error, Failed) else traceback.format_exc(limit=3)
            print(f"FAIL {name}: {detail}", flush=True)

    def audit(self, rider, name, desktop=False):
        """axe (light and dark), the page's weight, reflow at 320 px and 200% text, and the
        screenshot: 390x844, or 1280x800 for a `desktop` page (the dispatcher's console)."""
        d = rider.d
        os.makedirs(self.screenshots, exist_ok=True)
        phone(d, width=1280, height=800) if desktop else phone(d)
        d.execute_script("window.scrollTo(0, 0)") if rider.javascript else None
        d.save_screenshot(os.path.join(self.screenshots, f"{name}.png"))
        violations = []
        if rider.javascript:
            with open(AXE_JS, encoding="utf8") as f:
                axe_source = f.read()
            for dark in (False, True):
                phone(d, dark=dark)
                d.execute_script(axe_source)
                result = d.execute_async_script(
                    "var done = arguments[arguments.length - 1];"
                    "axe.run(document, {runOnly: {type: 'tag', values: %s}, resultTypes: ['violations']})"
                    ".then(function (r) { done(r.violations); }, function (e) { done([{id: 'axe-error', help: String(e), nodes: []}]); });"
                    % json.dumps(AXE_TAGS))
                for violation in result:
                    targets = [", ".join(node["target"]) for node in violation["nodes"]][:3]
                    violations.append(f"{'dark' if dark else 'light'} {violation['id']}: {violation['help']} {targets}")
            phone(d)
            # decoded: as the browser holds it; sent: the bodies as they came over the wire (compressed),
            # counting the stylesheet and scripts as a first visit fetches them (a later visit has them cached).
            weight, sent = d.execute_script(
                "var n = performance.getEntriesByType('navigation')[0];"
                "var total = n ? n.decodedBodySize : 0, sent = n ? n.encodedBodySize : 0;"
                "performance.getEntriesByType('resource').forEach(function (r) {"
                "  if (r.initiatorType !== 'fetch' && r.initiatorType !== 'xmlhttprequest' && r.initiatorType !== 'other') {"
                "    total += r.decodedBodySize; sent += r.encodedBodySize; } });"
                "return [total, sent];")
            self.weights[name] = (weight, sent)
            phone(d, width=320, height=640)
            overflow = sideways(d)
            culprit = sticking_out(d) if overflow > 0 else ""
            phone(d)
            check(overflow <= 0, f"{name}: scrolls sideways at 320 px ({overflow} px too wide: {culprit})")
            # 200% text on a 390 px phone (WCAG 1.4.4 and 1.4.10): long words and badges wrap.
            text_size(d, 200)
            try:
                overflow = sideways(d)
                culprit = sticking_out(d) if overflow > 0 else ""
            finally:
                text_size(d, 100)
            check(overflow <= 0, f"{name}: scrolls sideways at 200% text on a 390 px phone ({overflow} px too wide: {culprit})")
            # 200% by zooming the text alone (the root's font size; media queries do not see it, as in
            # a browser's "zoom text only"): the layout must reflow by the text's width, not by a breakpoint.
            d.execute_script("document.documentElement.style.fontSize = '200%';")
            try:
                overflow = sideways(d)
                culprit = sticking_out(d) if overflow > 0 else ""
            finally:
                d.execute_script("document.documentElement.style.fontSize = '';")
            check(overflow <= 0, f"{name}: scrolls sideways at 200% text-only zoom on a 390 px phone ({overflow} px too wide: {culprit})")
            check(weight <= PAGE_LIMIT, f"{name}: weighs {weight} bytes, over {PAGE_LIMIT}")
            check(sent <= FIRST_VISIT_LIMIT, f"{name}: a first visit sends {sent} bytes, over {FIRST_VISIT_LIMIT}")
        self.audited.append(name)
        check(not violations, f"{name}: axe found {len(violations)} violation(s):\n  " + "\n  ".join(violations))


def next_weekday(days_ahead):
    day = datetime.datetime.now(ZONE).date() + datetime.timedelta(days=days_ahead)
    while day.weekday() >= 5:
        day += datetime.timedelta(days=1)
    return day


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--screenshots", default=os.path.join(ROOT, "docs", "screenshots"))
    parser.add_argument("--part", choices=("all", "rider", "driver", "dispatch"), default="all")
    args = parser.parse_args()

    # Chromium first: if it cannot start, say so before anything else (and fail).
    browser = start_browser(javascript=True)
    suites = []
    try:
        if args.part in ("all", "rider"):
            suites.append(rider_flows(args, browser))
        if args.part in ("all", "driver"):
            import driver  # Tests/browser/driver.py: the driver's day, on a vand of its own
            suites.append(driver.driver_flows(args, browser))
        if args.part in ("all", "dispatch"):
            import dispatch  # Tests/browser/dispatch.py: the dispatcher's console, on a vand of its own
            suites.append(dispatch.dispatch_flows(args, browser))
    finally:
        browser.quit()

    print()
    print("page weights, first visit (HTML + CSS + scripts): as sent (gzip) / decoded")
    weights = {name: weight for suite in suites for name, weight in suite.weights.items()}
    for name, (weight, sent) in sorted(weights.items(), key=lambda item: -item[1][1]):
        print(f"  {name:18} {sent / 1024:5.1f} kB / {weight / 1024:5.1f} kB")
    for suite in suites:
        for name, seconds in suite.timings.items():
            print(f"{name}: {seconds:.2f} s")
    audited = [name for suite in suites for name in suite.audited]
    passed, failed = sum(suite.passed for suite in suites), sum(suite.failed for suite in suites)
    print(f"axe-core on {len(audited)} pages ({', '.join(AXE_TAGS)}), light and dark")
    print(f"screenshots: {os.path.relpath(args.screenshots, ROOT)}/")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def rider_flows(args, browser):
    """Every flow a rider has, on a vand of their own; the suite with its counts."""
    server = Server(os.path.abspath(args.bin))
    suite = Suite(server, args.screenshots)
    nojs_browser = None
    try:
        server.admin("demo")
        server.admin("hours", "set", "Mon-Sun 00:00-24:00")  # any day the suite runs on
        server.admin("vans", "retire", "Van 2")                # one van: a taken time is easy to make
        server.admin("vans", "retire", "Van 3")
        # One rider at a time and exact promises, so one booking takes a time (shared rides have their own tests).
        server.admin("vans", "update", "Van 1", "--seats", "1")
        server.admin("scheduler", "set", "--window", "0")
        temporary = server.invite("jd123", "Jamie Doe")
        other = server.api_rider("other1", "Other Rider")
        rider = Rider(suite, browser)
        state = {}
        day = next_weekday(2)
        later_day = next_weekday(4)

        def sign_in_errors():
            rider.go("/sign-in")
            rider.audit("sign-in")
            rider.type("#net_id", "jd123")
            rider.type("#password", "not the password")
            rider.click("form[action='/sign-in'] button[type=submit]")
            rider.wait_text("There is a problem")
            check(rider.el("#net_id").get_attribute("value") == "jd123", "the net ID typed was lost")
            check("error-summary" in (rider.focused().get_attribute("class") or ""), "focus did not move to the error summary")
            described = rider.el("#password").get_attribute("aria-describedby") or ""
            check("password-error" in described, "the password field is not described by its error")
            rider.audit("sign-in-error")

        def temporary_password_must_change():
            rider.sign_in("jd123", temporary)
            rider.wait_path(r"^password")
            rider.wait_text("temporary password")
            rider.go("/book")  # any other page sends the rider back
            rider.wait_path(r"^password")
            rider.audit("password")
            rider.type("#current", temporary)
            rider.type("#new", PASSWORD)
            rider.type("#confirm", "something else")
            rider.click("form[action='/password'] button[type=submit]")
            rider.wait_text("not the same")
            rider.type("#current", temporary)
            rider.type("#new", PASSWORD)
            rider.type("#confirm", PASSWORD)
            rider.click("form[action='/password'] button[type=submit]")
            rider.wait_text("Your new password is saved")
            rider.audit("home")

        def cookie_flags():
            cookie = rider.d.get_cookie("vand_session")
            check(cookie is not None, "no session cookie")
            check(cookie.get("httpOnly") is True, "session cookie is not HttpOnly")
            check(cookie.get("sameSite") == "Lax", f"session cookie SameSite is {cookie.get('sameSite')}")

        def sign_out_and_typical_ride():
            rider.click("footer form[action='/sign-out'] button")
            rider.wait_text("You are signed out")
            # The paper's typical ride, timed: sign in → book → see it pending.
            started = time.monotonic()
            rider.sign_in("jd123", PASSWORD)
            rider.wait_path(r"^$|^\?")
            rider.click_text("Book ahead")
            rider.wait(EC.presence_of_element_located((By.ID, "dropoff")), "no booking form")
            rider.type("#pickup", "SCL")
            rider.type("#dropoff", "Davenport")
            rider.set_date("#date", day)
            rider.set_time("#time", 10, 0)
            rider.click("form[action='/book'] button[type=submit]")
            rider.wait_text("Waiting for approval")
            suite.timings["typical ride (sign in → book → see it pending)"] = time.monotonic() - started
            check("10:00 AM" in rider.main_text(), "the ride page does not say 10:00 AM")
            check("Sterling Chemistry Lab" in rider.main_text(), "the alias SCL was not resolved")
            state["typical"] = rider.d.current_url.split("/rides/")[1].split("?")[0]
            # The reference the rider reads to the office, spelled for screen readers.
            state["typical_ref"] = rider.el(".details .ref").text
            check(re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{3}-[0-9A-HJKMNP-TV-Z]{3}", state["typical_ref"]) is not None, f"ride reference {state['typical_ref']!r}")
            check(rider.el(".details .ref").get_attribute("aria-hidden") == "true", "the reference is not hidden from screen readers in its typed form")
            rider.audit("ride")

        def book_form_errors_keep_input():
            rider.go("/book")
            rider.audit("book")
            rider.type("#pickup", "SCL")
            rider.type("#dropoff", "Nowhere Hall")
            rider.type("#note", "Side door, please")
            rider.click("form[action='/book'] button[type=submit]")
            rider.wait_text("There is a problem")
            check("error-summary" in (rider.focused().get_attribute("class") or ""), "focus did not move to the error summary")
            check(rider.el("#pickup").get_attribute("value") == "SCL", "pickup lost")
            check(rider.el("#dropoff").get_attribute("value") == "Nowhere Hall", "destination lost")
            check(rider.el("#note").get_attribute("value") == "Side door, please", "note lost")
            check("dropoff-error" in rider.el("#dropoff").get_attribute("aria-describedby"), "destination error not linked")
            check(rider.el("#dropoff").get_attribute("aria-invalid") == "true", "destination not marked invalid")
            rider.audit("book-errors")

        def picker_button_gets_the_focus_ring():
            # Tab from the destination through the date field: its month, day and year, then its picker
            # button (a tab stop of its own, on which Chromium paints only its thin ring). At each stop the
            # field wears the app's amber ring, which lies outside its border.
            rider.go("/book")
            rider.el("#dropoff").click()
            field = rider.el("#date")
            stops = 0
            while True:
                webdriver.ActionChains(rider.d).send_keys(Keys.TAB).perform()
                if rider.focused() != field:
                    break
                stops += 1
                check(stops <= 6, "focus never left the date field")
                x, y, width, height = rider.d.execute_script(
                    "var r = arguments[0].getBoundingClientRect(); return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height];", field)
                shot = rider.d.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "clip": {
                    "x": x - 6, "y": y - 6, "width": width + 12, "height": height + 12, "scale": 1}})
                _, _, rows = png_pixels(base64.b64decode(shot["data"]))
                amber = sum(1 for row in rows for pixel in row if all(abs(a - b) <= 24 for a, b in zip(pixel, FOCUS_AMBER)))
                check(amber >= 2 * width, f"tab stop {stops} of the date field (the picker button is the last) shows no amber ring ({amber} px)")
            check(stops >= 4, f"the date field has {stops} tab stops; the picker button was not reached")

        def place_search_as_you_type():
            rider.go("/book")
            # Every search's first answer is lost (a busy server's 503): the script must ask again by itself.
            rider.d.execute_script("""
                var real = window.fetch, failed = {};
                window.fetch = function (url, options) {
                  if (String(url).indexOf('/v1/places') === 0 && !failed[url]) {
                    failed[url] = true;
                    return Promise.resolve(new Response('{}', { status: 503 }));
                  }
                  return real.call(window, url, options);
                };""")
            rider.type("#dropoff", "Hosp")
            # Read in one script call: the list is rebuilt when the answer comes, between two reads of it.
            rider.wait(lambda d: d.execute_script("return Array.from(document.querySelectorAll('#dropoff-places option'), function (o) { return o.value; })")
                       == ["Yale-New Haven Hospital"], "the destination list was not narrowed to the hospital")

        def taken_time_one_tap():
            status, _ = server.api("POST", "/v1/rides", {"pickup": "SCL", "dropoff": "Davenport",
                                                          "pickup_at": f"{day.isoformat()}T15:00"}, other)
            check(status == 201, f"the other rider's booking answered {status}")
            rider.go("/book")
            rider.type("#pickup", "SCL")
            rider.type("#dropoff", "Davenport")
            rider.set_date("#date", day)
            rider.set_time("#time", 15, 0)
            rider.click("form[action='/book'] button[type=submit]")
            rider.wait_text("That time is taken")
            sentence = rider.el(".conflict .sentence").text
            check(re.fullmatch(r"The van is occupied at 3:00 PM\. Does \d{1,2}:\d{2} [AP]M or \d{1,2}:\d{2} [AP]M work\?", sentence),
                  f"unexpected sentence {sentence!r}")
            check(rider.el(".conflict a[href^='tel:']").get_attribute("href") == "tel:2035550142", "no call-the-dispatcher link")
            check("conflict" in (rider.focused().get_attribute("class") or ""), "focus did not move to the sentence")
            rider.audit("book-conflict")
            buttons = rider.d.find_elements(By.CSS_SELECTOR, ".conflict form button")
            check(len(buttons) == 2, f"{len(buttons)} suggestion buttons")
            later = buttons[1].text  # "Book 3:15 PM on …"
            buttons[1].click()
            rider.wait_text("Waiting for approval")
            check(later.split(" ")[1] in rider.main_text(), f"the ride is not at the suggested {later}")
            state["suggested"] = rider.d.current_url.split("/rides/")[1].split("?")[0]

        def arrive_by_a_time():
            rider.go("/book")
            rider.type("#pickup", "SCL")
            rider.type("#dropoff", "Davenport")
            rider.set_date("#date", day)
            rider.click("#time_is-arrive")
            rider.set_time("#time", 13, 0)
            rider.click("form[action='/book'] button[type=submit]")
            rider.wait_text("Waiting for approval")
            details = rider.el(".details").text
            check("Arrival" in details and "1:00 PM" in details, f"the ride page does not promise the arrival: {details!r}")
            check("planned" in details, "the ride page does not give the planned pickup")
            state["arrive"] = rider.d.current_url.split("/rides/")[1].split("?")[0]
            state["arrive_ref"] = rider.el(".details .ref").text
            rider.audit("ride-arrive-by")

        def live_notification_after_approval():
            rider.go("/rides")
            rider.audit("rides")
            rider.wait(lambda d: d.execute_script("return document.body.dataset.after !== undefined"), "no live stream")
            # The dispatcher types the reference as heard: lower case, no dash.
            server.admin("rides", "approve", state["typical_ref"].replace("-", "").lower())
            rider.wait(lambda d: "is approved" in d.find_element(By.ID, "live").text, "the approval never appeared live")
            check(rider.el("#live").get_attribute("aria-live") == "polite", "live region is not polite")
            rider.wait(lambda d: d.find_element(By.ID, "unread").text == "1 unread", "the unread count did not rise")
            # "Notifications" with its badge wraps at 200% text on a 390 px phone.
            text_size(rider.d, 200)
            try:
                overflow = sideways(rider.d)
                rider.d.save_screenshot(os.path.join(suite.screenshots, "nav-200-text.png"))
            finally:
                text_size(rider.d, 100)
            check(overflow <= 0, f"the navigation with the unread badge scrolls sideways at 200% text ({overflow} px too wide)")
            rider.go("/notifications")
            rider.wait_text("is approved")
            text_size(rider.d, 200)
            try:
                rider.d.save_screenshot(os.path.join(suite.screenshots, "notifications-200-text.png"))
            finally:
                text_size(rider.d, 100)
            rider.audit("notifications")
            check(rider.el("#unread").text == "", "notifications still counted unread after reading them")
            rider.go(f"/rides/{state['typical']}")
            rider.wait_text("Approved")

        def ride_page_status_changes_live():
            rider.go(f"/rides/{state['arrive']}")
            rider.wait(lambda d: d.execute_script("return document.body.dataset.after !== undefined"), "no live stream")
            check(rider.el(".details .status").text == "Waiting for approval", f"status reads {rider.el('.details .status').text!r}")
            server.admin("rides", "approve", state["arrive_ref"])
            rider.wait(lambda d: "is approved" in d.find_element(By.ID, "live").text, "the approval never appeared live")
            rider.wait(lambda d: d.find_element(By.CSS_SELECTOR, ".details .status").text == "Approved",
                       "the ride page's status still says it waits for approval")
            check("approved" in rider.el(".details .status").get_attribute("class").split(), "the status keeps its old class")
            check(rider.d.find_elements(By.XPATH, "//main//a[contains(., 'Cancel this ride')]"), "an approved ride lost its cancel button")

        def ride_now_with_location():
            rider.d.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.base, "permissions": ["geolocation"]})
            rider.d.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": 41.31635, "longitude": -72.92245, "accuracy": 10})
            rider.go("/ride-now")
            rider.wait_text("the van picks you up at about")
            check(re.search(r"picks you up at about \d{1,2}:\d{2} [AP]M (today|tomorrow): be ready until \d{1,2}:\d{2} [AP]M", rider.main_text()),
                  "the pickup window is not stated")
            rider.audit("ride-now")
            rider.click("#use-location")
            rider.wait(lambda d: "near Sterling Chemistry Lab" in d.find_element(By.ID, "location-status").text, "location not used")
            rider.type("#dropoff", "Bass")
            rider.el("#wheelchair").click()
            rider.click("form[action='/ride-now'] button[type=submit]")
            rider.wait_text("Waiting for approval")
            check("Sterling Chemistry Lab" in rider.main_text() and "Bass Library" in rider.main_text(), "wrong places")
            check("Ride now (on demand)" in rider.main_text(), "not an on-demand ride")
            state["now"] = rider.d.current_url.split("/rides/")[1].split("?")[0]

        def van_approaching_live():
            # The ride-now ride approved; a driver on Van 1 and its tracker's positions, written as the
            # road's services write them. The ride page says where the van is, then follows it live.
            rider.go(f"/rides/{state['now']}")
            server.admin("rides", "approve", rider.el(".details .ref").text)
            server.sql("INSERT INTO riders (net_id, password_hash, must_change_password, role) VALUES ('drv9', 'x', false, 'driver')")
            server.sql("INSERT INTO shifts (driver_net_id, van_id, started_at) SELECT 'drv9', van_id, now() FROM rides WHERE id = '%s'" % state["now"])
            def position(meters_north):
                server.sql("INSERT INTO van_positions (van_id, at, lat, lon, source) SELECT van_id, now(), pickup_lat + %f, pickup_lon, 'tracker' "
                           "FROM rides WHERE id = '%s' ON CONFLICT (van_id) DO UPDATE SET at = EXCLUDED.at, lat = EXCLUDED.lat, lon = EXCLUDED.lon"
                           % (meters_north / 111195.0, state["now"]))
            position(2000)  # 2 km × 1.3 ÷ 20 km/h: about 8 minutes away
            rider.go(f"/rides/{state['now']}")
            region = rider.el("#eta")
            check(region.get_attribute("role") == "status" and region.get_attribute("aria-live") == "polite", "the ETA is not a polite live region")
            check(re.fullmatch(r"The van is about 8 minutes away, your stop is next\.", region.text), f"the ETA reads {region.text!r}")
            rider.wait(lambda d: d.execute_script("return document.body.dataset.after !== undefined"), "no live stream")
            rider.audit("ride-eta")
            # The next position: about a minute away, on the page without reloading it (if her window
            # opens later than that, the van waits at her stop for it, and the ETA says so).
            position(300)
            rider.wait(lambda d: re.fullmatch(r"The van is (about 1 minute|less than a minute) away, your stop is next\."
                                              r"|The van will be at your stop when your window opens, in (about \d+ minutes?|less than a minute), your stop is next\.",
                                              d.find_element(By.ID, "eta").text),
                       "the ETA did not follow the van live")
            server.sql("INSERT INTO stop_taps (tap_key, shift_id, ride_id, stop, action, at) SELECT gen_random_uuid(), s.id, '%s', 'pickup', 'arrived', now() "
                       "FROM shifts s WHERE s.driver_net_id = 'drv9' AND s.ended_at IS NULL" % state["now"])
            position(0)
            rider.wait(lambda d: d.find_element(By.ID, "eta").text == "The van is here.", "the page never said the van is here")

        def late_cancellation():
            rider.go(f"/rides/{state['now']}")
            rider.click_text("Cancel this ride")
            rider.wait_text("This is a late cancellation")
            rider.audit("cancel-late")
            rider.click("main form button.danger")
            rider.wait_text("recorded as a late cancellation")

        def cancel_on_time():
            rider.go(f"/rides/{state['suggested']}/cancel")
            rider.wait_text("Cancel this ride?")
            check("late cancellation" not in rider.main_text(), "an on-time cancellation is called late")
            rider.click("main form button.danger")
            rider.wait_text("Your ride is cancelled.")

        def cancelled_rides_are_not_next():
            # Now: the ride-now ride (today) and the suggested one are cancelled; 10:00 and the arrival are approved.
            rider.go("/")
            card = rider.wait(lambda d: d.find_element(By.XPATH, "//main//h2[normalize-space()='Your next ride']/following-sibling::*[1]"),
                              "no next ride on the home page")
            check("Cancelled" not in card.text, f"the next ride shown is a cancelled one: {card.text!r}")
            check("10:00 AM" in card.text and "Approved" in card.text, f"the next ride is not the approved 10:00 AM one: {card.text!r}")
            rider.go("/rides")
            upcoming = rider.el_xpath("//main//h2[normalize-space()='Upcoming']/following-sibling::*[1]")
            statuses = [e.text for e in upcoming.find_elements(By.CSS_SELECTOR, ".status")]
            check(statuses and "Cancelled" not in statuses, f"Upcoming lists {statuses}")
            headings = [h.text for h in rider.d.find_elements(By.CSS_SELECTOR, "main h2")]
            cancelled = rider.d.find_elements(By.XPATH, "//main//span[contains(@class, 'status') and normalize-space()='Cancelled']")
            check(len(cancelled) == 2, f"{len(cancelled)} cancelled rides listed (want the two), under {headings}")
            for status in cancelled:
                heading = status.find_element(By.XPATH, "preceding::h2[1]").text
                check(heading != "Upcoming", f"a cancelled ride is listed under {heading!r}")
            rider.audit("rides-cancelled")

        def weekly_days_error_focuses_a_day():
            rider.go("/book")
            rider.type("#pickup", "SSS")
            rider.type("#dropoff", "Gym")
            rider.set_date("#date", day)
            rider.set_time("#time", 8, 30)
            rider.el("#repeat").click()
            rider.set_date("#repeat_until", day + datetime.timedelta(days=14))
            rider.click("form[action='/book'] button[type=submit]")
            rider.wait_text("There is a problem")
            days = rider.d.find_elements(By.CSS_SELECTOR, "input[name=repeat_days]")
            check(len(days) == 7, f"{len(days)} weekday checkboxes")
            for box in days:
                check(box.get_attribute("aria-invalid") == "true", f"{box.get_attribute('id')} is not marked invalid")
                check("repeat_days-error" in (box.get_attribute("aria-describedby") or "").split(),
                      f"{box.get_attribute('id')} is not described by the error")
            link = rider.el_xpath("//div[contains(@class, 'error-summary')]//a[contains(., 'weekday')]")
            link.click()
            rider.wait(lambda d: d.switch_to.active_element.get_attribute("id") == "day-mon",
                       f"the summary's link ({link.get_attribute('href')}) does not move focus to the first weekday")
            # As the rider sees it: the group, its error and the focused first box; then at 200% text.
            rider.d.execute_script("document.getElementById('repeat_days').scrollIntoView()")
            rider.d.save_screenshot(os.path.join(suite.screenshots, "book-repeat-days.png"))
            text_size(rider.d, 200)
            try:
                rider.d.execute_script("document.getElementById('repeat_days').closest('fieldset.field:not(.days-group)').scrollIntoView()")
                rider.d.save_screenshot(os.path.join(suite.screenshots, "book-repeat-200-text.png"))
            finally:
                text_size(rider.d, 100)
            rider.audit("book-repeat-error")

        def weekly_series_and_cancel_it():
            rider.go("/book")
            rider.type("#pickup", "SSS")
            rider.type("#dropoff", "Gym")
            rider.set_date("#date", day)
            rider.set_time("#time", 8, 30)
            rider.el("#repeat").click()
            weekday = day.strftime("%a").lower()[:3]
            rider.el(f"#day-{weekday}").click()
            rider.set_date("#repeat_until", day + datetime.timedelta(days=14))
            rider.click("form[action='/book'] button[type=submit]")
            rider.wait_text("3 weekly rides are requested")
            rider.d.find_elements(By.XPATH, "//main//a[contains(., '8:30 AM')]")[0].click()
            rider.click_text("Cancel every upcoming ride of this series")
            rider.wait_text("Cancel the whole series?")
            rider.audit("series-cancel")
            rider.click("main form button.danger")
            rider.wait_text("3 upcoming rides of the series are cancelled")

        def service_and_profile():
            rider.go("/service")
            rider.wait_text("This week")
            check("The van is running now" in rider.main_text(), "open now not stated")
            check(rider.el("main a[href^='tel:']").get_attribute("href") == "tel:2035550142", "no hotline link")
            rider.audit("service")
            rider.go("/profile")
            rider.type("#phone", "203-555-0199")
            rider.type("#email", "not an address")
            rider.click("form[action='/profile'] button[type=submit]")
            rider.wait_text("There is a problem")
            check(rider.el("#phone").get_attribute("value") == "203-555-0199", "phone lost on error")
            rider.audit("profile-error")
            rider.type("#email", "jamie@example.edu")
            rider.click("form[action='/profile'] button[type=submit]")
            rider.wait_text("Your contact details are saved")
            check(rider.el("#email").get_attribute("value") == "jamie@example.edu", "e-mail not saved")
            rider.audit("profile")

        def not_found_keeps_the_signed_in_navigation():
            for path in ("/no-such-page", "/rides/00000000-0000-4000-8000-000000000000"):
                rider.go(path)
                rider.wait(lambda d: d.find_elements(By.TAG_NAME, "h1"), f"{path}: no page")
                heading = rider.el("h1").text
                check("not found" in heading, f"{path}: the heading is {heading!r}")
                nav = [a.get_attribute("href").split(server.base)[-1] for a in rider.d.find_elements(By.CSS_SELECTOR, "nav a")]
                check("/rides" in nav and "/sign-in" not in nav, f"{path}: a signed-in rider gets the navigation {nav}")
                check(rider.d.find_elements(By.CSS_SELECTOR, "footer form[action='/sign-out']"), f"{path}: no sign-out button")
            rider.audit("not-found")

        def compressed_when_asked():
            cookie = "vand_session=" + rider.d.get_cookie("vand_session")["value"]

            def get(path, encoding=None):
                request = urllib.request.Request(server.base + path, headers={"Cookie": cookie})
                if encoding:
                    request.add_header("Accept-Encoding", encoding)
                with urllib.request.urlopen(request, timeout=30) as answer:
                    return answer.headers, answer.read()

            for path, marker in (("/book", b"<h1>Book ahead</h1>"), ("/static/app.css", b":focus-visible")):
                headers, body = get(path, "gzip, deflate, br")
                check(headers["Content-Encoding"] == "gzip", f"{path}: Content-Encoding {headers['Content-Encoding']!r} when gzip is accepted")
                check("accept-encoding" in (headers["Vary"] or "").lower(), f"{path}: no Vary: Accept-Encoding")
                plain = gzip.decompress(body)
                check(marker in plain and len(body) < len(plain) // 2, f"{path}: {len(body)} bytes gzipped for {len(plain)}")
                headers, body = get(path)
                check(headers["Content-Encoding"] is None and marker in body, f"{path}: compressed though not asked")
                check("accept-encoding" in (headers["Vary"] or "").lower(), f"{path}: no Vary: Accept-Encoding on the plain answer")
            # The live stream is never compressed: each event must reach the browser as it is written.
            request = urllib.request.Request(server.base + "/notifications/stream", headers={"Cookie": cookie, "Accept-Encoding": "gzip"})
            with urllib.request.urlopen(request, timeout=30) as answer:
                check(answer.headers["Content-Type"] == "text/event-stream", f"stream type {answer.headers['Content-Type']}")
                check(answer.headers["Content-Encoding"] is None, "the event stream is compressed")
                check(answer.read(11) == b"retry: 3000", "the stream did not start at once")

        def not_whitelisted_shows_hotline():
            password = server.invite("nw456", "Nat Waiting")
            server.admin("whitelist", "remove", "nw456")
            guest = Rider(suite, browser)
            guest.d.delete_all_cookies()
            guest.sign_in("nw456", password)
            guest.wait_path(r"^password")
            guest.type("#current", password)
            guest.type("#new", PASSWORD)
            guest.type("#confirm", PASSWORD)
            guest.click("form[action='/password'] button[type=submit]")
            guest.wait_text("not cleared to book")
            check(guest.el("main .notice a[href^='tel:']").get_attribute("href") == "tel:2035550142", "no tap-to-call link")
            guest.audit("not-cleared")
            guest.d.delete_all_cookies()

        def locked_out_shows_hotline():
            browser.delete_all_cookies()
            for _ in range(5):
                rider.sign_in("ghost9", "wrong password")
                rider.wait(lambda d: "There is a problem" in rider.main_text() or "Too many" in rider.main_text(), "no answer")
            rider.wait_text("Too many failed sign-ins")
            check(rider.el("main .notice a[href^='tel:']").get_attribute("href") == "tel:2035550142", "no tap-to-call link")
            rider.audit("locked-out")

        def security_headers():
            with urllib.request.urlopen(server.base + "/sign-in") as answer:
                csp = answer.headers["Content-Security-Policy"]
                html = answer.read().decode()
            check("default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp, f"CSP {csp}")
            check(answer.headers["X-Content-Type-Options"] == "nosniff", "no nosniff")
            check(not re.search(r"<script(?![^>]*\bsrc=)", html) and " style=" not in html, "inline script or style")
            check(not re.search(r"(src|href)=\"(https?:)?//", html), "a third-party origin is referenced")

        def no_javascript_path():
            nonlocal nojs_browser
            nojs_browser = start_browser(javascript=False)
            plain = Rider(suite, nojs_browser, javascript=False)
            plain.sign_in("jd123", PASSWORD)
            plain.wait_path(r"^$|^\?")
            check(not plain.el("#live").text, "live region filled without JavaScript")
            plain.go("/ride-now")
            check(not plain.el("#use-location").is_displayed(), "'Use my location' shown without JavaScript")
            plain.go("/book")
            plain.type("#pickup", "Sterling Chemistry Lab")
            plain.type("#dropoff", "Commons")
            plain.set_date("#date", later_day)
            plain.set_time("#time", 11, 30)
            plain.click("form[action='/book'] button[type=submit]")
            plain.wait_text("Waiting for approval")
            plain.audit("nojs-ride")
            plain.click_text("Cancel this ride")
            plain.wait_text("Cancel this ride?")
            plain.click("main form button.danger")
            plain.wait_text("Your ride is cancelled.")

        def csrf_refused_in_browser():
            # A form posted without its token (as another site would) is refused and changes nothing.
            rider.sign_in("jd123", PASSWORD)
            rider.wait_path(r"^$|^\?")
            rider.go("/book")
            rider.d.execute_script("document.querySelector(\"form[action='/book'] input[name=csrf]\").value = 'forged';")
            rider.type("#pickup", "SCL")
            rider.type("#dropoff", "Davenport")
            rider.set_date("#date", later_day)
            rider.set_time("#time", 9, 0)
            rider.click("form[action='/book'] button[type=submit]")
            rider.wait_text("This form has expired")

        for name, function in [
            ("sign-in errors keep the net ID and move focus to the summary", sign_in_errors),
            ("a temporary password must be changed first", temporary_password_must_change),
            ("the session cookie is HttpOnly and SameSite=Lax", cookie_flags),
            ("sign out, then the typical ride: sign in, book SCL to Davenport, see it pending", sign_out_and_typical_ride),
            ("form errors sit by their fields, are summarised and keep the input", book_form_errors_keep_input),
            ("the date field keeps the app's focus ring on its picker button", picker_button_gets_the_focus_ring),
            ("place search as you type narrows the list from /v1/places", place_search_as_you_type),
            ("a taken time reads as the paper's sentence and one tap books a suggestion", taken_time_one_tap),
            ("a rider asks to arrive by a time and the ride page promises the arrival", arrive_by_a_time),
            ("the dispatcher's approval arrives live and counts as unread", live_notification_after_approval),
            ("a live approval changes the ride page's own status", ride_page_status_changes_live),
            ("ride now from my location states the pickup window", ride_now_with_location),
            ("her van approaching: the ride page's ETA, live as positions come, then the van is here", van_approaching_live),
            ("cancelling within the hour says it is a late cancellation", late_cancellation),
            ("cancelling ahead is not late", cancel_on_time),
            ("cancelled rides are neither the next ride nor upcoming", cancelled_rides_are_not_next),
            ("the weekdays' error marks the boxes and its link lands on the first", weekly_days_error_focuses_a_day),
            ("a weekly series is booked and cancelled as a whole", weekly_series_and_cancel_it),
            ("service hours, hotline and profile (with a form error)", service_and_profile),
            ("a page not found keeps a signed-in rider's navigation", not_found_keeps_the_signed_in_navigation),
            ("text answers are gzipped when asked (with Vary), the event stream never", compressed_when_asked),
            ("a rider not on the whitelist sees the hotline as a tap-to-call link", not_whitelisted_shows_hotline),
            ("a locked-out net ID sees the hotline", locked_out_shows_hotline),
            ("security headers: CSP without inline script or style or other origins", security_headers),
            ("with JavaScript off: sign in, book, see it pending, cancel", no_javascript_path),
            ("a form with a forged CSRF token is refused", csrf_refused_in_browser),
        ]:
            suite.run(name, function)
        # The way back, timed and will-call (Tests/browser/trips.py), on the same vand, last: its
        # "I'm ready" books a ride now on the one van.
        import trips
        for name, function in trips.flows(server, suite):
            suite.run(name, function)
    finally:
        if nojs_browser:
            nojs_browser.quit()
        browser.delete_all_cookies()
        server.stop()
    return suite


if __name__ == "__main__":
    sys.exit(main())
