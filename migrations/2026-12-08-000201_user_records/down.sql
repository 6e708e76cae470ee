DROP TRIGGER seats_count_ended ON seats;
DROP FUNCTION seats_count_ended();
DROP TRIGGER games_zz_count_ended ON games;
DROP FUNCTION games_count_ended();
DROP FUNCTION user_records_count(uuid, smallint);
ALTER TABLE seats DROP COLUMN counted;
DROP TABLE user_records;
