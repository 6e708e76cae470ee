"""Tournaments in the browser: four players sign up; the first creates a
Swiss tournament of Hats for two over the API (its registration closes a few
seconds ahead, when its one round starts: the form's schedule cannot be that
short), the other three register over the API; signed in, the first
registers, withdraws and registers again on the page; once the server's
round worker has started the round, the page shows the round playing, the
first player's own table linked to its game and the other table's game not
linked, and the standings table. Run by scripts/browser-check.sh.

    python tournaments.py BASE_URL --failures DIR
"""

import argparse
import datetime
import sys
import time
import uuid
from pathlib import Path

from browser import DESKTOP, Browser, CheckFailed, wait_for
from pages import api, player, sign_in

# Seconds from creation to the close of registration and the round's start.
LEAD = 12


def iso(moment):
    return moment.isoformat().replace("+00:00", "Z")


def field(browser):
    return browser.run("return document.querySelector('[data-field]')?.textContent") or ""


def check(browser, base, names, tokens):
    now = datetime.datetime.now(datetime.timezone.utc)
    start = now + datetime.timedelta(seconds=LEAD)
    made = api(base, "POST", "/v1/tournaments", tokens[0], {
        "name": f"Cup {names[0]}", "ruleset": "hats", "options": {}, "table_size": 2, "format": "swiss",
        "schedule": [{"starts_at": iso(start), "deadline": iso(start + datetime.timedelta(days=1))}],
        "registration_opens": iso(now), "registration_closes": iso(start), "player_cap": 8})
    tid = made["id"]
    for token in tokens[1:]:
        api(base, "POST", f"/v1/tournaments/{tid}/registration", token)

    sign_in(browser, names[0])
    browser.open("#/tournaments")
    browser.wait(f'[data-status="upcoming"] [data-tournament="{tid}"] a', "the tournament in the upcoming list").click()
    browser.wait_route(f"#/tournaments/{tid}", "the tournament's page")
    browser.wait('[data-action="register"]', "the Register button").click()
    wait_for(lambda: names[0] in field(browser) or None, "the first player in the field")
    browser.wait('[data-action="withdraw"]', "the Withdraw button").click()
    wait_for(lambda: names[0] not in field(browser) or None, "the first player out of the field")
    browser.wait('[data-action="register"]', "the Register button again").click()
    wait_for(lambda: names[0] in field(browser) or None, "the first player in the field again")

    def playing():
        rounds = api(base, "GET", f"/v1/tournaments/{tid}/rounds", tokens[0])["rounds"]
        return rounds and rounds[0]["status"] == "playing" and rounds[0]["tables"] or None
    tables = wait_for(playing, "the round worker to start the round", timeout=LEAD + 30, every=0.5)
    if len(tables) != 2:
        raise CheckFailed(f"four players at tables of two make {len(tables)} tables")
    browser.open("#/tournaments")
    browser.wait(f'[data-status="running"] [data-tournament="{tid}"] a', "the tournament in the running list").click()
    own = browser.wait('[data-round="0"] li[data-own] a[href^="#/games/"]', "the own table linked to its game")
    others = browser.driver.find_elements("css selector", '[data-round="0"] li[data-table]:not([data-own])')
    if len(others) != 1 or others[0].find_elements("css selector", "a"):
        raise CheckFailed(f"the other table is not shown unlinked: {[o.text for o in others]}")
    browser.wait("[data-standings]", "the standings")
    # At a phone's width (390 px) nothing scrolls sideways, here nor on the form.
    browser.driver.set_window_size(390, 844)
    for route in (f"#/tournaments/{tid}", "#/tournaments/new"):
        browser.open(route)
        browser.wait("h1", f"{route} at a phone's width")
        time.sleep(0.5)
        wide = browser.run("return [document.documentElement.scrollWidth, window.innerWidth]")
        if wide[0] > wide[1]:
            raise CheckFailed(f"{route} is {wide[0]} px wide in a {wide[1]} px viewport")
    browser.open(f"#/tournaments/{tid}")
    own = browser.wait('[data-round="0"] li[data-own] a[href^="#/games/"]', "the own table linked at a phone's width")
    own.click()
    browser.wait_route(r"#/games/[0-9a-f-]{36}", "the own table's game")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("--failures", type=Path, required=True)
    args = parser.parse_args()
    args.failures.mkdir(parents=True, exist_ok=True)
    names = [f"cup{i}_{uuid.uuid4().hex[:4]}" for i in range(4)]
    tokens = [player(args.base, n) for n in names]
    browser = Browser("tournaments", args.base, DESKTOP)
    try:
        check(browser, args.base, names, tokens)
        print("tournaments: registered and withdrew on the page, the running round with the own table linked, the standings",
              flush=True)
    except Exception as error:
        print(f"tournaments: FAILED: {error}\n{browser.report(args.failures, 'tournaments')}", flush=True)
        sys.exit(1)
    finally:
        browser.close()


if __name__ == "__main__":
    main()
