DROP FUNCTION hatstand_reminder_due(timestamptz, timestamptz, integer);
ALTER TABLE push_outbox DROP COLUMN held_until;
DROP TABLE notification_preferences;
