-- Web Push (docs/push.md): a user's push subscriptions, one per device
-- (the endpoint its browser's push service gave it and the keys that
-- encrypt for it), and the push outbox, written in the statement that
-- writes the notifications (one row per subscription and kind), as the
-- mail outbox is. New tables only.
CREATE TABLE push_subscriptions (
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    id         uuid NOT NULL,
    endpoint   text NOT NULL,
    p256dh     text NOT NULL,
    auth       text NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (user_id, id),
    UNIQUE (user_id, endpoint)
);

-- `not_before` is when a row may first go (now, or for a reminder when a
-- quarter of the turn's time is left) and orders a subscription's rows of
-- one game; `next_attempt_at` leases and retries. A subscription removed
-- (by its user, or by its push service's 404 or 410) takes its rows along.
CREATE TABLE push_outbox (
    user_id         uuid NOT NULL,
    id              bigserial NOT NULL,
    subscription_id uuid NOT NULL,
    notification_id bigint,
    kind            text NOT NULL,
    game_id         uuid,
    version         bigint,
    ruleset         text,
    not_before      timestamptz NOT NULL DEFAULT now(),
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    state           text NOT NULL DEFAULT 'pending'
                    CHECK (state IN ('pending', 'sent', 'skipped', 'failed')),
    attempts        integer NOT NULL DEFAULT 0,
    last_status     integer,
    last_error      text,
    sent_at         timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, id),
    FOREIGN KEY (user_id, subscription_id)
        REFERENCES push_subscriptions (user_id, id) ON DELETE CASCADE
);
CREATE INDEX push_outbox_due ON push_outbox (next_attempt_at) WHERE state = 'pending';
CREATE INDEX push_outbox_order ON push_outbox (user_id, subscription_id, game_id, not_before, id)
    WHERE state = 'pending';
CREATE INDEX push_outbox_finished ON push_outbox (coalesce(sent_at, created_at))
    WHERE state <> 'pending';
