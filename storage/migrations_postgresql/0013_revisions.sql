-- PostgreSQL twin of storage/migrations/0013_revisions.sql.
-- Issue 13: a revision per tournament, bumped by every write to what a pairing is computed
-- from (players, rounds, games' pairings and results, byes, bye requests, forbidden pairs,
-- the top cut's boundary). A round paired outside the transaction (service.pairing_runs)
-- reads it with the snapshot and again before storing: equal means nothing it was computed
-- from changed, without reading the whole event a second time. Triggers, not the code, bump
-- it, so a write path added later cannot forget to. Games are inserted and deleted only
-- with their round (the round's trigger counts them), so a 1,500-board round costs one bump,
-- not 1,500. The tournament row itself (settings) is compared by the service.

ALTER TABLE tournaments ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;

CREATE FUNCTION bump_tournament_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        UPDATE tournaments SET revision = revision + 1 WHERE id = OLD.tournament_id;
        RETURN OLD;
    END IF;
    UPDATE tournaments SET revision = revision + 1 WHERE id = NEW.tournament_id;
    IF TG_OP = 'UPDATE' AND OLD.tournament_id <> NEW.tournament_id THEN
        UPDATE tournaments SET revision = revision + 1 WHERE id = OLD.tournament_id;
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER players_revision AFTER INSERT OR DELETE OR UPDATE OF name, rating, status, number, joined_round, withdrawn_round, user_id ON players
    FOR EACH ROW EXECUTE FUNCTION bump_tournament_revision();

CREATE TRIGGER rounds_revision AFTER INSERT OR DELETE ON rounds
    FOR EACH ROW EXECUTE FUNCTION bump_tournament_revision();

CREATE TRIGGER games_revision AFTER UPDATE OF white_id, black_id, board, result, state, white_games, black_games ON games
    FOR EACH ROW EXECUTE FUNCTION bump_tournament_revision();

CREATE TRIGGER byes_revision AFTER INSERT OR DELETE OR UPDATE OF player_id, kind, round_id ON byes
    FOR EACH ROW EXECUTE FUNCTION bump_tournament_revision();

CREATE TRIGGER bye_requests_revision AFTER INSERT OR DELETE OR UPDATE OF player_id, round_number, kind, status ON bye_requests
    FOR EACH ROW EXECUTE FUNCTION bump_tournament_revision();

CREATE TRIGGER forbidden_pairs_revision AFTER INSERT OR DELETE OR UPDATE OF player_a, player_b ON forbidden_pairs
    FOR EACH ROW EXECUTE FUNCTION bump_tournament_revision();

CREATE TRIGGER playoffs_revision AFTER INSERT OR DELETE OR UPDATE OF swiss_rounds ON playoffs
    FOR EACH ROW EXECUTE FUNCTION bump_tournament_revision();
