-- PostgreSQL twin of storage/migrations/0003_round_events.sql: the same tables and columns.
-- BIGINT for SQLite's 64-bit INTEGER, BIGSERIAL ids, TEXT COLLATE "C" so text sorts
-- and compares byte-wise as in SQLite, lower(name) for COLLATE NOCASE.
-- When each round was paired or undone, to the millisecond. A round command names the round it
-- acts on through the moment the organiser sent it (the interaction's creation time): if the
-- round changed at or after that moment, the organiser has not seen the change and the command
-- is refused instead of acting on a round they did not mean (a double click, two organisers).
-- Rows of an undone round stay: "round 3 was already undone" needs them.

CREATE TABLE round_events (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round_number BIGINT NOT NULL CHECK (round_number >= 1),
    event TEXT COLLATE "C" NOT NULL CHECK (event IN ('paired', 'undone')),
    -- Milliseconds since the Unix epoch (UTC): the seconds of the other time columns are too
    -- coarse to order two clicks 150 ms apart.
    at_ms BIGINT NOT NULL,
    actor_id BIGINT NOT NULL
);
CREATE INDEX round_events_tournament ON round_events (tournament_id, at_ms);
