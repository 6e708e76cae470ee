DELETE FROM push_subscriptions WHERE channel <> 'web';
ALTER TABLE push_subscriptions DROP CONSTRAINT push_subscriptions_channel_check;
ALTER TABLE push_subscriptions ALTER COLUMN auth SET NOT NULL;
ALTER TABLE push_subscriptions ALTER COLUMN p256dh SET NOT NULL;
ALTER TABLE push_subscriptions DROP COLUMN channel;
