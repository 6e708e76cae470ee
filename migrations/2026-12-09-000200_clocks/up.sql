-- Clocks (docs/clocks.md). Both columns are new, nullable and without a
-- default: a catalog change only, nothing rewritten, no long lock.
--
-- A seat's clock in a game with a `clock` option (or a weekend pause): its
-- zone, its bank, when its running turn began. NULL in every game played
-- on the fixed per-turn clock (all games created before clocks).
ALTER TABLE seats ADD COLUMN clock jsonb;
-- A user's time zone (IANA name, e.g. Europe/Paris): weekends and turn
-- mails are reckoned in it. NULL: UTC.
ALTER TABLE user_settings ADD COLUMN time_zone text;
