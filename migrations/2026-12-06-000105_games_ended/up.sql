-- Every game that is over, by end time (`hatstand export` of the whole
-- server). `finished_at` is set once, when the game ends, and never
-- changes after: moves of a game in play stay heap-only updates.
CREATE INDEX CONCURRENTLY IF NOT EXISTS games_ended
    ON games (finished_at, id) WHERE finished_at IS NOT NULL;
