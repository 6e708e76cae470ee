ALTER TABLE events DROP COLUMN schema_version;
