-- Counts the reliability of the players whose games ended before the
-- previous migration, a batch of players at a time in the order of the
-- primary key, each batch its own transaction: no long lock on
-- user_records, nothing held between batches (see `user_records_recount`).
-- One statement: the migration runs outside a transaction so that the
-- block can commit.
DO $$
DECLARE
    last uuid := '00000000-0000-0000-0000-000000000000';
    upto uuid;
BEGIN
    LOOP
        SELECT batch.user_id INTO upto
          FROM (SELECT user_id FROM user_records
                 WHERE user_id > last
                 ORDER BY user_id LIMIT 1000) batch
         ORDER BY batch.user_id DESC LIMIT 1;
        EXIT WHEN upto IS NULL;
        PERFORM user_records_recount(last, upto);
        last := upto;
        COMMIT;
    END LOOP;
END
$$;
