-- Fills the copies of the seats written before the previous migration, a
-- batch of games at a time in the order of the primary key, each batch its
-- own transaction: no long lock on seats, nothing held between batches. A
-- seat that a status change or the trigger filled meanwhile is left as it is
-- (only seats still without a status are written). One statement: the
-- migration runs outside a transaction so that the block can commit.
DO $$
DECLARE
    last uuid := '00000000-0000-0000-0000-000000000000';
    upto uuid;
BEGIN
    LOOP
        SELECT batch.game_id INTO upto
          FROM (SELECT DISTINCT game_id FROM seats
                 WHERE game_id > last
                 ORDER BY game_id LIMIT 2000) batch
         ORDER BY batch.game_id DESC LIMIT 1;
        EXIT WHEN upto IS NULL;
        UPDATE seats s
           SET game_created_at = g.created_at, game_status = g.status,
               game_finished_at = g.finished_at
          FROM games g
         WHERE g.id = s.game_id
           AND s.game_id > last AND s.game_id <= upto
           AND s.game_status IS NULL;
        last := upto;
        COMMIT;
    END LOOP;
END
$$;
