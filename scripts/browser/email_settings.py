"""Email settings through the web client in Chromium, against a real SMTP
listener: a player (phone-sized) adds an address on `#/settings`, reads the
code from the mail the server sent, gives a wrong code and then the right
one, chooses when which mail comes, sees a bad time zone and a second
code within the minute refused with nothing changed, and removes the
address. Run by scripts/browser-check.sh,
with the server's `HATSTAND_SMTP_URL` pointing at `--smtp-port`.

    python email_settings.py BASE_URL --smtp-port PORT --failures DIR
"""

import argparse
import email
import email.policy
import queue
import sys
import uuid
from pathlib import Path

from aiosmtpd.controller import Controller
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.support.select import Select

from browser import PHONE, Browser, CheckFailed, wait_for
from pages import sign_up

PASSWORD = "browser-check-password"


class Catcher:
    """Takes every mail offered, as an SMTP server (aiosmtpd) does."""

    def __init__(self):
        self.mails = queue.Queue()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.mails.put((list(envelope.rcpt_tos), message))
        return "250 OK"

    def next_to(self, address, timeout=30):
        """The next mail to `address` (others are dropped)."""
        while True:
            try:
                to, message = self.mails.get(timeout=timeout)
            except queue.Empty:
                raise CheckFailed(f"no mail to {address} within {timeout} s") from None
            if address in to:
                return message


def alert(browser):
    """The page's open dialog (`window.confirm`), or None."""
    try:
        return browser.driver.switch_to.alert
    except NoAlertPresentException:
        return None


def reload(browser):
    """Loads the page anew (what it shows then comes from the server)."""
    browser.driver.refresh()
    browser.open("#/settings")


def email_state(browser):
    return browser.run("return document.getElementById('email-settings')?.dataset.emailState ?? null")


def wait_state(browser, expected, what):
    wait_for(lambda: email_state(browser) == expected, f"{what} (#email-settings data-email-state={expected})")


def check(browser, catcher):
    name = f"eve_{uuid.uuid4().hex[:4]}"
    address = f"{name}@mail.test"
    sign_up(browser, name, PASSWORD)
    browser.wait("#nav a[href='#/settings']", "the Email link in the navigation bar").click()
    wait_state(browser, "none", "the settings page of a user without an address")

    # An address: a code is mailed to it, and the page asks for it.
    browser.type_into("#email-address", address)
    browser.wait("#email-address-form button[type=submit]").click()
    wait_state(browser, "unconfirmed", "the code form after adding the address")
    pending = browser.wait("#email-pending").text
    if pending != address:
        raise CheckFailed(f"the code form names {pending!r}, not {address!r}")
    mail = catcher.next_to(address)
    code = str(mail["subject"]).rsplit(" ", 1)[-1]
    if not (len(code) == 8 and code.isdigit()):
        raise CheckFailed(f"no 8-digit code at the end of the subject {mail['subject']!r}")
    browser.check_fits("the code form")

    # A wrong code is refused in words; the right one confirms.
    wrong = "00000000" if code != "00000000" else "11111111"
    browser.type_into("#email-code", wrong)
    browser.wait("#email-code-form button[type=submit]").click()
    wait_for(lambda: "not the code" in browser.flash(), "the wrong code to be refused in #flash")
    if email_state(browser) != "unconfirmed":
        raise CheckFailed("a wrong code changed the page's state")
    browser.type_into("#email-code", code)
    browser.wait("#email-code-form button[type=submit]").click()
    wait_state(browser, "confirmed", "the preferences after the right code")

    # Preferences: saved, and read back from the server on a new load.
    Select(browser.wait("#mail-your_turn")).select_by_value("digest")
    Select(browser.wait("#mail-reminder")).select_by_value("never")
    Select(browser.wait("#digest-hour")).select_by_value("7")
    browser.type_into("#time-zone", "Europe/Paris")
    browser.wait("#email-preferences button[type=submit]").click()
    wait_for(lambda: browser.flash() == "Saved.", "the preferences to be saved")
    browser.check_fits("the preferences")

    def shown():
        return {
            css: browser.run(f"return document.querySelector('{css}').value")
            for css in ["#mail-your_turn", "#mail-reminder", "#mail-invited", "#digest-hour", "#time-zone"]
        }

    expected = {
        "#mail-your_turn": "digest",
        "#mail-reminder": "never",
        "#mail-invited": "immediately",
        "#digest-hour": "7",
        "#time-zone": "Europe/Paris",
    }
    reload(browser)
    wait_state(browser, "confirmed", "the preferences on a new load")
    if shown() != expected:
        raise CheckFailed(f"the preferences read back as {shown()}, saved as {expected}")

    # A time zone that does not exist is refused and changes nothing.
    browser.type_into("#time-zone", "Mars/Olympus")
    browser.wait("#email-preferences button[type=submit]").click()
    wait_for(lambda: "bad_request" in browser.flash(), "the unknown time zone to be refused in #flash")
    reload(browser)
    wait_state(browser, "confirmed", "the preferences after the refusal")
    if shown() != expected:
        raise CheckFailed(f"a refused change altered the preferences: {shown()}")

    # Another address within the minute of the last code is refused (one
    # code a minute) and the confirmed one stays.
    browser.wait("#email-change > summary").click()
    browser.type_into("#email-address", f"other-{address}")
    browser.wait("#email-address-form button[type=submit]").click()
    wait_for(lambda: "rate_limited" in browser.flash(), "a second code within the minute to be refused in #flash")
    reload(browser)
    wait_state(browser, "confirmed", "the confirmed address after the refused change")
    if browser.wait("#email-confirmed").text != address:
        raise CheckFailed("a refused change of address altered the address")

    # Removing the address (after the page asks) stops all mail.
    browser.wait("#email-remove").click()
    wait_for(lambda: alert(browser), "the page to ask before removing").accept()
    wait_state(browser, "none", "the address form after removing the address")
    reload(browser)
    wait_state(browser, "none", "no address on a new load")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("--smtp-port", type=int, required=True)
    parser.add_argument("--failures", type=Path, required=True)
    args = parser.parse_args()
    args.failures.mkdir(parents=True, exist_ok=True)
    catcher = Catcher()
    controller = Controller(catcher, hostname="127.0.0.1", port=args.smtp_port)
    controller.start()
    browser = Browser("email", args.base, PHONE)
    try:
        check(browser, catcher)
        print("email settings: added, confirmed, chosen, refused, removed", flush=True)
    except Exception as error:
        print(f"email settings: FAILED: {error}\n{browser.report(args.failures, 'email')}", flush=True)
        sys.exit(1)
    finally:
        browser.close()
        controller.stop()


if __name__ == "__main__":
    main()
