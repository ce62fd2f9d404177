-- The command that started a pairing run, so that a bot restarted after a crash can answer it
-- ("round 4 was interrupted: run /round next again") instead of leaving it "thinking" for
-- good: the chat app's id and the command's reply token, and until when the token is valid.
-- A run's row is deleted when the run ends, and the token with it.
ALTER TABLE pairing_runs ADD COLUMN reply_application_id INTEGER;
ALTER TABLE pairing_runs ADD COLUMN reply_token TEXT;
ALTER TABLE pairing_runs ADD COLUMN reply_until TEXT;
