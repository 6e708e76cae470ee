ALTER TABLE user_settings DROP COLUMN time_zone;
ALTER TABLE seats DROP COLUMN clock;
