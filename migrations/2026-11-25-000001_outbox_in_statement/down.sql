CREATE FUNCTION notifications_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO webhook_deliveries (webhook_id, notification_id)
    SELECT w.id, NEW.id FROM webhooks w WHERE w.user_id = NEW.user_id;
    RETURN NULL;
END
$$;
CREATE TRIGGER notifications_fan_out AFTER INSERT ON notifications
    FOR EACH ROW EXECUTE FUNCTION notifications_fan_out();
