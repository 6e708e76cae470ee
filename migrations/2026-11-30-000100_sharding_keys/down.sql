ALTER TABLE webhook_deliveries
    DROP CONSTRAINT webhook_deliveries_user_id_webhook_id_fkey,
    ADD FOREIGN KEY (webhook_id) REFERENCES webhooks (id) ON DELETE CASCADE;
ALTER TABLE webhooks DROP CONSTRAINT webhooks_user_id_id_key;

ALTER TABLE webhook_deliveries
    DROP CONSTRAINT webhook_deliveries_user_id_notification_id_fkey,
    DROP CONSTRAINT webhook_deliveries_user_id_notification_id_webhook_id_key,
    DROP CONSTRAINT webhook_deliveries_pkey;

CREATE INDEX notifications_by_user ON notifications (user_id, id);
ALTER TABLE notifications
    DROP CONSTRAINT notifications_pkey,
    ADD PRIMARY KEY (id),
    ADD FOREIGN KEY (game_id) REFERENCES games (id);

ALTER TABLE webhook_deliveries
    ADD PRIMARY KEY (id),
    ADD UNIQUE (webhook_id, notification_id),
    ADD FOREIGN KEY (notification_id) REFERENCES notifications (id),
    DROP COLUMN user_id;

-- A key used on two games keeps its latest use only.
DELETE FROM idempotency_keys k
 USING idempotency_keys o
 WHERE o.user_id = k.user_id AND o.key = k.key
   AND (o.created_at, o.game_id) > (k.created_at, k.game_id);
ALTER TABLE idempotency_keys
    DROP CONSTRAINT idempotency_keys_pkey,
    ADD PRIMARY KEY (user_id, key);
