-- Validates the notifications' kind check added NOT VALID before: a scan
-- under SHARE UPDATE EXCLUSIVE, which lets reads and writes go on.
ALTER TABLE notifications VALIDATE CONSTRAINT notifications_kind_check;
