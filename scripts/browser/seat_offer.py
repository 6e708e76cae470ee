"""A vacant seat offered from the game page, in Chromium: three players sit
at a Goathead table over the API and one of them resigns (the game goes on,
the server playing the seat); another signs in, finds the seat to offer on
the game page, names a fourth player and offers it; the page says it was
offered, and the fourth player is invited to the game (their notifications,
over the API) and takes the seat there. Run by scripts/browser-check.sh.

    python seat_offer.py BASE_URL --failures DIR
"""

import argparse
import sys
import uuid
from pathlib import Path

from browser import DESKTOP, Browser, CheckFailed, wait_for
from pages import api, player, sign_in


def check(browser, base, names, tokens):
    game = api(base, "POST", "/v1/games", tokens[0],
               {"ruleset": "goathead", "players": 3, "options": {"rounds": 2, "substitutes": True}})
    gid = game["id"]
    for token in tokens[1:3]:
        api(base, "POST", f"/v1/games/{gid}/join", token)
    api(base, "POST", f"/v1/games/{gid}/resign", tokens[1])

    sign_in(browser, names[0])
    browser.open(f"#/games/{gid}")
    seat = browser.wait('#seats-to-offer li[data-seat] input[data-offer-name]', "the seat to offer")
    if seat.get_attribute("data-offer-name") != "1":
        raise CheckFailed(f"the seat offered is {seat.get_attribute('data-offer-name')}, not the one left")
    seat.send_keys(names[3])
    browser.wait('#seats-to-offer [data-action="offer"]', "the Offer button").click()
    browser.wait(f'#seats-to-offer [data-offered="{names[3]}"]', "the page to say the seat was offered")

    notes = api(base, "GET", "/v1/me/notifications", tokens[3])["notifications"]
    if not any(n.get("type") == "invited" and n.get("game_id") == gid for n in notes):
        raise CheckFailed(f"{names[3]} was not invited: {notes}")
    taken = api(base, "POST", f"/v1/games/{gid}/seats/1/take", tokens[3], {})
    if taken.get("my_seat") != 1:
        raise CheckFailed(f"the offered seat was not taken: my_seat {taken.get('my_seat')}")
    browser.open(f"#/games/{gid}")
    browser.wait("section#game[data-version]", "the game page again")
    wait_for(lambda: not browser.find("#seats-to-offer"), "the seat no longer offered once taken")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("--failures", type=Path, required=True)
    args = parser.parse_args()
    args.failures.mkdir(parents=True, exist_ok=True)
    names = [f"seat{i}_{uuid.uuid4().hex[:4]}" for i in range(4)]
    tokens = [player(args.base, n) for n in names]
    browser = Browser("seat offer", args.base, DESKTOP)
    try:
        check(browser, args.base, names, tokens)
        print("seat offer: a vacant seat offered on the game page, its taker invited and seated", flush=True)
    except Exception as error:
        print(f"seat offer: FAILED: {error}\n{browser.report(args.failures, 'seat-offer')}", flush=True)
        sys.exit(1)
    finally:
        browser.close()


if __name__ == "__main__":
    main()
