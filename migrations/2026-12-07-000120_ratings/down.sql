DROP TABLE ratings_cursor;
DROP TABLE rating_changes;
DROP TABLE ratings;
DROP TRIGGER games_number_finish_insert ON games;
DROP TRIGGER games_number_finish_update ON games;
DROP FUNCTION games_number_finish();
DROP SEQUENCE games_finish_seq;
ALTER TABLE games DROP COLUMN finish_seq;
