-- A confirmation code is kept in the mail outbox only while its mail waits to
-- go (the server now drops it when the mail is sent, skipped or given up):
-- the codes of mails already done go too. The address keeps its hash.
UPDATE mail_outbox
   SET payload = payload - 'code'
 WHERE kind = 'confirm_address' AND state <> 'pending' AND payload ? 'code';
