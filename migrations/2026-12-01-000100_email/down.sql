DROP FUNCTION hatstand_next_digest(smallint, text, timestamptz);
DROP TABLE mail_outbox;
DROP TABLE email_addresses;
