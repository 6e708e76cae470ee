-- A user's games of one status, newest first (the inbox's status filter and
-- `turn=mine`; the bot worker's active games of a bot). Built without
-- blocking writes; one statement, outside a transaction.
CREATE INDEX CONCURRENTLY IF NOT EXISTS seats_inbox_by_status
    ON seats (user_id, game_status, game_created_at DESC, game_id DESC);
