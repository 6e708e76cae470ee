-- Validates the channel check added NOT VALID before: a scan under SHARE
-- UPDATE EXCLUSIVE, which lets reads and writes go on.
ALTER TABLE push_subscriptions VALIDATE CONSTRAINT push_subscriptions_channel_check;
