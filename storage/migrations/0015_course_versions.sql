-- The course version of a tournament: bumped whenever its course changes, that is a round is
-- paired or undone, the tournament starts, finishes or is cancelled, or a player's status
-- changes (a drop, a withdrawal, a re-admission) or a player is removed. A confirmation
-- prompt for a destructive action (a forced /round next, an undo with results, a finish with
-- open games, a cancel, a drop) carries the version it was shown for; the action is refused
-- unless the version is still the same, so the first click acts and any later click of that
-- prompt, or of an older one, is refused. Results do not bump it: a prompt stays usable while
-- players report the games it leaves open. Triggers, not the code, bump it, so a write path
-- added later cannot forget to.

ALTER TABLE tournaments ADD COLUMN course_version INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER rounds_insert_course AFTER INSERT ON rounds
BEGIN
    UPDATE tournaments SET course_version = course_version + 1 WHERE id = NEW.tournament_id;
END;

CREATE TRIGGER rounds_delete_course AFTER DELETE ON rounds
BEGIN
    UPDATE tournaments SET course_version = course_version + 1 WHERE id = OLD.tournament_id;
END;

CREATE TRIGGER tournaments_status_course AFTER UPDATE OF status ON tournaments
WHEN OLD.status IS NOT NEW.status
BEGIN
    UPDATE tournaments SET course_version = course_version + 1 WHERE id = NEW.id;
END;

CREATE TRIGGER players_status_course AFTER UPDATE OF status ON players
WHEN OLD.status IS NOT NEW.status
BEGIN
    UPDATE tournaments SET course_version = course_version + 1 WHERE id = NEW.tournament_id;
END;

CREATE TRIGGER players_delete_course AFTER DELETE ON players
BEGIN
    UPDATE tournaments SET course_version = course_version + 1 WHERE id = OLD.tournament_id;
END;
