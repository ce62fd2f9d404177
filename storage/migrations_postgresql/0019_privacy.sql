-- A member's data on request (docs/deploy.md, "Privacy").

-- How long a server keeps its finished and cancelled events (0: for good), and how many of its
-- members asked to be forgotten: the next one becomes "Withdrawn player <count + 1>".
ALTER TABLE guild_settings ADD COLUMN retention_days BIGINT NOT NULL DEFAULT 0;
ALTER TABLE guild_settings ADD COLUMN forgotten_players BIGINT NOT NULL DEFAULT 0;

-- The outbox row of an event's last export, queued once when its retention ran out; the
-- event is deleted only once that row was delivered.
ALTER TABLE tournaments ADD COLUMN retention_export_id BIGINT;

-- The audit log stays append-only, with one exception: a redaction. When a member is
-- forgotten (or an event deleted), the entries that carried his name or id keep what
-- happened and when, without the personal data, and say when they were redacted.
ALTER TABLE audit_log ADD COLUMN redacted_at TEXT COLLATE "C";

CREATE FUNCTION audit_log_redaction_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.redacted_at IS NULL OR NEW.id IS DISTINCT FROM OLD.id
            OR NEW.guild_id IS DISTINCT FROM OLD.guild_id
            OR NEW.action IS DISTINCT FROM OLD.action
            OR NEW.created_at IS DISTINCT FROM OLD.created_at THEN
        RAISE EXCEPTION 'the audit log is append-only (only a redaction may change an entry)'
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END;
$$;

DROP TRIGGER audit_log_no_update ON audit_log;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_redaction_only();
