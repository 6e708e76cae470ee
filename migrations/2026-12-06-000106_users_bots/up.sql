-- The built-in bots (fifteen rows), without reading every account.
CREATE INDEX CONCURRENTLY IF NOT EXISTS users_bots ON users (id) WHERE bot_level IS NOT NULL;
