-- Users: argon2id password hashes; usernames are unique regardless of case.
CREATE TABLE users (
    id            uuid PRIMARY KEY,
    username      text NOT NULL,
    password_hash text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_username_lower ON users (lower(username));

-- Secrets the server generates for itself (the JWT signing key when none is configured).
CREATE TABLE server_secrets (
    name       text PRIMARY KEY,
    value      text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- One row per game: its settings and a snapshot of its state at `version`.
-- The snapshot is a cache; the events are the truth.
CREATE TABLE games (
    id              uuid PRIMARY KEY,
    ruleset         text NOT NULL,
    players         smallint NOT NULL CHECK (players BETWEEN 1 AND 16),
    options         jsonb NOT NULL,
    seed            text NOT NULL,
    seed_public     boolean NOT NULL,
    seed_commitment text NOT NULL,
    status          text NOT NULL CHECK (status IN ('open', 'active', 'finished', 'abandoned')),
    version         bigint NOT NULL CHECK (version >= 1),
    last_hash       text NOT NULL,
    state           jsonb,
    to_act          smallint[] NOT NULL DEFAULT '{}',
    result          jsonb,
    created_by      uuid NOT NULL REFERENCES users (id),
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL
);
CREATE INDEX games_by_created ON games (created_at DESC, id DESC);
CREATE INDEX games_by_status_created ON games (status, created_at DESC, id DESC);

CREATE TABLE seats (
    game_id   uuid NOT NULL REFERENCES games (id),
    seat      smallint NOT NULL,
    user_id   uuid NOT NULL REFERENCES users (id),
    joined_at timestamptz NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);
CREATE INDEX seats_by_user ON seats (user_id);

-- The append-only event log. (game_id, seq) is the primary key, so two writers
-- racing for the same version can never fork a game: one of them fails.
-- hash = SHA-256(prev_hash ‖ canonical JSON of the event).
CREATE TABLE events (
    game_id    uuid NOT NULL REFERENCES games (id),
    seq        bigint NOT NULL CHECK (seq >= 1),
    type       text NOT NULL,
    data       jsonb NOT NULL,
    actor_user uuid,
    actor_seat smallint,
    command    jsonb,
    prev_hash  text NOT NULL,
    hash       text NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE FUNCTION events_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the event log is append-only';
END
$$;
CREATE TRIGGER events_no_update_or_delete BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_are_append_only();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_are_append_only();

-- The first response to a command sent with an Idempotency-Key, replayed to retries.
CREATE TABLE idempotency_keys (
    user_id         uuid NOT NULL REFERENCES users (id),
    key             text NOT NULL,
    game_id         uuid NOT NULL REFERENCES games (id),
    request_hash    text NOT NULL,
    response_status smallint NOT NULL,
    response_body   jsonb NOT NULL,
    created_at      timestamptz NOT NULL,
    PRIMARY KEY (user_id, key)
);
