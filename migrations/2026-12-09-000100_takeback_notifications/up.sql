-- A notification may now tell of a takeback offer
-- (docs/turn-conveniences.md). The new check is added NOT VALID (no scan
-- under the lock); the next migration validates it without blocking writes.
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('your_turn', 'game_finished', 'invited', 'talk', 'takeback_offered')) NOT VALID;
