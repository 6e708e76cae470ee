"""A device subscribes to pushes from the settings page, in Chromium
(docs/push.md). Chromium makes a push subscription through Google's
registration service, which cannot be reached from here: its three
addresses are command-line switches (`--gcm-checkin-url`,
`--gcm-registration-url`, `--gcm-mcs-endpoint`), and this script answers
the first two as the service documents (a checkin answered with a device id
and security token, a registration answered `token=…`). It checks:

- the page asks Chromium for a subscription with the server's VAPID public
  key (`GET /v1/push/key`) as the application server key: the registration
  Chromium sends names it as `sender`, for the page's origin;
- the subscription Chromium made (its endpoint and keys) is the one the
  server stores for the user (`GET /v1/me/push-subscriptions`);
- turning pushes off removes it on the server and in the browser.

Delivering a push into Chromium would need Google's connection protocol
(MCS) as well; delivery is checked against a local RFC 8030 push service
by the server's own tests. Run by scripts/browser-check.sh.

    python push_subscribe.py BASE_URL --failures DIR
"""

import argparse
import http.server
import json
import struct
import sys
import threading
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

from browser import DESKTOP, Browser, CheckFailed, wait_for
from pages import sign_up

PASSWORD = "browser-check-password"
# The ids the stand-in checkin hands out (any non-zero pair will do).
ANDROID_ID = 4_815_162_342
SECURITY_TOKEN = 1_123_581_321


class Registrations(http.server.ThreadingHTTPServer):
    """Google's checkin and registration endpoints as Chromium's client
    speaks to them, on a local port; keeps every registration's form."""

    def __init__(self):
        self.forms = []
        self.checkins = 0
        super().__init__(("127.0.0.1", 0), RegistrationHandler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}"


class RegistrationHandler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.path == "/checkin":
            # AndroidCheckinResponse: stats_ok (1) = true, android_id (7) and
            # security_token (8) as fixed64.
            self.server.checkins += 1
            self.answer(b"\x08\x01\x39" + struct.pack("<Q", ANDROID_ID) + b"\x41" + struct.pack("<Q", SECURITY_TOKEN))
        elif self.path == "/register":
            form = dict(urllib.parse.parse_qsl(body.decode()))
            form["authorization"] = self.headers.get("Authorization", "")
            self.server.forms.append(form)
            self.answer(f"token=hatstand-check-{uuid.uuid4().hex}".encode())
        else:
            self.send_response(404)
            self.end_headers()

    def answer(self, body):
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


API = """
const [path, method] = arguments;
const done = arguments[arguments.length - 1];
import('/js/api.js').then((api) => (method === 'GET' ? api.get(path) : api.call(method, path)))
  .then((answer) => done(JSON.stringify(answer ?? null)), (error) => done(`ERROR ${error.message}`));
"""

SUBSCRIPTION = """
const done = arguments[arguments.length - 1];
navigator.serviceWorker.ready.then((r) => r.pushManager.getSubscription())
  .then((s) => done(s ? JSON.stringify(s.toJSON()) : null), (error) => done(`ERROR ${error.message}`));
"""


def api(browser, path, method="GET"):
    answer = browser.driver.execute_async_script(API, path, method)
    if answer.startswith("ERROR"):
        raise CheckFailed(f"{method} {path}: {answer}")
    return json.loads(answer)


def check(browser, registrations):
    sign_up(browser, f"pusher_{uuid.uuid4().hex[:6]}", PASSWORD)
    browser.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": browser.base, "permissions": ["notifications"]})
    browser.open("#/settings")
    panel = "#push-settings"
    wait_for(lambda: browser.run(f"return document.querySelector('{panel}')?.dataset.pushState") == "off",
             "the push panel, off")
    browser.wait("#push-on").click()
    wait_for(lambda: browser.run(f"return document.querySelector('{panel}')?.dataset.pushState") == "on",
             "the push panel to turn on", timeout=40)

    key = json.load(urllib.request.urlopen(f"{browser.base}/v1/push/key"))["public_key"]
    asked = [f for f in registrations.forms if f.get("sender") == key]
    if not asked:
        raise CheckFailed(f"no registration named the server's key {key}: {registrations.forms}")
    if browser.base not in urllib.parse.unquote(asked[0].get("X-subtype", "")):
        raise CheckFailed(f"the registration is not for the page's origin: {asked[0]}")
    if asked[0]["authorization"] != f"AidLogin {ANDROID_ID}:{SECURITY_TOKEN}":
        raise CheckFailed(f"the registration does not carry the checkin's ids: {asked[0]['authorization']!r}")

    made = json.loads(browser.driver.execute_async_script(SUBSCRIPTION))
    items = api(browser, "/v1/me/push-subscriptions")
    if len(items) != 1 or items[0]["endpoint"] != made["endpoint"]:
        raise CheckFailed(f"the server stores {items}, the browser made {made}")

    browser.wait("#push-off").click()
    wait_for(lambda: browser.run(f"return document.querySelector('{panel}')?.dataset.pushState") == "off",
             "the push panel to turn off")
    wait_for(lambda: not api(browser, "/v1/me/push-subscriptions"), "the server to forget the subscription")
    if browser.driver.execute_async_script(SUBSCRIPTION) is not None:
        raise CheckFailed("the browser still holds the subscription")
    return made["endpoint"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("--failures", type=Path, required=True)
    args = parser.parse_args()
    args.failures.mkdir(parents=True, exist_ok=True)
    registrations = Registrations()
    browser = Browser("push subscriber", args.base, DESKTOP, flags=[
        f"--gcm-checkin-url={registrations.url}/checkin",
        f"--gcm-registration-url={registrations.url}/register",
        # Nothing listens there: receiving is not checked (see above).
        f"--gcm-mcs-endpoint=https://127.0.0.1:{registrations.server_address[1]}",
    ])
    try:
        endpoint = check(browser, registrations)
        print(f"push: the settings page subscribed Chromium with the server's key ({endpoint.split('/send/')[0]}/…), "
              "the server stored it, and turning off removed it")
    except Exception as error:
        print(f"push: FAILED: {error}\n{browser.report(args.failures, 'push')}", flush=True)
        sys.exit(1)
    finally:
        browser.close()
        registrations.shutdown()


if __name__ == "__main__":
    main()
