-- Every event carries the schema version it was written under, so a record
-- can be read (upcast) after an event changes shape. Rows written before
-- are version 1. Not part of the hash: adding the column changes no chain.
ALTER TABLE events ADD COLUMN schema_version smallint NOT NULL DEFAULT 1;
