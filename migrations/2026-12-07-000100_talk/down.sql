DROP TABLE operators;
DROP TABLE talk_reports;
DROP TABLE talk_mutes;
DROP TABLE talk_messages;
