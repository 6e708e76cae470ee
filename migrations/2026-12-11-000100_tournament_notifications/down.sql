DELETE FROM notifications WHERE kind IN ('tournament_round', 'tournament_finished');
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('your_turn', 'game_finished', 'invited', 'talk', 'takeback_offered',
                    'seat_substituted')) NOT VALID;
