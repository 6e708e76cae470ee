-- Play by mail: private games and invitations, per-turn deadlines, seats
-- that go on vacation, time out or resign, and notifications (with their
-- webhook outbox) written in the same statements as the events that cause them.

ALTER TABLE games
    -- Server-level options (turn_timeout, on_timeout, max_vacation, abandon_after).
    ADD COLUMN server_options jsonb NOT NULL DEFAULT '{}',
    -- When the seats in to_act time out; NULL without a turn_timeout or once over.
    ADD COLUMN deadline timestamptz,
    -- Closed to the public: joined with invite_code or by invitees.
    ADD COLUMN private boolean NOT NULL DEFAULT false,
    ADD COLUMN invite_code text;
CREATE INDEX games_due ON games (deadline) WHERE status = 'active';

ALTER TABLE seats
    ADD COLUMN vacation_used_secs bigint NOT NULL DEFAULT 0,
    -- Consecutive timeouts; a command of the seat's own resets it.
    ADD COLUMN timeouts integer NOT NULL DEFAULT 0,
    -- Set when the seat is out (resigned, forfeited on timeout, or inactive).
    ADD COLUMN resigned_at timestamptz;

CREATE TABLE invitations (
    game_id     uuid NOT NULL REFERENCES games (id),
    user_id     uuid NOT NULL REFERENCES users (id),
    invited_at  timestamptz NOT NULL,
    declined_at timestamptz,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX invitations_by_user ON invitations (user_id);

-- What a user is told: it is their turn, a game of theirs is over, they are invited.
CREATE TABLE notifications (
    id         bigserial PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id),
    game_id    uuid REFERENCES games (id),
    kind       text NOT NULL CHECK (kind IN ('your_turn', 'game_finished', 'invited')),
    payload    jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notifications_by_user ON notifications (user_id, id);

CREATE TABLE webhooks (
    id         uuid PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id),
    url        text NOT NULL,
    secret     text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_by_user ON webhooks (user_id);

-- The outbox: one row per (webhook, notification), inserted by the trigger
-- below in the transaction that writes the notification. (Waking the streams
-- and webhook workers is done after the commit, by the server: a NOTIFY here
-- would serialize every commit on PostgreSQL's notify lock.)
CREATE TABLE webhook_deliveries (
    id              bigserial PRIMARY KEY,
    webhook_id      uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    notification_id bigint NOT NULL REFERENCES notifications (id),
    state           text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_attempt_at timestamptz,
    last_status     integer,
    last_error      text,
    delivered_at    timestamptz,
    UNIQUE (webhook_id, notification_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';

CREATE FUNCTION notifications_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO webhook_deliveries (webhook_id, notification_id)
    SELECT w.id, NEW.id FROM webhooks w WHERE w.user_id = NEW.user_id;
    RETURN NULL;
END
$$;
CREATE TRIGGER notifications_fan_out AFTER INSERT ON notifications
    FOR EACH ROW EXECUTE FUNCTION notifications_fan_out();
