-- Play by email: each user's address and what they want mailed, the mail
-- outbox, and the time of a user's next digest.

-- One address per user. Until it is confirmed (the code mailed to it was
-- given back), it gets nothing but that code. `preferences` maps each kind of
-- mail (`your_turn`, `reminder`, `invited`, `game_finished`) to `immediately`,
-- `digest` or `never`; a kind not named is `immediately`.
CREATE TABLE email_addresses (
    user_id         uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    address         text NOT NULL,
    confirmed_at    timestamptz,
    code_hash       text,
    code_expires_at timestamptz,
    code_attempts   integer NOT NULL DEFAULT 0,
    preferences     jsonb NOT NULL DEFAULT '{}',
    digest_hour     smallint NOT NULL DEFAULT 8 CHECK (digest_hour BETWEEN 0 AND 23),
    time_zone       text NOT NULL DEFAULT 'UTC',
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);
-- A confirmed address belongs to one account (an unconfirmed one claims nothing).
CREATE UNIQUE INDEX email_addresses_address ON email_addresses (lower(address)) WHERE confirmed_at IS NOT NULL;

-- The mail outbox: one row a mail to send (or, for digests, a line of a
-- digest), written in the transaction that causes it. A row of a
-- notification copies what the mail needs, so pruning notifications never
-- waits for mail. `due_at` is when it may go: now, the user's next digest
-- hour, or (a reminder) when a quarter of the turn's time is left.
CREATE TABLE mail_outbox (
    user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    id              bigserial NOT NULL,
    kind            text NOT NULL,
    notification_id bigint,
    game_id         uuid,
    payload         jsonb NOT NULL DEFAULT '{}',
    digest          boolean NOT NULL DEFAULT false,
    due_at          timestamptz NOT NULL DEFAULT now(),
    state           text NOT NULL DEFAULT 'pending'
                    CHECK (state IN ('pending', 'sent', 'skipped', 'failed')),
    attempts        integer NOT NULL DEFAULT 0,
    last_error      text,
    sent_at         timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, id)
);
CREATE INDEX mail_outbox_due ON mail_outbox (due_at) WHERE state = 'pending';
CREATE INDEX mail_outbox_finished ON mail_outbox (coalesce(sent_at, created_at)) WHERE state <> 'pending';

-- The first `hour`:00 in time zone `tz` strictly after `at`, computed on the
-- local calendar (so a digest stays at its hour across daylight saving time).
CREATE FUNCTION hatstand_next_digest(hour smallint, tz text, at timestamptz)
RETURNS timestamptz LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN today > at THEN today
                ELSE ((date_trunc('day', at AT TIME ZONE tz) + interval '1 day'
                       + make_interval(hours => hour)) AT TIME ZONE tz)
           END
      FROM (SELECT (date_trunc('day', at AT TIME ZONE tz) + make_interval(hours => hour))
                   AT TIME ZONE tz AS today) t
$$;
