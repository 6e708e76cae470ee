"""Ratings in the browser: two players finish sixteen games of Hats over the
API (random legal moves), then a page shows one's profile with the rating
history drawn (one point a game), the game's rating changes, and the
leaderboard, where both are once their ratings have settled, each name a
link to the profile. Run by scripts/browser-check.sh.

    python ratings_pages.py BASE_URL --failures DIR
"""

import argparse
import json
import random
import sys
import urllib.request
import uuid
from pathlib import Path

from browser import DESKTOP, Browser, CheckFailed, wait_for

GAMES = 16
PASSWORD = "browser-check-password"


def api(base, method, path, token=None, body=None):
    request = urllib.request.Request(f"{base}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request) as answer:
        text = answer.read()
        return json.loads(text) if text else None


def player(base, name):
    api(base, "POST", "/v1/auth/register", body={"username": name, "password": PASSWORD})
    return api(base, "POST", "/v1/auth/login", body={"username": name, "password": PASSWORD})["access_token"]


def play_games(base, tokens, rng):
    """Plays GAMES games of Hats for two to the end; returns the last id."""
    game_id = None
    for n in range(GAMES):
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
    return game_id


def check(browser, base, names, last_game):
    browser.open(f"#/users/{names[0]}")
    pool = browser.wait('[data-pool="hats/2"]', "the Hats for two pool on the profile")
    points = wait_for(lambda: len(browser.driver.find_elements("css selector", '[data-pool="hats/2"] svg.rating-chart circle')) or None,
                      "the rating history chart")
    if points != GAMES:
        raise CheckFailed(f"the chart has {points} points for {GAMES} games")
    record = browser.wait("[data-record]").text
    if f"{GAMES} games over" not in record:
        raise CheckFailed(f"the profile says {record!r}")
    if "?" in pool.find_element("css selector", "h3").text:
        raise CheckFailed(f"after {GAMES} games the rating is still provisional: {pool.text}")

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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("--failures", type=Path, required=True)
    args = parser.parse_args()
    args.failures.mkdir(parents=True, exist_ok=True)
    rng = random.Random(1)
    names = [f"rated_{uuid.uuid4().hex[:4]}", f"rival_{uuid.uuid4().hex[:4]}"]
    tokens = [player(args.base, n) for n in names]
    last = play_games(args.base, tokens, rng)
    browser = Browser("ratings", args.base, DESKTOP)
    try:
        check(browser, args.base, names, last)
        print(f"ratings: a profile's chart of {GAMES} games, a game's changes and the leaderboard", flush=True)
    except Exception as error:
        print(f"ratings: FAILED: {error}\n{browser.report(args.failures, 'ratings')}", flush=True)
        sys.exit(1)
    finally:
        browser.close()


if __name__ == "__main__":
    main()
