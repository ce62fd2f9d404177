-- Issue 13: a revision per tournament, bumped by every write to what a pairing is computed
-- from (players, rounds, games' pairings and results, byes, bye requests, forbidden pairs,
-- the top cut's boundary). A round paired outside the transaction (service.pairing_runs)
-- reads it with the snapshot and again before storing: equal means nothing it was computed
-- from changed, without reading the whole event a second time. Triggers, not the code, bump
-- it, so a write path added later cannot forget to. Games are inserted and deleted only
-- with their round (the round's trigger counts them), so a 1,500-board round costs one bump,
-- not 1,500. The tournament row itself (settings) is compared by the service.

ALTER TABLE tournaments ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER players_insert_revision AFTER INSERT ON players
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = NEW.tournament_id;
END;

CREATE TRIGGER players_delete_revision AFTER DELETE ON players
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = OLD.tournament_id;
END;

CREATE TRIGGER players_update_revision AFTER UPDATE OF name, rating, status, number, joined_round, withdrawn_round, user_id ON players
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = NEW.tournament_id;
END;

CREATE TRIGGER rounds_insert_revision AFTER INSERT ON rounds
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = NEW.tournament_id;
END;

CREATE TRIGGER rounds_delete_revision AFTER DELETE ON rounds
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = OLD.tournament_id;
END;

CREATE TRIGGER games_update_revision AFTER UPDATE OF white_id, black_id, board, result, state, white_games, black_games ON games
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = NEW.tournament_id;
END;

CREATE TRIGGER byes_insert_revision AFTER INSERT ON byes
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = NEW.tournament_id;
END;

CREATE TRIGGER byes_delete_revision AFTER DELETE ON byes
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = OLD.tournament_id;
END;

CREATE TRIGGER byes_update_revision AFTER UPDATE OF player_id, kind, round_id ON byes
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = NEW.tournament_id;
END;

CREATE TRIGGER bye_requests_insert_revision AFTER INSERT ON bye_requests
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = NEW.tournament_id;
END;

CREATE TRIGGER bye_requests_delete_revision AFTER DELETE ON bye_requests
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = OLD.tournament_id;
END;

CREATE TRIGGER bye_requests_update_revision AFTER UPDATE OF player_id, round_number, kind, status ON bye_requests
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = NEW.tournament_id;
END;

CREATE TRIGGER forbidden_pairs_insert_revision AFTER INSERT ON forbidden_pairs
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = NEW.tournament_id;
END;

CREATE TRIGGER forbidden_pairs_delete_revision AFTER DELETE ON forbidden_pairs
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = OLD.tournament_id;
END;

CREATE TRIGGER forbidden_pairs_update_revision AFTER UPDATE OF player_a, player_b ON forbidden_pairs
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = NEW.tournament_id;
END;

CREATE TRIGGER playoffs_insert_revision AFTER INSERT ON playoffs
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = NEW.tournament_id;
END;

CREATE TRIGGER playoffs_delete_revision AFTER DELETE ON playoffs
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = OLD.tournament_id;
END;

CREATE TRIGGER playoffs_update_revision AFTER UPDATE OF swiss_rounds ON playoffs
BEGIN
    UPDATE tournaments SET revision = revision + 1 WHERE id = NEW.tournament_id;
END;
