DELETE FROM notifications WHERE kind = 'takeback_offered';
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('your_turn', 'game_finished', 'invited', 'talk'));
