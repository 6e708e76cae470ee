-- The server's Ed25519 keys: the newest signs audits and tree heads; the
-- retired ones stay published so that what they signed still checks.
CREATE TABLE signing_keys (
    key_id text PRIMARY KEY,
    secret bytea NOT NULL,
    public_key bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    retired_at timestamptz
);
-- At most one key signs at a time (processes starting together make one).
CREATE UNIQUE INDEX signing_keys_current ON signing_keys ((retired_at IS NULL))
    WHERE retired_at IS NULL;
