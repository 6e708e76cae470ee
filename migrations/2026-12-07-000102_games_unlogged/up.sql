-- The games that are over and not yet in the transparency log: what the
-- log's sequencer reads each tick (games over before the log existed
-- included, logged a batch at a time). A game leaves it once logged.
CREATE INDEX CONCURRENTLY IF NOT EXISTS games_unlogged
    ON games (finished_at, id) WHERE finished_at IS NOT NULL AND logged_at IS NULL;
