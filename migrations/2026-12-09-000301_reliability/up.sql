-- Reliability (docs/seats.md): each player's seats in games over, counted
-- beside their outcomes (`user_records`, migration 2026-12-08-000201) by
-- the same statement that counts those, so reading a score costs the same
-- at the thousandth game as at the first:
--
-- left_seats: seats the player left before the end (resigned, out on
-- timeout, out after `abandon_after` timeouts); timeouts: their turns
-- that ran out; vacation_secs: the vacation they took.
--
-- New columns with a constant default: no rewrite of the table. Seats
-- counted before this migration are added by the next one, in batches
-- (the same statement `hatstand reliability rebuild` runs).
ALTER TABLE user_records
    ADD COLUMN left_seats bigint NOT NULL DEFAULT 0,
    ADD COLUMN timeouts bigint NOT NULL DEFAULT 0,
    ADD COLUMN vacation_secs bigint NOT NULL DEFAULT 0;

-- As before, and the seats' reliability counters beside the outcomes.
CREATE OR REPLACE FUNCTION user_records_count(ended uuid, one_seat smallint) RETURNS void
LANGUAGE sql AS $$
    WITH marked AS (
        UPDATE seats s SET counted = true
         WHERE s.game_id = ended
           AND (one_seat IS NULL OR s.seat = one_seat)
           AND s.counted IS NULL AND s.game_finished_at IS NOT NULL
        RETURNING s.user_id, s.seat, s.game_status, s.resigned_at, s.timeouts,
                  s.vacation_used_secs
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
               count(*) FILTER (WHERE m.game_status = 'abandoned') AS abandoned,
               count(*) FILTER (WHERE m.resigned_at IS NOT NULL) AS left_seats,
               coalesce(sum(m.timeouts), 0)::int8 AS timeouts,
               coalesce(sum(m.vacation_used_secs), 0)::int8 AS vacation_secs
          FROM marked m JOIN games g ON g.id = ended
         GROUP BY m.user_id
    )
    INSERT INTO user_records (user_id, played, won, drawn, lost, abandoned, left_seats,
                              timeouts, vacation_secs)
    SELECT * FROM outcomes
    ON CONFLICT (user_id) DO UPDATE
       SET played = user_records.played + EXCLUDED.played,
           won = user_records.won + EXCLUDED.won,
           drawn = user_records.drawn + EXCLUDED.drawn,
           lost = user_records.lost + EXCLUDED.lost,
           abandoned = user_records.abandoned + EXCLUDED.abandoned,
           left_seats = user_records.left_seats + EXCLUDED.left_seats,
           timeouts = user_records.timeouts + EXCLUDED.timeouts,
           vacation_secs = user_records.vacation_secs + EXCLUDED.vacation_secs;
$$;

-- Counts again, from their seats in games over, the reliability counters
-- (and `played`) of the players with ids in (after, upto]: the rows locked
-- first, then counted by a second statement, which sees every seat counted
-- by a transaction committed before the lock; one still counting waits on
-- the lock and adds its seats on top. The backfill (next migration) and
-- `hatstand reliability rebuild` run it, a batch of players at a time.
CREATE FUNCTION user_records_recount(after uuid, upto uuid) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
BEGIN
    PERFORM 1 FROM user_records
      WHERE user_id > after AND user_id <= upto
      ORDER BY user_id FOR UPDATE;
    UPDATE user_records r
       SET (played, left_seats, timeouts, vacation_secs) =
           (SELECT count(*),
                   count(*) FILTER (WHERE s.resigned_at IS NOT NULL),
                   coalesce(sum(s.timeouts), 0)::int8,
                   coalesce(sum(s.vacation_used_secs), 0)::int8
              FROM seats s
             WHERE s.user_id = r.user_id AND s.counted)
     WHERE r.user_id > after AND r.user_id <= upto;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
END
$$;
