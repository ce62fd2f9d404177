-- Issue 13: an announcement whose standings are computed after the commit (a big event's
-- standings are a second of arithmetic: not inside the write transaction, not in the event
-- loop). The operation writes the row in its own transaction with `deferred` = what to
-- compute (JSON: the round, the revision it describes, final or not); a second short
-- transaction fills in the payload and sets `deferred` back to NULL, exactly once (UPDATE
-- ... WHERE deferred IS NOT NULL). A row with `deferred` set is never delivered, and holds
-- back the later rows of its channel, so the channel keeps its order; a process that stops
-- between the two transactions leaves the row for the start-up recovery to complete.

ALTER TABLE outbox ADD COLUMN deferred TEXT;
CREATE INDEX outbox_deferred ON outbox (id) WHERE deferred IS NOT NULL;
