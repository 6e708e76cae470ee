DELETE FROM notifications WHERE kind = 'talk';
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('your_turn', 'game_finished', 'invited'));
DROP TABLE operators;
DROP TABLE talk_reports;
DROP TABLE talk_mutes;
DROP TABLE talk_messages;
