-- The ratings' reading order (finished games past the cursor).
CREATE INDEX CONCURRENTLY IF NOT EXISTS games_finish_order
    ON games (finish_seq) WHERE finish_seq IS NOT NULL;
