-- Several bot processes may share one database (Discord shards in groups, issue 17). A process
-- CLAIMS the outbox rows it is about to post: claimed_by names it, lease_until says until when
-- the others leave the rows alone. A process killed mid-delivery leaves a lease that simply
-- expires; the next claimant posts the row again with the same nonce, and Discord (enforce_nonce)
-- returns the earlier message instead of posting a second one. Times are ISO text, as elsewhere.

ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN lease_until TEXT;
-- The claim keeps each channel in order: it skips a row while an earlier row of the same
-- channel is leased by another process.
CREATE INDEX outbox_channel_pending ON outbox (channel_id, id) WHERE delivered_at IS NULL;
