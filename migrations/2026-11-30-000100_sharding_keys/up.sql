-- Keys a sharded cluster can enforce (deploy/citus.sql distributes the
-- tables). A shard enforces only the unique keys that include the column its
-- table is distributed by, and a foreign key only between rows of one shard.

-- Idempotency keys are distributed with their game: a key is unique per user
-- and game (it answers retries of a command to that game). Every stored key
-- stays unique under the wider key.
ALTER TABLE idempotency_keys
    DROP CONSTRAINT idempotency_keys_pkey,
    ADD PRIMARY KEY (game_id, user_id, key);

-- Notifications and their webhook deliveries are distributed by the user
-- they are for. A delivery names its user (the notification's), so that it
-- lives on the same shard as its notification and the foreign key joins the
-- two by user.
ALTER TABLE webhook_deliveries ADD COLUMN user_id uuid;
UPDATE webhook_deliveries d SET user_id = n.user_id
  FROM notifications n
 WHERE n.id = d.notification_id;
ALTER TABLE webhook_deliveries
    ALTER COLUMN user_id SET NOT NULL,
    DROP CONSTRAINT webhook_deliveries_notification_id_fkey,
    DROP CONSTRAINT webhook_deliveries_pkey,
    DROP CONSTRAINT webhook_deliveries_webhook_id_notification_id_key,
    ADD PRIMARY KEY (user_id, id),
    -- Also the index behind the foreign key below (pruning finds a
    -- notification's deliveries through it).
    ADD UNIQUE (user_id, notification_id, webhook_id);

-- A notification's game lives on another shard (the game's): the game id
-- stays, its foreign key goes (games are never deleted).
ALTER TABLE notifications
    DROP CONSTRAINT notifications_game_id_fkey,
    DROP CONSTRAINT notifications_pkey,
    ADD PRIMARY KEY (user_id, id);
-- The new primary key serves the feed (a user's notifications by id).
DROP INDEX notifications_by_user;

ALTER TABLE webhook_deliveries
    ADD FOREIGN KEY (user_id, notification_id) REFERENCES notifications (user_id, id);

-- A delivery's webhook is its user's. Deleting a webhook then finds its
-- deliveries among its user's (the unique key above leads with the user)
-- instead of scanning the table.
ALTER TABLE webhooks ADD UNIQUE (user_id, id);
ALTER TABLE webhook_deliveries
    DROP CONSTRAINT webhook_deliveries_webhook_id_fkey,
    ADD FOREIGN KEY (user_id, webhook_id) REFERENCES webhooks (user_id, id) ON DELETE CASCADE;
