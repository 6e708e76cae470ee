-- Native app channels (docs/push.md): a registration is a Web Push
-- subscription (`web`: an endpoint and its keys) or a device token of
-- Firebase Cloud Messaging (`fcm`) or of the Apple Push Notification
-- service (`apns`), kept in `endpoint`, without keys. A constant default
-- and dropped NOT NULLs change only the catalog; the check is added NOT
-- VALID (no scan under the lock) and validated by the next migration.
ALTER TABLE push_subscriptions ADD COLUMN channel text NOT NULL DEFAULT 'web';
ALTER TABLE push_subscriptions ALTER COLUMN p256dh DROP NOT NULL;
ALTER TABLE push_subscriptions ALTER COLUMN auth DROP NOT NULL;
ALTER TABLE push_subscriptions ADD CONSTRAINT push_subscriptions_channel_check
    CHECK (channel IN ('fcm', 'apns')
           OR (channel = 'web' AND p256dh IS NOT NULL AND auth IS NOT NULL)) NOT VALID;
