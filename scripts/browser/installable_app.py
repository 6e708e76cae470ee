"""The installable app in Chromium (docs/phones.md). The page is reached
through a small TCP relay that this script can switch off, so "offline" is
a real loss of the network (connections refused, open ones cut), for the
page and its service worker alike. It checks:

- the manifest is found, has no errors, and Chromium finds nothing that
  stops installing the app (`Page.getInstallabilityErrors`: the check
  Lighthouse's installability audit made); the service worker controls the
  page and its caches hold the app shell and no answer of the API;
- offline, the page still opens (the shell from the service worker), shows
  the last known inbox and game marked stale, and a move made offline is
  refused on the page, not queued: the game's version is unchanged once the
  network is back, and the stale mark goes;
- signing out drops what was kept for offline use.
Run by scripts/browser-check.sh.

    python installable_app.py BASE_URL --failures DIR
"""

import argparse
import json
import socket
import sys
import threading
import urllib.request
import uuid
from pathlib import Path
from urllib.parse import urlparse

from browser import PHONE, Browser, CheckFailed, wait_for
from pages import create_against_bots, sign_up, state

PASSWORD = "browser-check-password"


class Relay:
    """A TCP relay from a local port to the server, which can be switched
    off: then new connections are closed at once and open ones are cut."""

    def __init__(self, target):
        self.target = target
        self.online = True
        self.lock = threading.Lock()
        self.open = set()
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.online:
                client.close()
                continue
            try:
                server = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.open.update([client, server])
            threading.Thread(target=self.pump, args=(client, server), daemon=True).start()
            threading.Thread(target=self.pump, args=(server, client), daemon=True).start()

    def pump(self, source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            self.cut(end)

    def cut(self, end):
        with self.lock:
            self.open.discard(end)
        try:
            end.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        end.close()

    def switch(self, online):
        self.online = online
        if not online:
            with self.lock:
                ends = list(self.open)
            for end in ends:
                self.cut(end)


def api_version(base, game):
    """The game's version, read from the server directly (not through the relay)."""
    with urllib.request.urlopen(f"{base}/v1/games/{game}") as answer:
        return json.load(answer)["version"]


def cdp(browser, command, params=None):
    return browser.driver.execute_cdp_cmd(command, params or {})


def check_installable(browser):
    browser.open("#/")
    manifest = cdp(browser, "Page.getAppManifest")
    if not manifest.get("url", "").endswith("/manifest.webmanifest") or manifest.get("errors"):
        raise CheckFailed(f"the manifest: {manifest.get('url')!r}, errors {manifest.get('errors')}")
    data = json.loads(manifest["data"])
    sizes = {icon["sizes"] for icon in data["icons"]}
    if data["display"] != "standalone" or not {"192x192", "512x512"} <= sizes:
        raise CheckFailed(f"the manifest says display {data['display']!r}, icons {sizes}")
    if not any(icon.get("purpose") == "maskable" for icon in data["icons"]):
        raise CheckFailed("the manifest has no maskable icon")
    wait_for(
        lambda: browser.run("return navigator.serviceWorker.controller?.scriptURL || null"),
        "the service worker to control the page",
    )
    errors = wait_for(
        lambda: (found := cdp(browser, "Page.getInstallabilityErrors")["installabilityErrors"]) == [] or found,
        "Chromium's installability check",
    )
    if errors is not True:
        raise CheckFailed(f"Chromium would not install the app: {errors}")
    cached = browser.driver.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        (async () => {
          const urls = [];
          for (const name of await caches.keys()) {
            for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
          }
          return urls;
        })().then(done, (e) => done(String(e)));
        """
    )
    for needed in ["/", "/js/main.js", "/js/pages/game.js", "/css/app.css", "/manifest.webmanifest"]:
        if needed not in cached:
            raise CheckFailed(f"the service worker's cache lacks {needed}: {sorted(cached)}")
    if any(url.startswith("/v1/") for url in cached):
        raise CheckFailed(f"the service worker cached an answer of the API: {sorted(cached)}")
    return len(cached)


def my_turn(browser):
    now = state(browser) or {}
    return now.get("status") == "active" and now.get("seat") in now.get("toAct", [])


def check(browser, relay, server):
    shell = check_installable(browser)
    sign_up(browser, f"pwa_{uuid.uuid4().hex[:6]}", PASSWORD)
    game = create_against_bots(browser, "hats", 2, "random")
    wait_for(lambda: my_turn(browser), "the player's turn")
    browser.open("#/")
    browser.wait(f"#inbox li[data-game='{game}']", "the game in the inbox")

    relay.switch(False)
    browser.driver.refresh()
    browser.open("#/")
    browser.wait("#inbox .stale", "the inbox marked stale, offline")
    browser.wait(f"#inbox li[data-game='{game}']", "the last known inbox, offline")
    browser.open(f"#/games/{game}")
    browser.wait("#game .stale", "the game marked stale, offline")
    before = state(browser)
    if not my_turn(browser):
        raise CheckFailed(f"offline, the kept game is not the player's turn: {before}")
    browser.wait(".moves-list summary").click()
    browser.wait(".moves-list li button").click()
    refused = wait_for(
        lambda: browser.run("return document.querySelector('#toasts .toast.error')?.textContent || ''"),
        "the page to say the move cannot be sent",
    )
    if "Move not sent" not in refused or "Nothing is kept" not in refused:
        raise CheckFailed(f"offline, the move's refusal says {refused!r}")

    relay.switch(True)
    wait_for(lambda: not browser.find("#game .stale"), "the stale mark to go once online")
    wait_for(lambda: state(browser) and state(browser)["version"] == api_version(server, game), "the fresh game")
    if api_version(server, game) != before["version"]:
        raise CheckFailed("the move made offline was sent later")

    browser.wait("#nav button").click()
    browser.wait_route("#/signin", "the sign-in page after signing out")
    if browser.run("return localStorage.getItem('hatstand.offline')") is not None:
        raise CheckFailed("what was kept for offline use outlives the sign-out")
    return shell


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("--failures", type=Path, required=True)
    args = parser.parse_args()
    args.failures.mkdir(parents=True, exist_ok=True)
    target = urlparse(args.base)
    relay = Relay((target.hostname, target.port))
    browser = Browser("installable app", f"http://127.0.0.1:{relay.port}", PHONE)
    try:
        shell = check(browser, relay, args.base)
        print(
            f"installable app: manifest and service worker found, installable; {shell} shell files cached;"
            " offline the inbox and game show stale and a move is refused, not queued",
            flush=True,
        )
    except Exception as error:
        print(f"installable app: FAILED: {error}\n{browser.report(args.failures, 'installable-app')}", flush=True)
        sys.exit(1)
    finally:
        browser.close()


if __name__ == "__main__":
    main()
