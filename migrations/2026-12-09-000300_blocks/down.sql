DROP TABLE user_blocks;
