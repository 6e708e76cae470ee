-- Ratings: a projection of finished games, in finish order (docs/ratings.md).
--
-- Finish order is `games.finish_seq`, given by the database to a game as it
-- becomes `finished`, whoever writes it (this release, the release before
-- during a rolling upgrade, a bulk insert): the trigger takes a
-- transaction-wide advisory lock first and holds it to the commit, so
-- numbers are handed out in commit order and a number is visible only once
-- every smaller one is committed (or rolled back, never to appear). The
-- projection rates the games past its cursor in that order, exactly once.
-- Games finished before this release have no number: the first start
-- numbers them, in (finished_at, id) order, below every new one.
--
-- A new nullable column without default: no rewrite of the table; its
-- index is built concurrently by the next migration.
ALTER TABLE games ADD COLUMN finish_seq bigint;

CREATE SEQUENCE games_finish_seq AS bigint MINVALUE 1;

CREATE FUNCTION games_number_finish() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- 7 215 681: the finish order's lock (the ratings' is 7 215 682).
    PERFORM pg_advisory_xact_lock(7215681);
    NEW.finish_seq := nextval('games_finish_seq');
    RETURN NEW;
END
$$;
CREATE TRIGGER games_number_finish_update BEFORE UPDATE OF status ON games
    FOR EACH ROW WHEN (NEW.status = 'finished' AND OLD.status IS DISTINCT FROM 'finished'
                       AND NEW.finish_seq IS NULL)
    EXECUTE FUNCTION games_number_finish();
CREATE TRIGGER games_number_finish_insert BEFORE INSERT ON games
    FOR EACH ROW WHEN (NEW.status = 'finished' AND NEW.finish_seq IS NULL)
    EXECUTE FUNCTION games_number_finish();

-- Each player's current rating in a pool (a ruleset at a table size).
-- `rating`/`deviation`: Glicko-2's rating and RD (two seats), or Weng-Lin's
-- mu and sigma (more seats, teams); `volatility` is Glicko-2's only.
CREATE TABLE ratings (
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    ruleset text NOT NULL,
    players smallint NOT NULL,
    rating double precision NOT NULL,
    deviation double precision NOT NULL,
    volatility double precision,
    games integer NOT NULL,
    last_seq bigint NOT NULL,
    PRIMARY KEY (user_id, ruleset, players)
);
CREATE INDEX ratings_board ON ratings (ruleset, players, rating DESC, user_id);

-- What each rated game changed, one row per seat: the projection's ledger.
CREATE TABLE rating_changes (
    game_id uuid NOT NULL,
    seat smallint NOT NULL,
    user_id uuid NOT NULL,
    finish_seq bigint NOT NULL,
    ruleset text NOT NULL,
    players smallint NOT NULL,
    place smallint NOT NULL,
    rating_before double precision NOT NULL,
    deviation_before double precision NOT NULL,
    volatility_before double precision,
    rating_after double precision NOT NULL,
    deviation_after double precision NOT NULL,
    volatility_after double precision,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX rating_changes_history ON rating_changes (user_id, ruleset, players, finish_seq);

-- The projection's cursor: the last finish_seq it has taken into account.
CREATE TABLE ratings_cursor (
    id boolean PRIMARY KEY DEFAULT true CHECK (id),
    last_seq bigint NOT NULL
);
INSERT INTO ratings_cursor (id, last_seq) VALUES (true, -9223372036854775808);
