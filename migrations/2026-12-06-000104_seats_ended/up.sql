-- A user's games that are over, by end time (`GET /v1/me/games/export`).
CREATE INDEX CONCURRENTLY IF NOT EXISTS seats_ended
    ON seats (user_id, game_finished_at, game_id) WHERE game_finished_at IS NOT NULL;
