CREATE OR REPLACE FUNCTION user_records_recount(after uuid, upto uuid) RETURNS bigint
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
DELETE FROM notifications WHERE kind = 'seat_substituted';
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('your_turn', 'game_finished', 'invited', 'talk', 'takeback_offered')) NOT VALID;
ALTER TABLE seats DROP COLUMN vacant_since;
DROP TABLE seat_substitutions;
