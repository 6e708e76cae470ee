CREATE INDEX CONCURRENTLY IF NOT EXISTS seats_by_user ON seats (user_id);
