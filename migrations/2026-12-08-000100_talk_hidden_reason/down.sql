ALTER TABLE talk_messages DROP COLUMN hidden_reason;
