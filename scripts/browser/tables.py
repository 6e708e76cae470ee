"""The game played for each ruleset: its smallest table with options that
keep it short, as the new-game page is filled in."""

from dataclasses import dataclass, field


@dataclass
class Table:
    """A game to create through `#/new`."""

    ruleset: str
    players: int
    # Option fields of the form to set (element id → value typed).
    fields: dict = field(default_factory=dict)
    # Options typed as JSON into `#options-json` (merged over the fields);
    # a public seed is added so that a run can be replayed.
    options: dict = field(default_factory=dict)
    # Moves played before the mid-game screenshots are taken.
    shot_after: int = 4


# Top Hats from a small position: two stacks a side and the neutral hat,
# so the first capture comes within a few moves; the quiet-turn limit
# ends a game that avoids captures.
TOP_HATS_POSITION = {
    "stacks": [
        {"cell": "d4", "hats": ["neutral"]},
        {"cell": "c3", "hats": ["blue", "red"]},
        {"cell": "e3", "hats": ["red"]},
        {"cell": "c5", "hats": ["red", "blue"]},
        {"cell": "e5", "hats": ["blue"]},
    ],
    "to_move": 0,
}

TABLES = [
    # Hats has one round: eight main actions per player.
    Table("hats", 2),
    Table("goathead", 3, fields={"opt-rounds": "1"}),
    Table(
        "top-hats",
        2,
        fields={"opt-quiet_turn_limit": "6"},
        options={"position": TOP_HATS_POSITION},
        shot_after=2,
    ),
    Table("hat-trick", 2, fields={"opt-rounds": "1"}),
]
