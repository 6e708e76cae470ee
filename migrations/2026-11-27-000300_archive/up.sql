-- Archived games: a game over for long enough keeps its row (for listings,
-- without its snapshot) and moves its record into one compressed row: the
-- audit document exactly as it was served, zstd-compressed. Its events are
-- then deleted from `events`.
ALTER TABLE games ADD COLUMN archived_at timestamptz;

CREATE TABLE archived_games (
    game_id uuid PRIMARY KEY REFERENCES games (id),
    audit bytea NOT NULL,            -- zstd of the audit document's JSON
    json_bytes integer NOT NULL,     -- that JSON's length before compression
    archived_at timestamptz NOT NULL
);

CREATE INDEX games_to_archive ON games (updated_at)
    WHERE status IN ('finished', 'abandoned') AND archived_at IS NULL;

-- Events stay append-only, with one way out: the events of a game whose
-- record is in the archive may be deleted (the archive holds them).
DROP TRIGGER events_no_update_or_delete ON events;
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    FOR EACH ROW EXECUTE FUNCTION events_are_append_only();
CREATE FUNCTION events_leave_only_for_the_archive() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM archived_games WHERE game_id = OLD.game_id) THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'the event log is append-only (events leave only for the archive)';
END
$$;
CREATE TRIGGER events_no_delete_unless_archived BEFORE DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_leave_only_for_the_archive();
