DROP TRIGGER events_no_update ON events;
DROP FUNCTION events_only_compacted();
UPDATE events e SET hash = encode(e.digest, 'hex'),
       prev_hash = coalesce((SELECT coalesce(encode(p.digest, 'hex'), p.hash) FROM events p
                              WHERE p.game_id = e.game_id AND p.seq = e.seq - 1), repeat('0', 64)),
       digest = NULL
 WHERE e.digest IS NOT NULL;
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    FOR EACH ROW EXECUTE FUNCTION events_are_append_only();
DROP INDEX events_to_compact;
ALTER TABLE events DROP CONSTRAINT events_hash_kept, DROP COLUMN digest,
    ALTER COLUMN hash SET NOT NULL, ALTER COLUMN prev_hash SET NOT NULL;
