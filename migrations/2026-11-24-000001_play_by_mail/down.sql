DROP TRIGGER notifications_fan_out ON notifications;
DROP FUNCTION notifications_fan_out();
DROP TABLE webhook_deliveries;
DROP TABLE webhooks;
DROP TABLE notifications;
DROP TABLE invitations;
ALTER TABLE seats DROP COLUMN vacation_used_secs, DROP COLUMN timeouts, DROP COLUMN resigned_at;
DROP INDEX games_due;
ALTER TABLE games DROP COLUMN server_options, DROP COLUMN deadline, DROP COLUMN private, DROP COLUMN invite_code;
