-- Counts the seats of games over before the previous migration, a batch of
-- games at a time in the order of the primary key, each batch its own
-- transaction: no long lock on seats, nothing held between batches. A seat
-- the triggers counted meanwhile is left as it is (only seats not counted
-- are). One statement: the migration runs outside a transaction so that
-- the block can commit.
DO $$
DECLARE
    last uuid := '00000000-0000-0000-0000-000000000000';
    upto uuid;
    game uuid;
BEGIN
    LOOP
        SELECT batch.game_id INTO upto
          FROM (SELECT DISTINCT game_id FROM seats
                 WHERE game_id > last
                 ORDER BY game_id LIMIT 2000) batch
         ORDER BY batch.game_id DESC LIMIT 1;
        EXIT WHEN upto IS NULL;
        FOR game IN SELECT DISTINCT s.game_id FROM seats s
                     WHERE s.game_id > last AND s.game_id <= upto
                       AND s.counted IS NULL AND s.game_finished_at IS NOT NULL
        LOOP
            PERFORM user_records_count(game, NULL);
        END LOOP;
        last := upto;
        COMMIT;
    END LOOP;
END
$$;
