-- Why each round was paired as it was (the engine's explanation plus the facts it worked on:
-- scores, colour differences, byes before the round), written in the pairing's own
-- transaction so that /why shows exactly what the engine saw, even after later corrections
-- of earlier results. Removed with its round (an undone round has no explanation).
CREATE TABLE round_explanations (
    round_id INTEGER PRIMARY KEY REFERENCES rounds (id) ON DELETE CASCADE,
    data TEXT NOT NULL
);

-- Decklists / team lists: one per player and tournament, replaced by a new submission until
-- the deadline (the start, or the tournament's decklist_deadline setting).
CREATE TABLE decklists (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player_id INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    content TEXT NOT NULL,
    submitted_by INTEGER NOT NULL,
    submitted_at TEXT NOT NULL,
    PRIMARY KEY (tournament_id, player_id)
);

-- When the organiser made the decklists visible to everyone (absent: hidden).
CREATE TABLE decklist_publications (
    tournament_id INTEGER PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
    published_at TEXT NOT NULL,
    published_by INTEGER NOT NULL
);
