-- A database grown enough that a plan reading other users' rows, or rows
-- not due, shows: 2,000 players and 20,000 games over a year (most over and
-- archived), their seats, events, notifications, deliveries, mails, keys and
-- sessions; a heavy player in one game of a hundred; a player with nothing.
-- users
INSERT INTO users (id, username, password_hash)
SELECT md5('plan-user' || u)::uuid, 'pu' || u, '!' FROM generate_series(0, 1999) u;
INSERT INTO users (id, username, password_hash) VALUES
  ('00000000-0000-4000-8000-00000000aaaa', 'planheavy', '!'),
  ('00000000-0000-4000-8000-00000000bbbb', 'plannobody', '!');
-- games: 20000 over a year, newest i = 0
INSERT INTO games (id, ruleset, players, options, seed, seed_public, seed_commitment, status, version,
                   last_hash, to_act, created_by, created_at, updated_at, private, rules_version,
                   deadline, archived_at)
SELECT md5('plan-game' || i)::uuid, 'hats', 3, '{}', '', false, '', st.status, 10, '',
       CASE WHEN st.status = 'active' THEN ARRAY[(i % 3)::smallint] ELSE '{}' END,
       CASE WHEN i % 100 = 0 THEN '00000000-0000-4000-8000-00000000aaaa'::uuid
            ELSE md5('plan-user' || (i * 7 % 2000))::uuid END,
       now() - make_interval(secs => i * 1500.0), now() - make_interval(secs => i * 1500.0 - 3600),
       i % 10 = 3, 1,
       CASE WHEN st.status = 'active' THEN now() + make_interval(secs => (i % 50 - 5) * 3600) END,
       CASE WHEN st.status IN ('finished', 'abandoned') AND i * 1500 > 31 * 86400
            THEN now() - make_interval(secs => i * 1500.0 - 3600 - 30 * 86400) END
  FROM generate_series(0, 19999) i,
       LATERAL (SELECT CASE WHEN i < 200 THEN (ARRAY['open', 'active', 'active', 'active'])[i % 4 + 1]
                            WHEN i % 50 = 1 THEN 'abandoned' ELSE 'finished' END AS status) st;
-- seats: three a game; the heavy player at seat 0 of every 100th, a bot at
-- seat 2 of every 10th; the copies of the game come from the trigger
INSERT INTO seats (game_id, seat, user_id, joined_at)
SELECT md5('plan-game' || i)::uuid, s,
       CASE WHEN s = 0 AND i % 100 = 0 THEN '00000000-0000-4000-8000-00000000aaaa'::uuid
            WHEN s = 2 AND i % 10 = 0 THEN ('00000000-0000-4000-8000-00000000b' || (i / 10 % 3 + 1) || '0' || (i / 10 % 5 + 1))::uuid
            ELSE md5('plan-user' || ((i * 7 + s) % 2000))::uuid END,
       now() - make_interval(secs => i * 1500.0)
  FROM generate_series(0, 19999) i, generate_series(0, 2) s;
-- events: five a game not archived, compacted
INSERT INTO events (game_id, seq, "type", data, created_at, digest)
SELECT g.id, q, 'x', '{}', g.created_at, sha256(g.id::text::bytea || q::text::bytea)
  FROM games g, generate_series(1, 5) q WHERE g.archived_at IS NULL;
-- notifications: 40 days of them, 60000, the heavy player's one in 50
INSERT INTO notifications (user_id, game_id, kind, payload, created_at)
SELECT CASE WHEN i % 50 = 0 THEN '00000000-0000-4000-8000-00000000aaaa'::uuid
            ELSE md5('plan-user' || (i % 2000))::uuid END,
       md5('plan-game' || (i % 20000))::uuid, 'your_turn', '{}', now() - make_interval(secs => i * 57.6)
  FROM generate_series(0, 59999) i;
-- webhooks of 200 users; their deliveries done but a few
INSERT INTO webhooks (id, user_id, url, secret)
SELECT md5('plan-hook' || u)::uuid, md5('plan-user' || u)::uuid, 'https://example.com/h', 's'
  FROM generate_series(0, 1999, 10) u;
INSERT INTO webhook_deliveries (webhook_id, notification_id, user_id, state, attempts, next_attempt_at,
                                last_attempt_at, delivered_at)
SELECT w.id, n.id, n.user_id, CASE WHEN n.id % 4000 = 0 THEN 'pending' ELSE 'delivered' END, 1,
       n.created_at, n.created_at, CASE WHEN n.id % 4000 <> 0 THEN n.created_at END
  FROM notifications n JOIN webhooks w ON w.user_id = n.user_id;
-- mail: addresses of 500 users; their mails sent but a few
INSERT INTO email_addresses (user_id, address, confirmed_at)
SELECT md5('plan-user' || u)::uuid, 'pu' || u || '@example.com', now() - interval '60 days'
  FROM generate_series(0, 1999, 4) u;
INSERT INTO mail_outbox (user_id, kind, game_id, due_at, state, sent_at, created_at)
SELECT n.user_id, 'your_turn', n.game_id, n.created_at, CASE WHEN n.id % 3000 = 0 THEN 'pending' ELSE 'sent' END,
       CASE WHEN n.id % 3000 <> 0 THEN n.created_at END, n.created_at
  FROM notifications n JOIN email_addresses e ON e.user_id = n.user_id;
-- idempotency keys and sessions of the last days
INSERT INTO idempotency_keys (user_id, key, game_id, request_hash, response_status, response_body, created_at)
SELECT s.user_id, 'k' || s.game_id, s.game_id, '', 200, '{}', now() - make_interval(secs => (abs(hashtext(s.game_id::text)) % 86400) * 1.0)
  FROM seats s WHERE s.game_status = 'active' OR s.game_created_at > now() - interval '20 days';
INSERT INTO sessions (id, user_id, refresh_hash, rotated_at, created_at, expires_at)
SELECT md5('plan-session' || u)::uuid, md5('plan-user' || (u % 2000))::uuid, '\x00', now(), now() - interval '1 day', now() + make_interval(days => u % 30)
  FROM generate_series(0, 9999) u;
ANALYZE;
