DROP TABLE idempotency_keys;
DROP TABLE events;
DROP FUNCTION events_are_append_only();
DROP TABLE seats;
DROP TABLE games;
DROP TABLE server_secrets;
DROP TABLE users;
