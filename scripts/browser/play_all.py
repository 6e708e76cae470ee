"""Plays one game of each ruleset through the web client in real browsers
(Chromium), one browser session per seat and one signed-out spectator, and
checks each game's audit on the audit page. Run by scripts/browser-check.sh.

    python play_all.py BASE_URL --screenshots DIR --failures DIR [--seed N] [RULESET …]

For each ruleset: every player signs up on the page in a session of their
own (the second player's is phone-sized); the first creates the game on
`#/new`, the spectator opens its page, the others join it; they play it to
the end by clicking and by keyboard; the spectator must have seen it end
live, without reloading. Then the audit is verified from the result's link,
and the audit file is checked on `#/audit`, untouched and forged.
Screenshots of each game in mid-play (desktop and phone) go to
`--screenshots`; a failure leaves a screenshot of every session, its #flash
and its console in `--failures`.
"""

import argparse
import json
import random
import sys
import tempfile
import time
import traceback
import uuid
from pathlib import Path

import audit
from browser import DESKTOP, PHONE, Browser, CheckFailed, wait_for
from pages import create_game, join, sign_up, state
from play import Play
from tables import TABLES

PASSWORD = "browser-check-password"
# The players' names, a seat each (a suffix makes them unique).
NAMES = ["ada", "ben", "cleo"]
# The marker the spectator's page keeps while it is not loaded anew.
MARK = "window.stillHere"


def play_table(table, base, seed, shots, failures):
    """Plays `table`'s game and checks its audit; returns its Play. A
    failure's message ends with every session's report."""
    # Each game's choices depend on the seed alone, so one ruleset can be
    # run again by itself to the same moves.
    rng = random.Random(f"{seed}-{table.ruleset}")
    sessions = []
    try:
        players = []
        for seat in range(table.players):
            size = PHONE if seat == 1 else DESKTOP
            players.append(Browser(f"seat {seat + 1}", base, size))
            sessions.append(players[-1])
        spectator = Browser("spectator", base, DESKTOP)
        sessions.append(spectator)

        for seat, player in enumerate(players):
            sign_up(player, f"{NAMES[seat]}_{uuid.uuid4().hex[:4]}", PASSWORD)
        players[1].check_fits("the start page")
        game_id = create_game(players[0], table, seed)
        spectator.open(f"#/games/{game_id}")
        wait_for(lambda: (state(spectator) or {}).get("status") == "open", "the spectator to see the open game")
        spectator.run(f"{MARK} = true")
        for seat, player in enumerate(players[1:], start=1):
            join(player, game_id, seat)

        game = Play(table, players, rng, shots)
        final = game.run()
        for player in players:
            player.wait("[data-result]", f"{player.name}: the result")
        players[1].check_fits("the finished game page")
        wait_for(
            lambda: (s := state(spectator)) and s["version"] == final and s["status"] == "finished" and s["result"],
            f"the spectator's page to show the finished game at version {final}",
        )
        if not spectator.run(f"return {MARK} === true"):
            raise CheckFailed("the spectator's page was loaded anew during the game")
        for session in sessions:
            if session.flashes():
                raise CheckFailed(f"{session.name}: #flash showed {session.flashes()}")

        for player in players[:2]:
            audit.verify_from_result(player, game_id)
        players[1].check_fits("the audit page")
        record = audit.download(base, game_id)
        forged, change = audit.forge(record)
        with tempfile.TemporaryDirectory(prefix="hatstand-audit-") as folder:
            genuine_file = Path(folder) / f"{table.ruleset}-audit.json"
            forged_file = Path(folder) / f"{table.ruleset}-audit-forged.json"
            genuine_file.write_text(json.dumps(record))
            forged_file.write_text(json.dumps(forged))
            audit.check_file(spectator, forged_file, "broken", f"the audit with {change}")
            audit.check_file(spectator, genuine_file, "ok", "the audit as served")
        return game
    except Exception as error:
        what = str(error) if isinstance(error, CheckFailed) else traceback.format_exc()
        reports = "\n".join(session.report(failures, table.ruleset) for session in sessions)
        raise CheckFailed(f"{what}\n{reports}") from error
    finally:
        for session in sessions:
            session.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("rulesets", nargs="*", help="only these rulesets (default: all)")
    parser.add_argument("--screenshots", type=Path, required=True)
    parser.add_argument("--failures", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=1, help="seeds the choices and the games' deals")
    args = parser.parse_args()
    args.screenshots.mkdir(parents=True, exist_ok=True)
    args.failures.mkdir(parents=True, exist_ok=True)
    passed = failed = 0
    for table in TABLES:
        if args.rulesets and table.ruleset not in args.rulesets:
            continue
        started = time.monotonic()
        try:
            game = play_table(table, args.base, args.seed, args.screenshots, args.failures)
        except CheckFailed as error:
            failed += 1
            print(f"{table.ruleset}: FAILED after {time.monotonic() - started:.1f} s: {error}", flush=True)
            continue
        passed += 1
        print(
            f"{table.ruleset}: {table.players} players, {game.moves} moves "
            f"({game.by_keyboard} by keyboard, {game.two_part} in two parts), "
            f"{time.monotonic() - started:.1f} s",
            flush=True,
        )
    print(f"browser: {passed} passed, {failed} failed")
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()
