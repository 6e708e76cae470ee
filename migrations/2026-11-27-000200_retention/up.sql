-- Retention: what expires is found by age, through these indexes, and
-- pruned in small batches by every server process.
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
CREATE INDEX notifications_by_age ON notifications (created_at);
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (coalesce(delivered_at, last_attempt_at))
    WHERE state <> 'pending';
CREATE INDEX sessions_by_expiry ON sessions (expires_at);
CREATE INDEX sessions_by_revocation ON sessions (revoked_at) WHERE revoked_at IS NOT NULL;

-- How far pruning has gone, for cursors that point into what is gone: a
-- notification cursor below `upto` may have missed pruned notifications.
CREATE TABLE pruned (
    what text PRIMARY KEY,
    upto bigint NOT NULL
);
INSERT INTO pruned (what, upto) VALUES ('notifications', 0);
