-- Blocks (docs/seats.md): who blocked whom. A blocked user's invitations
-- never reach the blocker, the two never sit at one open table, and the
-- blocked user's talk reaches the blocker nowhere. The blocked user is not
-- told. A new table only: nothing existing is rewritten or locked.
CREATE TABLE user_blocks (
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    blocked uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (user_id, blocked),
    CHECK (user_id <> blocked)
);
-- Who blocks a user (a seat's check looks both ways). A new, empty table:
-- built at once.
CREATE INDEX user_blocks_by_blocked ON user_blocks (blocked, user_id);
