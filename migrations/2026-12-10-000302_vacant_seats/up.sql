-- The seats to take, oldest vacancy first (the lobby's list of vacant
-- seats, docs/seats.md): only the few vacant seats of games on are in it.
-- Built without blocking writes; one statement, outside a transaction.
CREATE INDEX CONCURRENTLY IF NOT EXISTS seats_vacant
    ON seats (vacant_since, game_id, seat)
    WHERE vacant_since IS NOT NULL AND game_status = 'active';
