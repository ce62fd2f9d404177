-- The append-only audit log and the outbox of announcements.

CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    tournament_id INTEGER REFERENCES tournaments (id),
    actor_id INTEGER NOT NULL,
    actor_name TEXT NOT NULL,
    action TEXT NOT NULL,
    before TEXT,
    after TEXT,
    created_at TEXT NOT NULL
);
CREATE INDEX audit_tournament ON audit_log (tournament_id, id);
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;

CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER,
    tournament_id INTEGER REFERENCES tournaments (id),
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at TEXT NOT NULL,
    delivered_at TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    last_error TEXT
);
CREATE INDEX outbox_pending ON outbox (next_attempt_at, id) WHERE delivered_at IS NULL;
