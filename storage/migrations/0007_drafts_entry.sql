-- Issue 15 items 4, 5, 7: pairing drafts, the waitlist, and player requests organisers approve.

-- The next round computed but not published (one per tournament). ``version`` grows with every
-- preview and edit, so a publish or a confirmation names the draft it was shown; ``basis`` is a
-- fingerprint of everything the pairing depended on (results, byes, players, requests), so a
-- draft computed before a result changed is stale and cannot be published.
CREATE TABLE round_drafts (
    tournament_id INTEGER PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
    round_number INTEGER NOT NULL CHECK (round_number >= 1),
    version INTEGER NOT NULL CHECK (version >= 1),
    basis TEXT NOT NULL,
    -- JSON: {"games": [[white player id, black player id], ...], "byes": [[player id, kind]],
    --        "notes": ["engine explanation", ...]}
    body TEXT NOT NULL,
    updated_by INTEGER NOT NULL,
    updated_at TEXT NOT NULL
);

-- Members who joined a full tournament, first come first served. They are not players until
-- promoted (a player leaves or is removed before the start, or capacity grows).
CREATE TABLE waitlist (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    rating INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    UNIQUE (tournament_id, user_id)
);

-- A player's own bye request waits for an organiser; organisers' byes are approved at once.
-- Only approved requests reach the pairing.
ALTER TABLE bye_requests ADD COLUMN status TEXT NOT NULL DEFAULT 'approved'
    CHECK (status IN ('pending', 'approved'));

-- A player's /leave after the start, confirmed by him, waiting for an organiser's approval.
CREATE TABLE leave_requests (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player_id INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    UNIQUE (tournament_id, player_id)
);

-- The check-in reminder ping of a tournament, sent once when its check-in window opens (the
-- row is the claim: a restart or a second worker never pings twice).
CREATE TABLE checkin_reminders (
    tournament_id INTEGER PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
    sent_at TEXT NOT NULL
);
