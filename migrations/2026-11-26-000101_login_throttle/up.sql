-- Failed logins per account and per client address, in fixed windows, so
-- that every server process on this database throttles the same guesses.
CREATE TABLE login_failures (
    key text PRIMARY KEY,              -- 'account:<lower username>' or 'address:<ip>'
    window_start timestamptz NOT NULL,
    failures integer NOT NULL
);
