-- The state snapshot is the server's own cache of a game's engine state,
-- written and read whole on every command and never queried by SQL: keep it
-- as the JSON text the server writes. As `jsonb`, PostgreSQL parsed it
-- (sorting keys, converting every number to numeric) on each write and
-- printed it back on each read, which grew with a long match's score sheet
-- to most of the database's CPU time per command. Large snapshots are
-- compressed with lz4 where the server supports it (much cheaper than the
-- default pglz).
ALTER TABLE games ALTER COLUMN state TYPE text USING state::text;
DO $$
BEGIN
    ALTER TABLE games ALTER COLUMN state SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
    RAISE NOTICE 'lz4 is not available; snapshots keep the default compression';
END
$$;
