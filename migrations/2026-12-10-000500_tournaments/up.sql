-- Tournaments (docs/tournaments.md): new tables only, nothing existing is
-- rewritten or locked. Every row of a tournament is found by its id (on a
-- Citus cluster, one co-location group distributed by tournament).
--
-- `seed` stays secret until the tournament is over (its record carries only
-- `seed_commitment` until then). `version` and `last_hash` are the record's
-- length and last hash, as a game's are.
CREATE TABLE tournaments (
    id uuid PRIMARY KEY,
    organiser uuid NOT NULL REFERENCES users (id),
    name text NOT NULL,
    ruleset text NOT NULL,
    options jsonb NOT NULL,
    table_size smallint NOT NULL CHECK (table_size >= 2),
    format text NOT NULL CHECK (format IN ('round_robin', 'swiss', 'elimination')),
    rounds integer NOT NULL CHECK (rounds >= 1),
    duplicate boolean NOT NULL,
    bots_substitute boolean NOT NULL,
    registration_opens timestamptz NOT NULL,
    registration_closes timestamptz NOT NULL,
    player_cap integer NOT NULL CHECK (player_cap >= 2),
    min_rating double precision,
    min_reliability smallint CHECK (min_reliability BETWEEN 0 AND 100),
    seed text NOT NULL,
    seed_commitment text NOT NULL,
    status text NOT NULL CHECK (status IN ('registering', 'running', 'finished', 'cancelled')),
    version bigint NOT NULL,
    last_hash bytea NOT NULL,
    created_at timestamptz NOT NULL,
    CHECK (registration_opens < registration_closes)
);
-- The lists: upcoming, running, finished, newest first.
CREATE INDEX tournaments_by_status ON tournaments (status, created_at DESC, id);

-- Each round's start and deadline as the organiser set them; `paired_at`
-- and `scored_at` are written once, by the worker that paired or scored it.
CREATE TABLE tournament_rounds (
    tournament_id uuid NOT NULL REFERENCES tournaments (id),
    round integer NOT NULL CHECK (round >= 0),
    starts_at timestamptz NOT NULL,
    deadline timestamptz NOT NULL,
    paired_at timestamptz,
    scored_at timestamptz,
    PRIMARY KEY (tournament_id, round),
    CHECK (starts_at < deadline)
);

-- Registrations; `entrant` is the seed number, given when the tournament starts.
CREATE TABLE tournament_entries (
    tournament_id uuid NOT NULL REFERENCES tournaments (id),
    user_id uuid NOT NULL REFERENCES users (id),
    registered_at timestamptz NOT NULL,
    entrant integer,
    PRIMARY KEY (tournament_id, user_id),
    UNIQUE (tournament_id, entrant)
);

-- A round's tables: who sits where (seat order), the game once created,
-- and each seat's points once scored.
CREATE TABLE tournament_tables (
    tournament_id uuid NOT NULL REFERENCES tournaments (id),
    round integer NOT NULL,
    table_no integer NOT NULL,
    entrants integer[] NOT NULL,
    game_id uuid,
    points integer[],
    PRIMARY KEY (tournament_id, round, table_no),
    FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds (tournament_id, round)
);
CREATE INDEX tournament_tables_by_game ON tournament_tables (game_id) WHERE game_id IS NOT NULL;

-- The tournament's record, hash-chained as a game's events are.
CREATE TABLE tournament_events (
    tournament_id uuid NOT NULL REFERENCES tournaments (id),
    seq bigint NOT NULL CHECK (seq >= 1),
    type text NOT NULL,
    data jsonb NOT NULL,
    actor_user uuid,
    hash bytea NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (tournament_id, seq)
);
