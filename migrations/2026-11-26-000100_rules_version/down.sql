ALTER TABLE games DROP COLUMN rules_version;
