-- PostgreSQL twin of storage/migrations/0007_drafts_entry.sql: the same tables and columns.
-- BIGINT for SQLite's 64-bit INTEGER, BIGSERIAL ids, TEXT COLLATE "C" so text sorts
-- and compares byte-wise as in SQLite, lower(name) for COLLATE NOCASE.
-- Issue 15 items 4, 5, 7: pairing drafts, the waitlist, and player requests organisers approve.

-- The next round computed but not published (one per tournament). ``version`` grows with every
-- preview and edit, so a publish or a confirmation names the draft it was shown; ``basis`` is a
-- fingerprint of everything the pairing depended on (results, byes, players, requests), so a
-- draft computed before a result changed is stale and cannot be published.
CREATE TABLE round_drafts (
    tournament_id BIGINT PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
    round_number BIGINT NOT NULL CHECK (round_number >= 1),
    version BIGINT NOT NULL CHECK (version >= 1),
    basis TEXT COLLATE "C" NOT NULL,
    -- JSON: {"games": [[white player id, black player id], ...], "byes": [[player id, kind]],
    --        "notes": ["engine explanation", ...]}
    body TEXT COLLATE "C" NOT NULL,
    updated_by BIGINT NOT NULL,
    updated_at TEXT COLLATE "C" NOT NULL
);

-- Members who joined a full tournament, first come first served. They are not players until
-- promoted (a player leaves or is removed before the start, or capacity grows).
CREATE TABLE waitlist (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL,
    name TEXT COLLATE "C" NOT NULL,
    rating BIGINT NOT NULL DEFAULT 0,
    created_at TEXT COLLATE "C" NOT NULL,
    UNIQUE (tournament_id, user_id)
);

-- A player's own bye request waits for an organiser; organisers' byes are approved at once.
-- Only approved requests reach the pairing.
ALTER TABLE bye_requests ADD COLUMN status TEXT COLLATE "C" NOT NULL DEFAULT 'approved'
    CHECK (status IN ('pending', 'approved'));

-- A player's /leave after the start, confirmed by him, waiting for an organiser's approval.
CREATE TABLE leave_requests (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player_id BIGINT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created_at TEXT COLLATE "C" NOT NULL,
    UNIQUE (tournament_id, player_id)
);

-- The check-in reminder ping of a tournament, sent once when its check-in window opens (the
-- row is the claim: a restart or a second worker never pings twice).
CREATE TABLE checkin_reminders (
    tournament_id BIGINT PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
    sent_at TEXT COLLATE "C" NOT NULL
);
