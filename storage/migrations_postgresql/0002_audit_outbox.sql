-- PostgreSQL twin of storage/migrations/0002_audit_outbox.sql: the same tables and columns.
-- BIGINT for SQLite's 64-bit INTEGER, BIGSERIAL ids, TEXT COLLATE "C" so text sorts
-- and compares byte-wise as in SQLite, lower(name) for COLLATE NOCASE.
-- The append-only audit log and the outbox of announcements.

CREATE TABLE audit_log (
    id BIGSERIAL PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    tournament_id BIGINT REFERENCES tournaments (id),
    actor_id BIGINT NOT NULL,
    actor_name TEXT COLLATE "C" NOT NULL,
    action TEXT COLLATE "C" NOT NULL,
    before TEXT COLLATE "C",
    after TEXT COLLATE "C",
    created_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX audit_tournament ON audit_log (tournament_id, id);
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the audit log is append-only' USING ERRCODE = 'restrict_violation';
END;
$$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();

CREATE TABLE outbox (
    id BIGSERIAL PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    channel_id BIGINT,
    tournament_id BIGINT REFERENCES tournaments (id),
    kind TEXT COLLATE "C" NOT NULL,
    payload TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    delivered_at TEXT COLLATE "C",
    attempts BIGINT NOT NULL DEFAULT 0,
    next_attempt_at TEXT COLLATE "C" NOT NULL,
    last_error TEXT COLLATE "C"
);
CREATE INDEX outbox_pending ON outbox (next_attempt_at, id) WHERE delivered_at IS NULL;
