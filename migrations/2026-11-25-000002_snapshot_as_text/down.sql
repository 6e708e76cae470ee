ALTER TABLE games ALTER COLUMN state SET COMPRESSION default;
ALTER TABLE games ALTER COLUMN state TYPE jsonb USING state::jsonb;
