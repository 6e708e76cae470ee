ALTER TABLE games RESET (fillfactor);
DROP INDEX games_to_archive;
ALTER TABLE games DROP COLUMN finished_at;
CREATE INDEX games_to_archive ON games (updated_at)
    WHERE status IN ('finished', 'abandoned') AND archived_at IS NULL;
