DROP TABLE user_settings;
