-- Back to the keys: checked for new rows at once (`NOT VALID` scans
-- nothing under the exclusive lock), old rows validated under a weaker one.
ALTER TABLE events ADD CONSTRAINT events_game_id_fkey
    FOREIGN KEY (game_id) REFERENCES games (id) NOT VALID;
ALTER TABLE events VALIDATE CONSTRAINT events_game_id_fkey;
ALTER TABLE notifications ADD CONSTRAINT notifications_user_id_fkey
    FOREIGN KEY (user_id) REFERENCES users (id) NOT VALID;
ALTER TABLE notifications VALIDATE CONSTRAINT notifications_user_id_fkey;
