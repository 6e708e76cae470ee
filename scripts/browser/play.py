"""Plays a game to its end through the boards: whenever a session's page
shows its seat to act, it activates a control of `#board` drawn by a
seeded generator (a `[data-cmd]` move, or a `[data-select]` first part and
then one of the targets it brings), by a click or, every third move, by
the keyboard (focus and Enter), then waits for every player's page to show
the new version, which only the game's live stream brings to the others."""

from browser import CheckFailed, wait_for
from pages import state

# The board's controls a person could use now: visible, enabled, and not
# the first part already picked.
CONTROLS = """
return [...document.querySelectorAll('#board [data-cmd], #board [data-select]')]
  .filter((el) => el.getClientRects().length > 0 && !el.disabled && el.getAttribute('aria-pressed') !== 'true')
  .map((el) => [el, el.dataset.cmd ?? null, el.dataset.select ?? null]);
"""
# What the page tells of the game: the log's version and lines, the
# viewer's last move, and the lines shown since it.
LOG = """
const log = document.getElementById('move-log');
const game = document.querySelector('section#game');
if (!log || !game) return null;
const lines = [...log.querySelectorAll('li[data-seq]')].map((li) => Number(li.dataset.seq));
return {
  version: Number(log.dataset.version),
  lines: lines.length,
  mine: game.dataset.myLastMove === undefined || game.dataset.myLastMove === '' ? null : Number(game.dataset.myLastMove),
  since: document.querySelectorAll('#last-moves li').length,
};
"""
# Every third move (the second, the fifth, …) is made with the keyboard.
KEYBOARD_EVERY = 3


class Play:
    """The moves of one game, and what the run saw of them."""

    def __init__(self, table, players, rng, shots):
        self.table = table
        self.players = players
        self.rng = rng
        self.shots = shots
        self.moves = 0
        self.by_keyboard = 0
        self.two_part = 0
        self.pending_shots = {players[0]: "desktop", players[1]: "phone"}

    def run(self):
        """Plays until the game is over; returns its last version."""
        # The last to join saw the game start; the others follow it.
        version = max(state(player)["version"] for player in self.players)
        while True:
            now = self.in_step(version)
            if now["status"] == "finished":
                # A game over before a player's turn came again is pictured at its end.
                for player in list(self.pending_shots):
                    self.shoot(player)
                return version
            if now["status"] != "active":
                raise CheckFailed(f"the game is {now['status']} after {self.moves} moves")
            actors = [p for p in self.players if state(p)["seat"] in now["toAct"]]
            if not actors:
                raise CheckFailed(f"no player's page offers a move at version {version} (to act: {now['toAct']})")
            player = self.rng.choice(actors)
            if self.moves >= self.table.shot_after and player in self.pending_shots:
                self.shoot(player)
            if player.phone:
                player.check_fits(f"the {self.table.ruleset} game page")
            version = self.move(player, version)

    def in_step(self, version):
        """Waits until every player's page shows `version` and returns what
        they agree on (status, seats to act)."""
        seen = []
        for player in self.players:
            now = settled(player, version)
            if now["version"] != version:
                raise CheckFailed(f"{player.name}'s page shows version {now['version']}, expected {version}")
            seen.append((now["status"], now["toAct"]))
        if len(set(map(repr, seen))) != 1:
            raise CheckFailed(f"the players' pages disagree at version {version}: {seen}")
        if self.moves:
            for player in self.players:
                self.check_told(player, version)
        return {"status": seen[0][0], "toAct": seen[0][1]}

    def check_told(self, player, version):
        """After a move, `player`'s page tells it: the move log is told at
        this version, and a player whose last move is not the latest sees
        what happened since (a trick is one line, so lines are not moves)."""
        told = wait_for(
            lambda: player.run(LOG) if (player.run(LOG) or {}).get("version") == version else None,
            f"{player.name}: the move log told at version {version}",
        )
        if told["lines"] < 1:
            raise CheckFailed(f"{player.name}: the move log is empty after {self.moves} moves")
        if told["mine"] is not None and told["mine"] < version and not told["since"]:
            raise CheckFailed(f"{player.name}: no 'since your last move' line after others moved")

    def move(self, player, version):
        """Makes one move on `player`'s board; returns the new version."""
        by_keyboard = self.moves % KEYBOARD_EVERY == 1
        controls = player.run(CONTROLS)
        if not controls:
            raise CheckFailed(f"{player.name} is to act at version {version} but #board offers no control")
        element, command, key = self.rng.choice(controls)
        if key is not None:
            offered = {cmd for _, cmd, _ in controls}
            player.activate(element, by_keyboard)
            wait_for(
                lambda: player.run(
                    'return document.querySelector(`#board [data-select="${CSS.escape(arguments[0])}"]`)'
                    "?.getAttribute('aria-pressed') === 'true'",
                    key,
                ),
                f"{player.name}: {key} shown as picked",
            )
            targets = [(el, cmd) for el, cmd, _ in player.run(CONTROLS) if cmd is not None]
            fresh = [(el, cmd) for el, cmd in targets if cmd not in offered]
            if not targets:
                raise CheckFailed(f"{player.name}: picking {key} offers no move")
            element, command = self.rng.choice(fresh or targets)
            self.two_part += 1
        player.activate(element, by_keyboard)
        self.moves += 1
        self.by_keyboard += by_keyboard

        def moved():
            if player.flash():
                raise CheckFailed(f"{player.name}: {command} answered in #flash: {player.flash()}")
            now = state(player)
            return now and now["version"] > version and not now["sending"] and now

        return wait_for(moved, f"{player.name}: {command} to be played")["version"]

    def shoot(self, player):
        """Takes the mid-game screenshot of `player`'s page."""
        kind = self.pending_shots.pop(player)
        player.screenshot(self.shots / f"{self.table.ruleset}-{kind}.png")


def settled(player, version):
    """`player`'s page state once it shows `version` or later and sends nothing."""
    return wait_for(
        lambda: (now := state(player)) and now["version"] >= version and not now["sending"] and now,
        f"{player.name}'s page to show version {version}",
    )
