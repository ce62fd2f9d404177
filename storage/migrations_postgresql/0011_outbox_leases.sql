-- The outbox leases (as storage/migrations/0011_outbox_leases.sql): the process that claimed a
-- row, and until when (ISO text, compared bytewise like every time here: COLLATE "C").

ALTER TABLE outbox ADD COLUMN claimed_by TEXT COLLATE "C";
ALTER TABLE outbox ADD COLUMN lease_until TEXT COLLATE "C";
CREATE INDEX outbox_channel_pending ON outbox (channel_id, id) WHERE delivered_at IS NULL;
