"""One browser session: Debian's Chromium, headless, driven through its
chromedriver with a profile of its own (so each session has its own
signed-in user), at a fixed viewport size. Nothing is downloaded: the
driver and the browser are the system's.
"""

import os
import re
import shutil
import tempfile
import time

os.environ.setdefault("SE_OFFLINE", "true")

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Viewports (CSS pixels): a desktop window and a phone held upright.
DESKTOP = (1280, 900)
PHONE = (390, 844)
# How long a page may take to show what a step waits for, in seconds.
PATIENCE = 20

# Records every message the page puts in #flash, even one cleared a moment
# later, in `window.flashes` (kept until the document is loaded anew).
WATCH_FLASH = """
if (!window.flashes) {
  window.flashes = [];
  const strip = document.getElementById('flash');
  const note = () => { const text = strip.textContent.trim(); if (text) window.flashes.push(text); };
  new MutationObserver(note).observe(strip, { childList: true, characterData: true, subtree: true });
  note();
}
"""


class CheckFailed(Exception):
    """A check that did not hold; the message says what was expected."""


def wait_for(probe, what, timeout=PATIENCE, every=0.05):
    """Calls `probe` until it returns something true, and returns that;
    fails naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise CheckFailed(f"waited {timeout} s for {what}")
        time.sleep(every)


class Browser:
    """A browser window on the web client at `base`, named `name` in
    reports, with a viewport of `size` (width, height); `flags` are more
    command-line switches for Chromium."""

    def __init__(self, name, base, size, flags=()):
        self.name = name
        self.base = base
        self.size = size
        self.console = []
        self.profile = tempfile.mkdtemp(prefix="hatstand-browser-")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in [*FLAGS, *flags, f"--user-data-dir={self.profile}"]:
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        try:
            self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        except BaseException:
            shutil.rmtree(self.profile, ignore_errors=True)
            raise
        # The viewport is set by device emulation: a headless window cannot
        # be made narrower than 500 px, and its size counts the frame.
        width, height = size
        self.driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": size == PHONE},
        )

    @property
    def phone(self):
        return self.size == PHONE

    def open(self, route):
        """Loads the app anew at `route` (`#/…`), as a typed or shared link."""
        self.driver.get(f"{self.base}/{route}")
        wait_for(lambda: self.run("return document.getElementById('flash') !== null"), f"{route} to load")
        self.run(WATCH_FLASH)

    def route(self):
        return self.run("return location.hash")

    def run(self, script, *args):
        return self.driver.execute_script(script, *args)

    def find(self, css):
        """The first element matching `css`, or None."""
        found = self.driver.find_elements(By.CSS_SELECTOR, css)
        return found[0] if found else None

    def wait(self, css, what=None, timeout=PATIENCE):
        """The first element matching `css`, once there is one."""
        return wait_for(lambda: self.find(css), what or f"{css} on {self.route()}", timeout)

    def wait_route(self, pattern, what):
        """The route once it matches the regular expression `pattern`."""
        return wait_for(lambda: re.fullmatch(pattern, self.route() or ""), what).group(0)

    def type_into(self, css, text):
        field = self.wait(css)
        field.clear()
        field.send_keys(text)

    def activate(self, element, by_keyboard):
        """Clicks `element`, or gives it the focus and presses Enter."""
        if not by_keyboard:
            element.click()
            return
        if not self.run("arguments[0].focus(); return document.activeElement === arguments[0]", element):
            raise CheckFailed(f"{self.name}: a control cannot take the keyboard focus: {describe(element)}")
        ActionChains(self.driver).send_keys(Keys.ENTER).perform()

    def flash(self):
        """The message shown in #flash now."""
        return self.run("return document.getElementById('flash').textContent.trim()")

    def flashes(self):
        """Every message #flash showed since the page was loaded."""
        return self.run("return window.flashes || []")

    def check_fits(self, where):
        """Fails when the page is wider than the viewport (scrolls sideways)."""
        width = self.run("return document.documentElement.scrollWidth")
        if width > self.size[0]:
            raise CheckFailed(
                f"{self.name}: {where} is {width} px wide in a {self.size[0]} px viewport (scrolls sideways)"
            )

    def screenshot(self, path):
        """Saves the viewport as a PNG: the page's top on a desktop, the
        game's top on a phone (below the navigation bar)."""
        self.run(
            "arguments[0] ? document.getElementById('game')?.scrollIntoView({block: 'start'}) : scrollTo(0, 0)",
            self.phone,
        )
        self.driver.save_screenshot(str(path))

    def report(self, directory, label):
        """What a failure report shows of this session: a screenshot (saved
        in `directory`), the route, #flash and the browser's console."""
        lines = [f"--- {self.name}"]
        try:
            path = directory / f"{label}-{self.name.replace(' ', '-')}.png"
            self.driver.save_screenshot(str(path))
            lines.append(f"screenshot: {path}")
            lines.append(f"route: {self.route()}")
            lines.append(f"#flash now: {self.flash()!r}; since loaded: {self.flashes()!r}")
            self.console += self.driver.get_log("browser")
        except WebDriverException as error:
            lines.append(f"(the browser does not answer: {error.msg})")
        lines.append("console:" if self.console else "console: (empty)")
        lines += [f"  {entry['level']} {entry['message']}" for entry in self.console]
        return "\n".join(lines)

    def close(self):
        try:
            self.driver.quit()
        except WebDriverException:
            pass  # a browser that died has nothing left to close
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)


def describe(element):
    """A short description of a control for messages."""
    try:
        return element.get_attribute("outerHTML")[:200]
    except WebDriverException:
        return "(gone)"
