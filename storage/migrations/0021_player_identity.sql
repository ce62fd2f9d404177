-- What a rating officer needs to rate an event (the TRF 001 line, docs/exports.md): set by an
-- organiser (/admin player, /admin import-players), one row per entry, gone with the entry.
-- Every column is NULL until set; the service validates them (service.identity).
CREATE TABLE player_identity (
    player_id INTEGER PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    fide_id TEXT,
    federation TEXT,
    birth TEXT,
    sex TEXT,
    title TEXT,
    trf_name TEXT,
    updated_at TEXT NOT NULL
);
CREATE INDEX player_identity_tournament ON player_identity (tournament_id);
-- A command used in a game thread is about that game's event (service.resolve).
CREATE INDEX game_threads_thread ON game_threads (thread_id);
