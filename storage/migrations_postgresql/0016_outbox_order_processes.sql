-- The channel order index and the delivering processes (as
-- storage/migrations/0016_outbox_order_processes.sql).
DROP INDEX outbox_channel_pending;
CREATE INDEX outbox_channel_order ON outbox (channel_id, id)
    WHERE delivered_at IS NULL AND next_attempt_at < '9999';

CREATE TABLE outbox_processes (
    claimant TEXT COLLATE "C" PRIMARY KEY,
    shard_count BIGINT NOT NULL,
    shard_ids TEXT COLLATE "C" NOT NULL,
    seen_at TEXT COLLATE "C" NOT NULL
);
