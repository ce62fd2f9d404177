-- PostgreSQL twin of storage/migrations/0005_playoffs.sql: the same tables and columns.
-- BIGINT for SQLite's 64-bit INTEGER, BIGSERIAL ids, TEXT COLLATE "C" so text sorts
-- and compares byte-wise as in SQLite, lower(name) for COLLATE NOCASE.
-- The top cut: a single-elimination bracket played after the Swiss (issue 15, item 1).
-- Playoff rounds are ordinary rounds (same games, reports, confirmations, undo) numbered after
-- the last Swiss round; `swiss_rounds` is that boundary, fixed when the cut is made. Every
-- later round of the tournament is a playoff round. The bracket's rules (best of N games, who
-- plays white / first in game 1) are copied from the settings at the cut, so that editing the
-- settings cannot change a bracket in progress.

CREATE TABLE playoffs (
    tournament_id BIGINT PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
    swiss_rounds BIGINT NOT NULL CHECK (swiss_rounds >= 1),
    entrants BIGINT NOT NULL CHECK (entrants >= 2),
    best_of BIGINT NOT NULL CHECK (best_of IN (1, 3, 5)),
    privilege TEXT COLLATE "C" NOT NULL CHECK (privilege IN ('white', 'black')),
    created_at TEXT COLLATE "C" NOT NULL
);

-- Seed 1 is the best of the Swiss standings among the players still in at the cut.
CREATE TABLE playoff_seeds (
    tournament_id BIGINT NOT NULL REFERENCES playoffs (tournament_id) ON DELETE CASCADE,
    seed BIGINT NOT NULL CHECK (seed >= 1),
    player_id BIGINT NOT NULL REFERENCES players (id),
    PRIMARY KEY (tournament_id, seed),
    UNIQUE (tournament_id, player_id)
);
