-- Each player's games over, by outcome (the profile's `record`), kept as
-- counters so that reading them costs the same at the thousandth game as at
-- the first. The database keeps them, whoever writes: when a game's status
-- changes to one that is over, each of its seats not counted yet is marked
-- `counted` and added to its player's counters in the same statement; a
-- seat inserted into a game already over (a bulk insert) is counted as it
-- is inserted. A seat is counted once: marking it is an update guarded by
-- `counted IS NULL`, which the backfill (next migration) also takes.
--
-- played: every game over; won: its result's winners hold the seat; drawn:
-- no winner; lost: others won; abandoned: ended without a result.
CREATE TABLE user_records (
    user_id uuid PRIMARY KEY,
    played bigint NOT NULL DEFAULT 0,
    won bigint NOT NULL DEFAULT 0,
    drawn bigint NOT NULL DEFAULT 0,
    lost bigint NOT NULL DEFAULT 0,
    abandoned bigint NOT NULL DEFAULT 0
);

-- A new nullable column without default: no rewrite of the table.
ALTER TABLE seats ADD COLUMN counted boolean;

-- Counts the seats of game `ended` not counted yet (all of them, or the
-- one seat `one_seat`), as the game now stands.
CREATE FUNCTION user_records_count(ended uuid, one_seat smallint) RETURNS void
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

CREATE FUNCTION games_count_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM user_records_count(NEW.id, NULL);
    RETURN NULL;
END
$$;
-- After `games_status_to_seats` (triggers fire in name order), which has
-- copied the status and end time to the seats.
CREATE TRIGGER games_zz_count_ended AFTER UPDATE OF status ON games
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.finished_at IS NOT NULL)
    EXECUTE FUNCTION games_count_ended();

CREATE FUNCTION seats_count_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM user_records_count(NEW.game_id, NEW.seat);
    RETURN NULL;
END
$$;
CREATE TRIGGER seats_count_ended AFTER INSERT ON seats
    FOR EACH ROW WHEN (NEW.game_finished_at IS NOT NULL AND NEW.counted IS NULL)
    EXECUTE FUNCTION seats_count_ended();
