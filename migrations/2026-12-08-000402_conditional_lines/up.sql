-- Conditional moves (docs/turn-conveniences.md): the lines a seat stored,
-- "if the next commands are these, play this", private to their owner.
-- `lines` holds what is left of each line: steps already matched are gone.
-- `at_version` is the game's version the lines were last brought up to: a
-- step that moves the game rewrites every row of the game at its new
-- version, so a row left behind (stored while a step raced past it) is
-- stale and dropped, never fired. A new table only.
CREATE TABLE conditional_lines (
    game_id uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat smallint NOT NULL,
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    lines jsonb NOT NULL,
    at_version bigint NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (game_id, seat)
);
