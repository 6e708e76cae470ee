-- The transparency log of games that are over (RFC 9162's Merkle tree):
-- one leaf per game, appended once and never changed.
CREATE TABLE log_leaves (
    idx bigint PRIMARY KEY,
    game_id uuid NOT NULL UNIQUE,
    final_hash bytea NOT NULL,
    logged_at timestamptz NOT NULL DEFAULT now()
);
-- The hash of every complete subtree: level 0 the leaves, level l the 2^l
-- leaves from idx * 2^l. Any proof and any root reads O(log n) of them.
CREATE TABLE log_nodes (
    level smallint NOT NULL,
    idx bigint NOT NULL,
    hash bytea NOT NULL,
    PRIMARY KEY (level, idx)
);
-- The signed tree heads, one per size the log had when one was signed.
CREATE TABLE log_heads (
    tree_size bigint PRIMARY KEY,
    root_hash bytea NOT NULL,
    timestamp_ms bigint NOT NULL,
    key_id text NOT NULL,
    signature bytea NOT NULL
);
-- When a game's leaf was appended (NULL: over but not yet logged, or still
-- played). Nullable without a default: no rewrite of the table.
ALTER TABLE games ADD COLUMN logged_at timestamptz;
