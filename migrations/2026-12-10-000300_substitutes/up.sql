-- Substitutes (docs/seats.md): a seat whose player left a game still on
-- may be taken by another player.
--
-- seat_substitutions: every takeover, with the leaver's counters as they
-- stood (the seat's row is the substitute's from then on). A new table:
-- nothing existing is rewritten.
CREATE TABLE seat_substitutions (
    game_id   uuid NOT NULL REFERENCES games (id),
    -- The version of the game's `seat_substituted` event.
    version   bigint NOT NULL,
    seat      smallint NOT NULL,
    from_user uuid NOT NULL REFERENCES users (id),
    to_user   uuid NOT NULL REFERENCES users (id),
    -- The leaver's timeouts and vacation in the seat, counted for their
    -- reliability at the takeover.
    timeouts      integer NOT NULL,
    vacation_secs bigint NOT NULL,
    at        timestamptz NOT NULL,
    PRIMARY KEY (game_id, version)
);
-- A leaver's takeovers, for the reliability rebuild. A new, empty table:
-- built at once.
CREATE INDEX seat_substitutions_by_leaver ON seat_substitutions (from_user);

-- When a seat became vacant and listed in the lobby (its game public and
-- taking substitutes); null otherwise. A nullable column without a
-- default: no rewrite of the table. The lobby's index is the third
-- migration's (built concurrently).
ALTER TABLE seats ADD COLUMN vacant_since timestamptz;

-- A notification may now tell of a substitute. Added NOT VALID (no scan
-- under the lock); the next migration validates it without blocking writes.
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('your_turn', 'game_finished', 'invited', 'talk', 'takeback_offered',
                    'seat_substituted')) NOT VALID;

-- As before, and the seats each player left to a substitute (counted at
-- the takeover: the game is over for them): a game played and left, with
-- the timeouts and vacation they had in it.
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
           (SELECT c.played + x.played, c.left_seats + x.played,
                   c.timeouts + x.timeouts, c.vacation_secs + x.vacation_secs
              FROM (SELECT count(*) AS played,
                           count(*) FILTER (WHERE s.resigned_at IS NOT NULL) AS left_seats,
                           coalesce(sum(s.timeouts), 0)::int8 AS timeouts,
                           coalesce(sum(s.vacation_used_secs), 0)::int8 AS vacation_secs
                      FROM seats s
                     WHERE s.user_id = r.user_id AND s.counted) c,
                   (SELECT count(*) AS played,
                           coalesce(sum(x.timeouts), 0)::int8 AS timeouts,
                           coalesce(sum(x.vacation_secs), 0)::int8 AS vacation_secs
                      FROM seat_substitutions x
                     WHERE x.from_user = r.user_id) x)
     WHERE r.user_id > after AND r.user_id <= upto;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
END
$$;
