-- Bots are users. `kind` labels every account: 'human', or 'bot' for the
-- server's built-in bots and for accounts their owners turned into bots.
-- `bot_level` is set for the built-in bots only: the server plays their
-- seats at that level (its bot worker). Existing accounts are human.
ALTER TABLE users
    ADD COLUMN kind text NOT NULL DEFAULT 'human' CHECK (kind IN ('human', 'bot')),
    ADD COLUMN bot_level text CHECK (bot_level IN ('random', 'greedy', 'ismcts')),
    ADD CONSTRAINT users_level_is_a_bot CHECK (bot_level IS NULL OR kind = 'bot');

-- The built-in bots: five accounts per level (a table seats at most five
-- bots beside one player), `bot.<level>` then `bot.<level>.2` to `.5`.
-- Their names hold a dot, which no registered name can, and their password
-- hash is no hash: nobody signs in as them.
INSERT INTO users (id, username, password_hash, kind, bot_level)
SELECT ('00000000-0000-4000-8000-00000000b' || l.n || '0' || i)::uuid,
       'bot.' || l.level || CASE WHEN i = 1 THEN '' ELSE '.' || i END,
       '!', 'bot', l.level
  FROM (VALUES (1, 'random'), (2, 'greedy'), (3, 'ismcts')) AS l (n, level),
       generate_series(1, 5) AS i;
