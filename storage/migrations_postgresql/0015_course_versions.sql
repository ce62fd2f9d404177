-- PostgreSQL twin of storage/migrations/0015_course_versions.sql: the course version a
-- confirmation prompt carries, bumped when a round is paired or undone, the tournament's
-- status changes or a player's status changes or the player is removed (not by results).

ALTER TABLE tournaments ADD COLUMN course_version BIGINT NOT NULL DEFAULT 0;

CREATE FUNCTION bump_course_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        UPDATE tournaments SET course_version = course_version + 1 WHERE id = OLD.tournament_id;
        RETURN OLD;
    END IF;
    UPDATE tournaments SET course_version = course_version + 1 WHERE id = NEW.tournament_id;
    RETURN NEW;
END;
$$;

CREATE TRIGGER rounds_course AFTER INSERT OR DELETE ON rounds
    FOR EACH ROW EXECUTE FUNCTION bump_course_version();

CREATE TRIGGER players_status_course AFTER UPDATE OF status ON players
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION bump_course_version();

CREATE TRIGGER players_delete_course AFTER DELETE ON players
    FOR EACH ROW EXECUTE FUNCTION bump_course_version();

-- The tournament's own status: set on the row being written (no second UPDATE of it).
CREATE FUNCTION bump_course_on_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.course_version := OLD.course_version + 1;
    RETURN NEW;
END;
$$;

CREATE TRIGGER tournaments_status_course BEFORE UPDATE OF status ON tournaments
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION bump_course_on_status();
