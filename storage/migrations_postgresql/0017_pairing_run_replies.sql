-- The command that started a pairing run (as storage/migrations/0017_pairing_run_replies.sql):
-- the chat app's id, the command's reply token and until when it is valid; deleted with the run.
ALTER TABLE pairing_runs ADD COLUMN reply_application_id BIGINT;
ALTER TABLE pairing_runs ADD COLUMN reply_token TEXT COLLATE "C";
ALTER TABLE pairing_runs ADD COLUMN reply_until TEXT COLLATE "C";
