-- Sign-in sessions: one row a device login. Access tokens name their session
-- (`sid`) and are honoured only while it is not revoked; the session's
-- refresh token rotates on every use (only its SHA-256 is kept), and a
-- rotated one presented again revokes the session (the family).
CREATE TABLE sessions (
    id uuid PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    refresh_hash bytea NOT NULL,           -- SHA-256 of the current refresh secret
    previous_hash bytea,                   -- of the one it replaced (a lost answer's retry)
    rotated_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,       -- the refresh token's end (slides with each use)
    revoked_at timestamptz,
    revoked_why text                        -- logout, logout_all, password_changed, refresh_reused, evicted
);

CREATE INDEX sessions_live_of_user ON sessions (user_id) WHERE revoked_at IS NULL;
