-- The order of each channel is a property of the stored outbox, whichever process claims: a
-- row is due only when every earlier row of its channel is delivered or given up (a failed
-- row keeps its retry time in next_attempt_at and holds the later ones back until then).
-- This index finds a row's earlier pending rows of its channel. Given-up rows (retry time in
-- the year 9999) hold nothing back and pile up over the years: they are left out of it.
DROP INDEX outbox_channel_pending;
CREATE INDEX outbox_channel_order ON outbox (channel_id, id)
    WHERE delivered_at IS NULL AND next_attempt_at < '9999';

-- The processes delivering the outbox, one row each while it runs: the shards it serves and
-- when it last renewed its leases. A shard whose process has not renewed for a lease is
-- served by the others (its announcements are posted over REST by any process), so the
-- posts of a process that is gone for good resume without it.
CREATE TABLE outbox_processes (
    claimant TEXT PRIMARY KEY,
    shard_count INTEGER NOT NULL,
    shard_ids TEXT NOT NULL,
    seen_at TEXT NOT NULL
);
