-- Issue 13: a round being paired outside the event loop, and the messages the outbox posted.

-- One row per tournament while its next round is computed in a worker: other commands (and
-- other processes) see it and answer "round N is being paired". It is removed when the round
-- is stored or the pairing fails; expires_at lets a restart (or anyone) drop a marker whose
-- owner died without removing it.
CREATE TABLE pairing_runs (
    tournament_id INTEGER PRIMARY KEY REFERENCES tournaments (id),
    round_number INTEGER NOT NULL,
    players INTEGER NOT NULL,
    token TEXT NOT NULL,
    owner TEXT NOT NULL,
    started_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    progress_id INTEGER REFERENCES outbox (id)
);

-- The Discord message an announcement became (only those a later announcement edits: the
-- "Pairing round 4..." progress line that becomes the pairings post).
CREATE TABLE posted_messages (
    outbox_id INTEGER PRIMARY KEY REFERENCES outbox (id),
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL
);
