-- The open and active games of each creator, counted by every game
-- creation (the limits on games at once). Built without blocking writes.
CREATE INDEX CONCURRENTLY IF NOT EXISTS games_open_by_creator ON games (created_by)
    WHERE status IN ('open', 'active');
