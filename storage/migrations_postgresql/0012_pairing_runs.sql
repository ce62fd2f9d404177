-- PostgreSQL twin of storage/migrations/0012_pairing_runs.sql: the same tables and columns
-- (BIGINT for SQLite's 64-bit INTEGER, TEXT COLLATE "C" so times compare bytewise).

-- One row per tournament while its next round is computed in a worker: other commands (and
-- other processes) see it and answer "round N is being paired". It is removed when the round
-- is stored or the pairing fails; expires_at lets a restart (or anyone) drop a marker whose
-- owner died without removing it.
CREATE TABLE pairing_runs (
    tournament_id BIGINT PRIMARY KEY REFERENCES tournaments (id),
    round_number BIGINT NOT NULL,
    players BIGINT NOT NULL,
    token TEXT COLLATE "C" NOT NULL,
    owner TEXT COLLATE "C" NOT NULL,
    started_at TEXT COLLATE "C" NOT NULL,
    expires_at TEXT COLLATE "C" NOT NULL,
    progress_id BIGINT REFERENCES outbox (id)
);

-- The Discord message an announcement became (only those a later announcement edits: the
-- "Pairing round 4..." progress line that becomes the pairings post).
CREATE TABLE posted_messages (
    outbox_id BIGINT PRIMARY KEY REFERENCES outbox (id),
    channel_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL
);
