DROP FUNCTION user_records_recount(uuid, uuid);
CREATE OR REPLACE FUNCTION user_records_count(ended uuid, one_seat smallint) RETURNS void
LANGUAGE sql AS $$
    WITH marked AS (
        UPDATE seats s SET counted = true
         WHERE s.game_id = ended
           AND (one_seat IS NULL OR s.seat = one_seat)
           AND s.counted IS NULL AND s.game_finished_at IS NOT NULL
        RETURNING s.user_id, s.seat, s.game_status
    ), outcomes AS (
        SELECT m.user_id,
               count(*) AS played,
               count(*) FILTER (WHERE m.game_status = 'finished'
                                  AND g.result->'winners' @> to_jsonb(m.seat)) AS won,
               count(*) FILTER (WHERE m.game_status = 'finished'
                                  AND jsonb_array_length(g.result->'winners') = 0) AS drawn,
               count(*) FILTER (WHERE m.game_status = 'finished'
                                  AND jsonb_array_length(g.result->'winners') > 0
                                  AND NOT g.result->'winners' @> to_jsonb(m.seat)) AS lost,
               count(*) FILTER (WHERE m.game_status = 'abandoned') AS abandoned
          FROM marked m JOIN games g ON g.id = ended
         GROUP BY m.user_id
    )
    INSERT INTO user_records (user_id, played, won, drawn, lost, abandoned)
    SELECT * FROM outcomes
    ON CONFLICT (user_id) DO UPDATE
       SET played = user_records.played + EXCLUDED.played,
           won = user_records.won + EXCLUDED.won,
           drawn = user_records.drawn + EXCLUDED.drawn,
           lost = user_records.lost + EXCLUDED.lost,
           abandoned = user_records.abandoned + EXCLUDED.abandoned;
$$;
ALTER TABLE user_records DROP COLUMN left_seats, DROP COLUMN timeouts, DROP COLUMN vacation_secs;
