DROP TABLE pruned;
DROP INDEX sessions_by_revocation;
DROP INDEX sessions_by_expiry;
DROP INDEX webhook_deliveries_finished;
DROP INDEX notifications_by_age;
DROP INDEX idempotency_keys_by_age;
