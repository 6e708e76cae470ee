-- The version of its ruleset's rules a game is played under (`hats@1`: 1).
-- Games created before versions existed were played under version 1.
ALTER TABLE games ADD COLUMN rules_version smallint NOT NULL DEFAULT 1;
ALTER TABLE games ALTER COLUMN rules_version DROP DEFAULT;
