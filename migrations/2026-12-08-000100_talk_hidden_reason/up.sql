-- Why an operator hid a message (`hatstand talk hide --reason`), kept with
-- when and by whom. A nullable column without a default: no row is
-- rewritten, and messages hidden before keep no reason.
ALTER TABLE talk_messages ADD COLUMN hidden_reason text;
