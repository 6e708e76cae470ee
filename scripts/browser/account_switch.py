"""One browser shared by two people, as a family phone is: alice plays
Goathead against two bots, signs out; the game's link, opened signed out
(by following it in the page, then after a full reload) and then after bob
signs in on the same browser, must show none of alice's cards, no "you" and
no move to make: every answer the page shows is the current viewer's own.
Run by scripts/browser-check.sh.

    python account_switch.py BASE_URL --failures DIR
"""

import argparse
import sys
import uuid
from pathlib import Path

from browser import DESKTOP, Browser, CheckFailed, wait_for
from pages import create_against_bots, sign_up, state

PASSWORD = "browser-check-password"


def hand(browser):
    """The names of the cards in the viewer's own hand, as drawn."""
    return browser.run(
        "return [...document.querySelectorAll('.cb-own-hand svg.cb-card')]"
        ".map((el) => el.getAttribute('aria-label'))"
    )


def shown_cards(browser):
    """Every card name drawn anywhere on the page."""
    return set(
        browser.run("return [...document.querySelectorAll('svg.cb-card')].map((el) => el.getAttribute('aria-label'))")
    )


def start_game(browser):
    """A Goathead game of the signed-in player against two greedy bots;
    returns its id once the page shows a hand."""
    game = create_against_bots(browser, "goathead", 3, "greedy", {"opt-rounds": "1"})
    wait_for(lambda: len(hand(browser)) > 0, "the player's hand on the page")
    return game


def check_not_alices(browser, who, cards):
    """The game page, drawn for `who`, shows nothing only alice may see."""
    now = wait_for(lambda: state(browser), f"{who}: the game page")
    if now["seat"] is not None:
        raise CheckFailed(f"{who}: the page seats the viewer at {now['seat']}")
    if hand(browser):
        raise CheckFailed(f"{who}: the page shows a hand as the viewer's own: {hand(browser)}")
    leaked = shown_cards(browser) & set(cards)
    if leaked:
        raise CheckFailed(f"{who}: the page shows alice's {sorted(leaked)}")
    text = browser.run("return document.getElementById('main').innerText")
    for words in ["(you)", "Your turn"]:
        if words in text:
            raise CheckFailed(f"{who}: the page says {words!r}")
    if browser.find("#board [data-cmd], #board [data-select]"):
        raise CheckFailed(f"{who}: the page offers a move")


def check(browser):
    alice = f"alice_{uuid.uuid4().hex[:4]}"
    bob = f"bob_{uuid.uuid4().hex[:4]}"
    sign_up(browser, alice, PASSWORD)
    game = start_game(browser)
    cards = hand(browser)
    # Drawn once more from a fresh answer, so the browser has seen the
    # game's resource more than once under alice's token.
    browser.open(f"#/games/{game}")
    wait_for(lambda: hand(browser) == cards, "alice's hand after a reload")

    # Signed out: the page follows the link, then loads it anew.
    browser.wait("#nav button").click()
    browser.wait_route("#/signin", "the sign-in page after signing out")
    browser.run("location.hash = arguments[0]", f"#/games/{game}")
    check_not_alices(browser, "signed out, following the link", cards)
    browser.driver.refresh()
    browser.open(f"#/games/{game}")
    check_not_alices(browser, "signed out, after a full reload", cards)

    # bob on the same browser.
    sign_up(browser, bob, PASSWORD)
    browser.run("location.hash = arguments[0]", f"#/games/{game}")
    check_not_alices(browser, "bob, following the link", cards)
    browser.driver.refresh()
    browser.open(f"#/games/{game}")
    check_not_alices(browser, "bob, after a full reload", cards)
    return len(cards)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("--failures", type=Path, required=True)
    args = parser.parse_args()
    args.failures.mkdir(parents=True, exist_ok=True)
    browser = Browser("account switch", args.base, DESKTOP)
    try:
        held = check(browser)
        print(f"account switch: none of alice's {held} cards shown signed out or to bob", flush=True)
    except Exception as error:
        print(f"account switch: FAILED: {error}\n{browser.report(args.failures, 'account-switch')}", flush=True)
        sys.exit(1)
    finally:
        browser.close()


if __name__ == "__main__":
    main()
