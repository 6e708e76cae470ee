-- The two foreign keys every command's append checked go:
--
-- * `events` → `games`: the append inserts events only for the row its own
--   `UPDATE games … WHERE id = $1 AND version = $2` bumped (the CTE
--   `bumped`), so no event of a game that does not exist can be written,
--   and games are never deleted. The key cost each event a trigger and a
--   `FOR KEY SHARE` lock of the game's row.
-- * `notifications` → `users`: every notification is written for a user
--   read from a row that has its own key to `users` (a seat, an invitation,
--   a tournament entry), and users are never deleted. The key cost each
--   notification a trigger and a lock of the user's row.
--
-- Dropping a key rewrites nothing; it takes a brief lock of both tables,
-- waited for at most 5 s so that commands do not queue behind a long
-- transaction (the migration then fails and is run again).
SET LOCAL lock_timeout = '5s';
ALTER TABLE events DROP CONSTRAINT IF EXISTS events_game_id_fkey;
ALTER TABLE notifications DROP CONSTRAINT IF EXISTS notifications_user_id_fkey;
