-- Deferred announcements (as storage/migrations/0014_deferred_announcements.sql): `deferred`
-- holds what to compute after the commit (JSON text); NULL once the payload is filled in.

ALTER TABLE outbox ADD COLUMN deferred TEXT;
CREATE INDEX outbox_deferred ON outbox (id) WHERE deferred IS NOT NULL;
