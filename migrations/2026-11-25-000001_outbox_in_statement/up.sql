-- The webhook outbox is filled by the statements that write notifications
-- (a data-modifying CTE joining the new notifications with `webhooks`), not
-- by a row trigger: one join per statement instead of a PL/pgSQL call per
-- notification, and the statement can say whether it queued deliveries, so
-- the webhook worker is woken only when there is work for it.
DROP TRIGGER notifications_fan_out ON notifications;
DROP FUNCTION notifications_fan_out();
