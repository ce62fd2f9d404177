-- PostgreSQL twin of storage/migrations/0009_explanations_decklists.sql: the same tables and columns.
-- BIGINT for SQLite's 64-bit INTEGER, BIGSERIAL ids, TEXT COLLATE "C" so text sorts
-- and compares byte-wise as in SQLite, lower(name) for COLLATE NOCASE.
-- Why each round was paired as it was (the engine's explanation plus the facts it worked on:
-- scores, colour differences, byes before the round), written in the pairing's own
-- transaction so that /why shows exactly what the engine saw, even after later corrections
-- of earlier results. Removed with its round (an undone round has no explanation).
CREATE TABLE round_explanations (
    round_id BIGINT PRIMARY KEY REFERENCES rounds (id) ON DELETE CASCADE,
    data TEXT COLLATE "C" NOT NULL
);

-- Decklists / team lists: one per player and tournament, replaced by a new submission until
-- the deadline (the start, or the tournament's decklist_deadline setting).
CREATE TABLE decklists (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player_id BIGINT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    content TEXT COLLATE "C" NOT NULL,
    submitted_by BIGINT NOT NULL,
    submitted_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (tournament_id, player_id)
);

-- When the organiser made the decklists visible to everyone (absent: hidden).
CREATE TABLE decklist_publications (
    tournament_id BIGINT PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
    published_at TEXT COLLATE "C" NOT NULL,
    published_by BIGINT NOT NULL
);
