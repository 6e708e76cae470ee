ALTER TABLE games DROP COLUMN logged_at;
DROP TABLE log_heads;
DROP TABLE log_nodes;
DROP TABLE log_leaves;
