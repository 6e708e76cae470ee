-- Compact events: an event's hash is kept as its 32 bytes (`digest`), and
-- its `prev_hash` is not kept at all (it is the previous event's hash).
-- Rows written before keep their hex `hash` and `prev_hash` until the
-- retention pass converts them, a batch at a time; readers take either.
ALTER TABLE events
    ADD COLUMN digest bytea,
    ALTER COLUMN hash DROP NOT NULL,
    ALTER COLUMN prev_hash DROP NOT NULL,
    ADD CONSTRAINT events_hash_kept CHECK (
        (digest IS NOT NULL AND length(digest) = 32 AND hash IS NULL AND prev_hash IS NULL)
        OR (digest IS NULL AND hash IS NOT NULL AND prev_hash IS NOT NULL)) NOT VALID;

CREATE INDEX events_to_compact ON events (game_id, seq) WHERE digest IS NULL;

-- The log stays append-only. The one update allowed is that conversion:
-- the same event, its hash re-encoded, its prev_hash dropped only where it
-- is the previous event's hash (so nothing a verifier could check is lost).
DROP TRIGGER events_no_update ON events;
CREATE FUNCTION events_only_compacted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.digest IS NULL AND OLD.hash IS NOT NULL
       AND NEW.digest = decode(OLD.hash, 'hex') AND NEW.hash IS NULL AND NEW.prev_hash IS NULL
       AND NEW.game_id = OLD.game_id AND NEW.seq = OLD.seq AND NEW.type = OLD.type
       AND NEW.data = OLD.data AND NEW.created_at = OLD.created_at
       AND NEW.actor_user IS NOT DISTINCT FROM OLD.actor_user
       AND NEW.actor_seat IS NOT DISTINCT FROM OLD.actor_seat
       AND NEW.command IS NOT DISTINCT FROM OLD.command
       AND OLD.prev_hash = coalesce(
               (SELECT coalesce(encode(p.digest, 'hex'), p.hash) FROM events p
                 WHERE p.game_id = OLD.game_id AND p.seq = OLD.seq - 1),
               repeat('0', 64)) THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'the event log is append-only (an event may only be compacted)';
END
$$;
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    FOR EACH ROW EXECUTE FUNCTION events_only_compacted();
