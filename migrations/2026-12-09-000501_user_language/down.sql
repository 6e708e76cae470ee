ALTER TABLE user_settings DROP COLUMN language;
