DROP TRIGGER games_status_to_seats ON games;
DROP FUNCTION games_status_to_seats();
DROP TRIGGER seats_copy_their_game ON seats;
DROP FUNCTION seats_copy_their_game();
ALTER TABLE seats
    DROP COLUMN game_created_at,
    DROP COLUMN game_status,
    DROP COLUMN game_finished_at;
