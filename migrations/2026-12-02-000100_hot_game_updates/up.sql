-- Every command updates its game's row. PostgreSQL updates a row in place,
-- as a heap-only tuple (HOT: no new entry in any index, the old version
-- pruned on the page), only when no indexed column changes and the page has
-- room. `updated_at`, indexed for the archiver, changes on every command, so
-- every command wrote a new entry in each of the table's five indexes and
-- left a dead one behind. The archiver now orders by `finished_at`, which
-- stays NULL while a game is played and is fixed once it is over; and pages
-- keep a fifth free for the next version of their rows.
ALTER TABLE games ADD COLUMN finished_at timestamptz
    GENERATED ALWAYS AS (CASE WHEN status IN ('finished', 'abandoned') THEN updated_at END) STORED;
DROP INDEX games_to_archive;
CREATE INDEX games_to_archive ON games (finished_at)
    WHERE finished_at IS NOT NULL AND archived_at IS NULL;
ALTER TABLE games SET (fillfactor = 80);
