-- Finished games without a finish number (finished before ratings existed):
-- empty once the first start has numbered them, so every later look costs
-- nothing.
CREATE INDEX CONCURRENTLY IF NOT EXISTS games_unnumbered
    ON games (finished_at, id) WHERE status = 'finished' AND finish_seq IS NULL;
