-- A user's games, newest first (the inbox without a filter). It also serves
-- every lookup by user alone, which `seats_by_user` did (dropped below).
CREATE INDEX CONCURRENTLY IF NOT EXISTS seats_inbox
    ON seats (user_id, game_created_at DESC, game_id DESC);
