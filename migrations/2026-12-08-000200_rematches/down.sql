DROP TABLE rematches;
