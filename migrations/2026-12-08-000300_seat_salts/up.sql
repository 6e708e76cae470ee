-- Each seat's salt (64 lowercase hex digits) under rules versions whose
-- seats contribute to the shuffle; NULL for every seat taken before them and
-- for games that take no salts. A nullable column without a default: no
-- table rewrite.
ALTER TABLE seats ADD COLUMN IF NOT EXISTS salt text;
