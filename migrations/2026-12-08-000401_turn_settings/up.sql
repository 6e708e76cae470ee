-- Turn conveniences (docs/turn-conveniences.md): each user's own settings
-- for how their turns are played. A user without a row has every setting
-- off. A new table only: nothing existing is rewritten or locked.
CREATE TABLE user_settings (
    user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    -- When the user's seat has exactly one legal command, the server plays
    -- it at once (event `turn_forced`, then the command with the user as
    -- actor).
    auto_play_forced boolean NOT NULL DEFAULT false,
    updated_at timestamptz NOT NULL
);
