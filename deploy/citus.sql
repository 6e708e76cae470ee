-- Distributing hatstand's tables over a Citus cluster.
--
-- Run once, on the coordinator, in the database the server has migrated
-- (`hatstand migrate`), before the server takes traffic on the cluster:
--
--     psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -f deploy/citus.sql
--
-- Later migrations run on the coordinator as before (Citus carries DDL to
-- the shards). Every table of the schema has exactly one class here; the
-- test `sharding` (tests/api/sharding.rs) reads this file and checks the
-- migrated schema against the rules of each class, so a migration that adds
-- a table, or a key a shard could not enforce, fails it.
--
-- The classes:
--
-- * Distributed by game: every row of a game on one shard, found by the game
--   id. Their unique keys include the game id; their foreign keys to one
--   another join on it. A command reads and writes one game's shard.
-- * Distributed by user: what is told to a user (notifications, their
--   webhook deliveries and mails), on the user's shard. Same rules, with the user id.
-- * Reference: copied to every node, so that every shard can join them
--   locally: accounts, sessions, webhooks and email addresses (read by every command, written
--   rarely), and the server's own small settings. A write goes to every node.
-- * Local: left on the coordinator (`-- local: <table>` below), for rows the
--   server keeps about itself that no distributed query joins.

CREATE EXTENSION IF NOT EXISTS citus;

-- The event log's triggers (append-only; events leave only for the archive)
-- read rows of their own game only (`events`, `archived_games`), which are
-- on the same shard: they are safe to run on the shards. So do the triggers
-- that copy a game's creation time and status to its seats (`seats`,
-- `games`, colocated by game).
SET citus.enable_unsafe_triggers TO on;

-- Reference tables first: the distributed tables' foreign keys point at them.
SELECT create_reference_table('users');
SELECT create_reference_table('sessions');
SELECT create_reference_table('webhooks');
SELECT create_reference_table('email_addresses');
SELECT create_reference_table('server_secrets');
SELECT create_reference_table('signing_keys');
SELECT create_reference_table('pruned');
SELECT create_reference_table('talk_mutes');
-- Blocks, read with the seats of a table and with talk, as mutes are.
SELECT create_reference_table('user_blocks');
-- A user's turn settings, read per seat by the command's load, as users are.
SELECT create_reference_table('user_settings');
-- Notification preferences, read with each user's notifications by the outboxes.
SELECT create_reference_table('notification_preferences');
SELECT create_reference_table('operators');

-- Distributed by game. `games` is keyed by its own id; the rest by `game_id`.
SELECT create_distributed_table('games', 'id', colocate_with => 'none');
SELECT create_distributed_table('seats', 'game_id', colocate_with => 'games');
SELECT create_distributed_table('events', 'game_id', colocate_with => 'games');
SELECT create_distributed_table('invitations', 'game_id', colocate_with => 'games');
SELECT create_distributed_table('idempotency_keys', 'game_id', colocate_with => 'games');
SELECT create_distributed_table('archived_games', 'game_id', colocate_with => 'games');
SELECT create_distributed_table('talk_messages', 'game_id', colocate_with => 'games');
SELECT create_distributed_table('talk_reports', 'game_id', colocate_with => 'games');
-- Substitutes (docs/seats.md): each takeover with its game.
SELECT create_distributed_table('seat_substitutions', 'game_id', colocate_with => 'games');

-- Distributed by user.
SELECT create_distributed_table('notifications', 'user_id', colocate_with => 'none');
SELECT create_distributed_table('webhook_deliveries', 'user_id', colocate_with => 'notifications');
SELECT create_distributed_table('mail_outbox', 'user_id', colocate_with => 'notifications');
-- Web Push: a user's subscriptions and their outbox, with the user's notifications.
SELECT create_distributed_table('push_subscriptions', 'user_id', colocate_with => 'notifications');
SELECT create_distributed_table('push_outbox', 'user_id', colocate_with => 'notifications');

-- Ratings (docs/ratings.md): each game's changes with the game, each
-- player's ratings with the player.
SELECT create_distributed_table('rating_changes', 'game_id', colocate_with => 'games');
SELECT create_distributed_table('ratings', 'user_id', colocate_with => 'notifications');
-- Each player's games over by outcome, with the player.
SELECT create_distributed_table('user_records', 'user_id', colocate_with => 'notifications');
-- A rematch offer with the finished game it is offered on.
SELECT create_distributed_table('rematches', 'game_id', colocate_with => 'games');
-- A seat's conditional lines with their game (read by the game's load).
SELECT create_distributed_table('conditional_lines', 'game_id', colocate_with => 'games');
-- Tournaments (docs/tournaments.md): every row of a tournament (its rounds,
-- registrations, tables and record) with the tournament. A table names its
-- game by id only (no foreign key across the groups).
SELECT create_distributed_table('tournaments', 'id', colocate_with => 'none');
SELECT create_distributed_table('tournament_rounds', 'tournament_id', colocate_with => 'tournaments');
SELECT create_distributed_table('tournament_entries', 'tournament_id', colocate_with => 'tournaments');
SELECT create_distributed_table('tournament_tables', 'tournament_id', colocate_with => 'tournaments');
SELECT create_distributed_table('tournament_events', 'tournament_id', colocate_with => 'tournaments');

-- local: login_failures
--   Failed-login counters, written on every wrong password. Behind a single
--   coordinator every process shares them; with clients spread over several
--   nodes, each node throttles on its own. No longer written (see
--   limit_windows); a later release drops it.
-- local: limit_windows
--   The limits' counters (logins, games created, invitations mailed, reply
--   tokens answered), reserved before the work they pay for; like
--   login_failures, shared by every process behind one coordinator.
-- local: login_addresses
--   The addresses each account signed in from lately, read by logins only.
-- local: ratings_cursor
--   The ratings projection's one-row cursor, read and written under its lock.
-- local: __diesel_schema_migrations
--   The migrations applied; migrations run on the coordinator.
-- local: log_leaves
--   The transparency log's leaves, one per game over: appended by one
--   sequencer at a time (an advisory lock on the coordinator), read by
--   proofs; no distributed query joins them.
-- local: log_nodes
--   The log's complete subtrees, written once with the leaves.
-- local: log_heads
--   The log's signed tree heads.
