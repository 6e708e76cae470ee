DELETE FROM seats WHERE user_id IN (SELECT id FROM users WHERE bot_level IS NOT NULL);
DELETE FROM users WHERE bot_level IS NOT NULL;
ALTER TABLE users DROP COLUMN bot_level, DROP COLUMN kind;
