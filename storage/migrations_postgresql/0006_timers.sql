-- PostgreSQL twin of storage/migrations/0006_timers.sql: the same tables and columns.
-- BIGINT for SQLite's 64-bit INTEGER, BIGSERIAL ids, TEXT COLLATE "C" so text sorts
-- and compares byte-wise as in SQLite, lower(name) for COLLATE NOCASE.
-- Stored timers: what the bot must do at a given moment (round reminders, the round deadline's
-- action, a no-show claim's expiry, a scheduled round start). The background tick claims a due
-- timer by setting fired_at in the same transaction that carries out its action, so each one
-- fires exactly once, across restarts and concurrent ticks. A timer that belongs to a round is
-- deleted with it (an undone round's reminders must not fire on the round paired after it).

CREATE TABLE timers (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round_id BIGINT REFERENCES rounds (id) ON DELETE CASCADE,
    -- The round it belongs to (for round_start: the round to start).
    round_number BIGINT NOT NULL CHECK (round_number >= 1),
    kind TEXT COLLATE "C" NOT NULL CHECK (kind IN ('reminder', 'deadline', 'noshow', 'round_start')),
    due_at TEXT COLLATE "C" NOT NULL,
    -- reminder: minutes before the deadline; noshow: the game id.
    subject BIGINT,
    created_at TEXT COLLATE "C" NOT NULL,
    fired_at TEXT COLLATE "C",
    -- fired, skipped (nothing to do any more), cancelled (an objection, a new schedule)
    outcome TEXT COLLATE "C"
);
CREATE INDEX timers_due ON timers (due_at, id) WHERE fired_at IS NULL;
CREATE INDEX timers_tournament ON timers (tournament_id, kind);

-- A player's claim that the opponent did not show up; one per game.
CREATE TABLE noshow_claims (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    game_id BIGINT NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
    claimant_id BIGINT NOT NULL REFERENCES players (id),
    claimed_at TEXT COLLATE "C" NOT NULL,
    ends_at TEXT COLLATE "C" NOT NULL,
    state TEXT COLLATE "C" NOT NULL DEFAULT 'open'
        CHECK (state IN ('open', 'objected', 'granted', 'void')),
    settled_at TEXT COLLATE "C"
);
