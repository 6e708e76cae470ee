-- Rematches (docs/ratings.md): a player of a finished game offers the same
-- table again; the others accept or decline; the new game starts when all
-- have accepted. One offer per finished game, its row locked by every
-- answer, so two players accepting at once start exactly one game.
--
-- `accepted`: the users who accepted (the one who offered, every bot seat,
-- then each answer). `state`: `offered`, `accepted` (the new game is
-- `new_game_id`) or `declined` (by `declined_by`). A new table: nothing
-- rewritten.
CREATE TABLE rematches (
    game_id uuid PRIMARY KEY,
    offered_by uuid NOT NULL,
    offered_at timestamptz NOT NULL,
    state text NOT NULL CHECK (state IN ('offered', 'accepted', 'declined')),
    accepted uuid[] NOT NULL,
    declined_by uuid,
    answered_at timestamptz,
    new_game_id uuid
);
-- The new game's `rematch_of`. A new, empty table: built at once.
CREATE INDEX rematches_new_game ON rematches (new_game_id) WHERE new_game_id IS NOT NULL;
