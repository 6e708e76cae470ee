-- A notification may now tell of a tournament: a round started and the
-- player's table is ready (`tournament_round`), or the tournament ended or
-- was cancelled (`tournament_finished`), docs/tournaments.md. Added NOT
-- VALID (no scan under the lock); the next migration validates it without
-- blocking writes.
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('your_turn', 'game_finished', 'invited', 'talk', 'takeback_offered',
                    'seat_substituted', 'tournament_round', 'tournament_finished')) NOT VALID;
