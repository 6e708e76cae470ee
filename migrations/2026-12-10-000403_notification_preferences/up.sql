-- Notification preferences (docs/push.md): per user, the kinds each
-- channel leaves out, quiet hours for pushes (minutes of the day in the
-- user's time zone), and how long before a clock runs out the reminder
-- comes (null: when a quarter of the turn's time is left). A new table,
-- and a nullable column on the push outbox (catalog only).
CREATE TABLE notification_preferences (
    user_id         uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    push_off        text[] NOT NULL DEFAULT '{}',
    email_off       text[] NOT NULL DEFAULT '{}',
    webhooks_off    text[] NOT NULL DEFAULT '{}',
    quiet_start     smallint CHECK (quiet_start BETWEEN 0 AND 1439),
    quiet_end       smallint CHECK (quiet_end BETWEEN 0 AND 1439),
    reminder_before_minutes integer CHECK (reminder_before_minutes BETWEEN 5 AND 10080),
    updated_at      timestamptz NOT NULL,
    CHECK ((quiet_start IS NULL) = (quiet_end IS NULL) AND quiet_start <> quiet_end)
);

-- A push held in quiet hours: until when. A held push that finds a newer
-- one of its game due when it may go is skipped, replaced by it.
ALTER TABLE push_outbox ADD COLUMN held_until timestamptz;

-- When a reminder is due for a turn queued at `queued` whose clock runs
-- out at `deadline`: `lead_minutes` before it, or, with no lead chosen,
-- when a quarter of the turn's time is left. Null (no reminder) when the
-- lead is as long as the turn or longer: the turn's own notice says it.
CREATE FUNCTION hatstand_reminder_due(deadline timestamptz, queued timestamptz, lead_minutes integer)
RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN deadline IS NULL THEN NULL
                WHEN lead_minutes IS NULL THEN deadline - (deadline - queued) / 4
                WHEN deadline - make_interval(mins => lead_minutes) > queued
                     THEN deadline - make_interval(mins => lead_minutes)
           END
$$;
