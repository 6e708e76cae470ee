DROP TRIGGER events_no_delete_unless_archived ON events;
DROP FUNCTION events_leave_only_for_the_archive();
DROP TRIGGER events_no_update ON events;
CREATE TRIGGER events_no_update_or_delete BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_are_append_only();
DROP INDEX games_to_archive;
DROP TABLE archived_games;
ALTER TABLE games DROP COLUMN archived_at;
