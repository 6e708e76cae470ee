"""Ratings in the browser: two players finish sixteen games of Hats or more over the
API (random legal moves), then a page shows one's profile with the rating
history drawn (one point a game), the game's rating changes, and the
leaderboard, where both are once their ratings have settled, each name a
link to the profile; then the first player offers a rematch on the page,
the other accepts, and the page links the new game. Run by
scripts/browser-check.sh.

    python ratings_pages.py BASE_URL --failures DIR
"""

import argparse
import random
import sys
import uuid
from pathlib import Path

from browser import DESKTOP, Browser, CheckFailed, wait_for
from pages import api, player, sign_in

# Games played at least, and at most: a Glicko-2 deviation falls below the
# provisional bound after about 16 games, sooner or later with the results.
GAMES = 16
MOST_GAMES = 48


def settled(base, name):
    """Whether `name`'s Hats-for-two rating is no longer provisional."""
    profile = api(base, "GET", f"/v1/users/{name}")
    return any(r["ruleset"] == "hats" and r["players"] == 2 and not r["provisional"]
               for r in profile["ratings"])


def play_games(base, tokens, names, rng):
    """Plays games of Hats for two to the end, at least GAMES and until the
    first player's rating settles (at most MOST_GAMES); returns the last
    id and the number played."""
    game_id = None
    for n in range(MOST_GAMES):
        if n >= GAMES and settled(base, names[0]):
            return game_id, n
        first, second = (tokens[0], tokens[1]) if n % 2 == 0 else (tokens[1], tokens[0])
        game_id = api(base, "POST", "/v1/games", first, {"ruleset": "hats", "players": 2})["id"]
        api(base, "POST", f"/v1/games/{game_id}/join", second, {})
        seat_token = {0: first, 1: second}
        while True:
            game = api(base, "GET", f"/v1/games/{game_id}")
            if game["status"] != "active":
                break
            seat = rng.choice(game["to_act"])
            mine = api(base, "GET", f"/v1/games/{game_id}", seat_token[seat])
            api(base, "POST", f"/v1/games/{game_id}/commands", seat_token[seat],
                {"expected_version": mine["version"], "command": rng.choice(mine["legal_commands"])})
        if not game["rated"]:
            raise CheckFailed(f"game {game_id} is not rated: {game}")
    return game_id, MOST_GAMES


def check(browser, base, names, last_game, games):
    browser.open(f"#/users/{names[0]}")
    pool = browser.wait('[data-pool="hats/2"]', "the Hats for two pool on the profile")
    points = wait_for(lambda: len(browser.driver.find_elements("css selector", '[data-pool="hats/2"] svg.rating-chart circle')) or None,
                      "the rating history chart")
    if points != games:
        raise CheckFailed(f"the chart has {points} points for {games} games")
    record = browser.wait("[data-record]").text
    if f"{games} games over" not in record:
        raise CheckFailed(f"the profile says {record!r}")
    if "?" in pool.find_element("css selector", "h3").text:
        raise CheckFailed(f"after {games} games the rating is still provisional: {pool.text}")

    browser.open(f"#/games/{last_game}")
    changes = browser.wait("[data-ratings]", "the game's rating changes")
    for name in names:
        if name not in changes.text:
            raise CheckFailed(f"the game's rating changes do not name {name}: {changes.text}")

    browser.open("#/leaderboard/hats?players=2")
    board = browser.wait("[data-leaderboard]", "the leaderboard")
    for name in names:
        if name not in board.text:
            raise CheckFailed(f"the leaderboard does not list {name}: {board.text}")
    browser.wait(f'[data-leaderboard] a[data-player="{names[1]}"]').click()
    browser.wait_route(f"#/users/{names[1]}", "the profile after a click on the leaderboard")
    browser.wait('[data-pool="hats/2"] svg.rating-chart', "the second player's chart")
    browser.wait("[data-recent-game]", "the second player's recent games")


def check_rematch(browser, base, names, tokens, last_game):
    """Signed in as the first player, a Rematch button on the finished game
    offers one; the other accepts (over the API); the page then links the
    new game, which says what it is a rematch of."""
    sign_in(browser, names[0])
    browser.open(f"#/games/{last_game}")
    browser.wait('[data-action="rematch"]', "the Rematch button on a finished game").click()
    browser.wait('[data-rematch="offered"]', "the offer shown after offering")
    offer = api(base, "POST", f"/v1/games/{last_game}/rematch/accept", tokens[1], {})
    if offer["state"] != "accepted":
        raise CheckFailed(f"the second acceptance did not start the rematch: {offer}")
    browser.wait('[data-action="rematch-refresh"]').click()
    browser.wait('[data-action="rematch-game"]', "the link to the rematch").click()
    browser.wait_route(f"#/games/{offer['new_game_id']}", "the rematch's page")
    browser.wait(f'[data-rematch-of="{last_game}"]', "the rematch naming the game it follows")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("--failures", type=Path, required=True)
    args = parser.parse_args()
    args.failures.mkdir(parents=True, exist_ok=True)
    rng = random.Random(1)
    names = [f"rated_{uuid.uuid4().hex[:4]}", f"rival_{uuid.uuid4().hex[:4]}"]
    tokens = [player(args.base, n) for n in names]
    last, games = play_games(args.base, tokens, names, rng)
    browser = Browser("ratings", args.base, DESKTOP)
    try:
        check(browser, args.base, names, last, games)
        check_rematch(browser, args.base, names, tokens, last)
        print(f"ratings: a profile's chart of {games} games, a game's changes, the leaderboard and a rematch",
              flush=True)
    except Exception as error:
        print(f"ratings: FAILED: {error}\n{browser.report(args.failures, 'ratings')}", flush=True)
        sys.exit(1)
    finally:
        browser.close()


if __name__ == "__main__":
    main()
