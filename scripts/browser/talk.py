"""Table talk through the web client in Chromium: two players (one at
desktop size, one phone-sized, 390 px) and a signed-in spectator (phone)
talk beside the board of a Hats game created with `talk: press`. Markup
and script sent as a message arrive as text; press reaches only its seat;
the spectators' room stays out of the players' pages while they play; the
phone pages do not scroll sideways. Run by scripts/browser-check.sh.

    python talk.py BASE_URL --failures DIR
"""

import argparse
import sys
import uuid
from pathlib import Path

from selenium.webdriver.support.select import Select

from browser import DESKTOP, PHONE, Browser, CheckFailed, wait_for
from pages import create_game, join, sign_up
from tables import Table

PASSWORD = "browser-check-password"
MARKUP = "<b>bold</b><script>window.pwned = 1</script><img src=x onerror=\"window.pwned = 2\">"

# Every message the talk panel shows: [room, text].
SHOWN = """
return [...document.querySelectorAll('#talk .talk-list li[data-room]')]
  .map((li) => [li.dataset.room, li.querySelector('.talk-text')?.textContent ?? null]);
"""


def shown(browser):
    return browser.run(SHOWN)


def say(browser, room, text):
    """Types `text` in the panel, picks `room` (an option value), sends it."""
    wait_for(lambda: browser.find(f"#talk-room option[value='{room}']"), f"{browser.name}: the room {room}")
    Select(browser.wait("#talk-room", f"{browser.name}: the talk panel's rooms")).select_by_value(room)
    browser.type_into("#talk-text", text)
    browser.wait("#talk .talk-form button[type=submit]").click()
    wait_for(lambda: [room.split(":")[0], text] in shown(browser), f"{browser.name}: its own message {text!r}")


def sees(browser, room, text):
    wait_for(lambda: [room, text] in shown(browser), f"{browser.name}: {text!r} in the talk panel", timeout=30)


def check(alice, bob, carol):
    names = {b: f"{b.name}_{uuid.uuid4().hex[:4]}" for b in (alice, bob, carol)}
    for b in (alice, bob, carol):
        sign_up(b, names[b], PASSWORD)
    game = create_game(alice, Table("hats", 2, options={"talk": "press"}), "talk")
    join(bob, game, 1)
    carol.open(f"#/games/{game}")
    wait_for(lambda: carol.find("#talk"), "carol: the talk panel")

    say(alice, "table", MARKUP)
    for b in (bob, carol):
        sees(b, "table", MARKUP)
        if b.run("return document.querySelector('#talk b, #talk script, #talk img') !== null"):
            raise CheckFailed(f"{b.name}: the message became markup")
        if b.run("return window.pwned !== undefined"):
            raise CheckFailed(f"{b.name}: the message's script ran")

    say(bob, "press:0", "only for you, alice")
    sees(alice, "press", "only for you, alice")
    say(carol, "spectators", "go bob")
    say(alice, "table", "good luck")
    sees(carol, "table", "good luck")
    sees(bob, "table", "good luck")
    if any(text == "only for you, alice" for _, text in shown(carol)):
        raise CheckFailed("carol, a spectator, sees press between the players")
    for b in (alice, bob):
        if any(room == "spectators" for room, _ in shown(b)):
            raise CheckFailed(f"{b.name}, a player, sees the spectators' room during play")
    rooms = carol.run("return [...document.querySelectorAll('#talk-room option')].map((o) => o.value)")
    if rooms != ["spectators"]:
        raise CheckFailed(f"carol may speak in {rooms}, not only the spectators' room")
    for b in (bob, carol):
        b.check_fits("the game page with its talk")
    return len(shown(alice))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("--failures", type=Path, required=True)
    args = parser.parse_args()
    args.failures.mkdir(parents=True, exist_ok=True)
    browsers = [Browser("alice", args.base, DESKTOP), Browser("bob", args.base, PHONE), Browser("carol", args.base, PHONE)]
    try:
        count = check(*browsers)
        print(f"talk: two players and a spectator talked; alice's panel shows {count} messages", flush=True)
    except Exception as error:
        reports = "\n".join(b.report(args.failures, f"talk-{b.name}") for b in browsers)
        print(f"talk: FAILED: {error}\n{reports}", flush=True)
        sys.exit(1)
    finally:
        for b in browsers:
            b.close()


if __name__ == "__main__":
    main()
