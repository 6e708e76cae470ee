DROP TABLE tournament_events;
DROP TABLE tournament_tables;
DROP TABLE tournament_entries;
DROP TABLE tournament_rounds;
DROP TABLE tournaments;
