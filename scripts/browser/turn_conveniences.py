"""Takebacks and conditional moves through the web client in Chromium
(docs/turn-conveniences.md), two players of a casual Top Hats game created
with `takebacks: true` from a small position:

1. alice moves, asks to take the move back; bob's page shows the offer
   with Accept and Decline, alice's shows it pending; bob accepts, and
   both boards are back as they were before the move.
2. alice moves again; while bob is to play, she writes a line on the
   copy of the board (bob's expected move, her reply), stores it and sees
   it listed; her real board and the game's version did not move, and
   bob's page shows no line. bob plays the move the line expects, and
   alice's reply is played at once: the game waits for bob again and
   alice's list is empty.

Run by scripts/browser-check.sh.

    python turn_conveniences.py BASE_URL --failures DIR
"""

import argparse
import json
import sys
import uuid
from pathlib import Path

from browser import DESKTOP, Browser, CheckFailed, wait_for
from pages import create_game, join, sign_up, state
from tables import TOP_HATS_POSITION, Table

PASSWORD = "browser-check-password"

# The controls of a board in `arguments[0]` a person could use now:
# visible, enabled, not the first part already picked.
CONTROLS = """
return [...document.querySelectorAll(`${arguments[0]} [data-cmd], ${arguments[0]} [data-select]`)]
  .filter((el) => el.getClientRects().length > 0 && !el.disabled && el.getAttribute('aria-pressed') !== 'true')
  .map((el) => [el, el.dataset.cmd ?? null, el.dataset.select ?? null]);
"""

# What the board shows: every stack's description, in order.
BOARD = """
return [...document.querySelectorAll(`${arguments[0]} .th-stacks title`)].map((t) => t.textContent);
"""


def board(browser, where="#board"):
    return sorted(browser.run(BOARD, where))


def move_on(browser, where):
    """Plays a move (or a jump) on the board in `where`: picks a stack if
    no target is offered yet, then the first target. Returns the command."""
    def targets():
        found = [
            (el, json.loads(cmd))
            for el, cmd, _ in browser.run(CONTROLS, where)
            if cmd is not None and json.loads(cmd)["type"] in ("move", "jump")
        ]
        # A plain move first: a jump may leave a chain to go on with.
        return sorted(found, key=lambda target: target[1]["type"] != "move")

    if not targets():
        picks = [el for el, _, key in browser.run(CONTROLS, where) if key is not None]
        if not picks:
            raise CheckFailed(f"{browser.name}: {where} offers nothing to pick")
        picks[0].click()
    element, command = wait_for(lambda: (found := targets()) and found[0], f"{browser.name}: a target in {where}")
    element.click()
    return command


def at_version(browser, version, what):
    return wait_for(
        lambda: (now := state(browser)) and now["version"] == version and not now["sending"] and now,
        f"{browser.name}: {what} (version {version})",
    )


def newer(browser, version, what):
    return wait_for(
        lambda: (now := state(browser)) and now["version"] > version and not now["sending"] and now,
        f"{browser.name}: {what} (after version {version})",
    )


def check(alice, bob):
    for b in (alice, bob):
        sign_up(b, f"{b.name}_{uuid.uuid4().hex[:4]}", PASSWORD)
    table = Table("top-hats", 2, options={"position": TOP_HATS_POSITION, "takebacks": True, "rated": False})
    game = create_game(alice, table, "turns")
    join(bob, game, 1)
    start = at_version(alice, state(bob)["version"], "the started game")
    if start["toAct"] != [0]:
        raise CheckFailed(f"alice should move first, the page says {start['toAct']}")
    at_version(bob, start["version"], "the started game")
    before = {b: board(b) for b in (alice, bob)}

    # 1. A takeback asked by alice and accepted by bob.
    move_on(alice, "#board")
    moved = newer(alice, start["version"], "her move")
    alice.wait("[data-action=takeback-offer]", "alice: the takeback button").click()
    alice.wait("#takeback[data-takeback=pending]", "alice: her offer shown pending")
    offered = newer(alice, moved["version"], "her offer")["version"]
    if alice.find("[data-action=takeback-accept]"):
        raise CheckFailed("alice may accept her own offer")
    at_version(bob, offered, "alice's offer")
    bob.wait("[data-action=takeback-accept]", "bob: Accept on alice's offer")
    bob.wait("[data-action=takeback-decline]", "bob: Decline on alice's offer")
    bob.find("[data-action=takeback-accept]").click()
    back = wait_for(
        lambda: (now := state(bob)) and now["version"] > offered and now["toAct"] == [0] and now,
        "bob: the board back after the takeback",
    )
    at_version(alice, back["version"], "the takeback")
    for b in (alice, bob):
        if state(b)["toAct"] != [0]:
            raise CheckFailed(f"{b.name}: after the takeback the game waits for {state(b)['toAct']}")
        if board(b) != before[b]:
            raise CheckFailed(f"{b.name}: the board is not back after the takeback: {board(b)} != {before[b]}")
        if b.find("#takeback[data-takeback=pending], [data-action=takeback-accept]"):
            raise CheckFailed(f"{b.name}: the offer is still shown after the takeback")
    if moved["version"] >= back["version"]:
        raise CheckFailed("the takeback did not move the game's version on")

    # 2. A conditional line written on the copy while bob is to play.
    move_on(alice, "#board")
    waiting = newer(alice, back["version"], "her second move")
    at_version(bob, waiting["version"], "alice's second move")
    real = board(alice)
    alice.wait("#conditional summary", "alice: the conditional moves panel").click()
    alice.wait("[data-action=conditional-new]", "alice: Write a line").click()
    expected = move_on(alice, "#conditional-board")
    wait_for(lambda: alice.find("#conditional-steps li"), "alice: bob's expected move listed")
    reply = move_on(alice, "#conditional-board")
    store = alice.wait("[data-action=conditional-store]:not([disabled])", "alice: Store the line enabled")
    store.click()
    alice.wait("#conditional-lines li[data-line]", "alice: her stored line listed")
    if board(alice) != real:
        raise CheckFailed("alice's real board moved while she wrote the line")
    if state(alice)["version"] != waiting["version"]:
        raise CheckFailed("storing the line moved the game's version")
    if bob.find("#conditional-lines li"):
        raise CheckFailed("bob's page shows a line")

    # bob plays what the line expects: alice's reply is played at once.
    picks = [(el, key) for el, _, key in bob.run(CONTROLS, "#board") if key == expected["from"]]
    if picks:
        picks[0][0].click()
    targets = wait_for(
        lambda: [el for el, cmd, _ in bob.run(CONTROLS, "#board") if cmd and json.loads(cmd) == expected],
        f"bob: {expected} on his board",
    )
    targets[0].click()
    answered = wait_for(
        lambda: (now := state(bob)) and now["version"] > waiting["version"] + 1 and now["toAct"] == [1] and now,
        f"bob: alice's reply {reply} played after {expected}",
    )
    at_version(alice, answered["version"], "her reply played for her")
    wait_for(lambda: alice.find("#conditional-none"), "alice: no line left once it fired")
    return answered["version"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("--failures", type=Path, required=True)
    args = parser.parse_args()
    args.failures.mkdir(parents=True, exist_ok=True)
    browsers = [Browser("alice", args.base, DESKTOP), Browser("bob", args.base, DESKTOP)]
    try:
        version = check(*browsers)
        print(f"turn conveniences: a takeback accepted, a conditional line stored and fired (version {version})",
              flush=True)
    except Exception as error:
        reports = "\n".join(b.report(args.failures, f"turns-{b.name}") for b in browsers)
        print(f"turn conveniences: FAILED: {error}\n{reports}", flush=True)
        sys.exit(1)
    finally:
        for b in browsers:
            b.close()


if __name__ == "__main__":
    main()
