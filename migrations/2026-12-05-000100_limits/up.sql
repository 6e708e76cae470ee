-- Limits shared by every server process: one row per counted key (a login
-- attempt for an account at an address, games a user created this hour, an
-- invitation mailed to a user today, a reply token answered...), a window
-- that starts at its first use, the uses in it, and the last use (for the
-- rising delays of an account's failed logins). A use is reserved with the
-- row locked before the work it pays for, so concurrent requests cannot
-- all slip under a limit. `login_failures` is no longer written; a later
-- release drops it.
CREATE TABLE limit_windows (
    key text PRIMARY KEY,
    window_start timestamptz NOT NULL,
    used integer NOT NULL,
    last_at timestamptz NOT NULL
);

-- The client addresses each account signed in from lately: a login from
-- one of them is not slowed by someone else's failures for the account.
CREATE TABLE login_addresses (
    user_id uuid NOT NULL,
    address text NOT NULL,
    last_login timestamptz NOT NULL,
    PRIMARY KEY (user_id, address)
);
