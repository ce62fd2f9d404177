-- PostgreSQL twin of storage/migrations/0008_threads_dms.sql: the same tables and columns.
-- BIGINT for SQLite's 64-bit INTEGER, BIGSERIAL ids, TEXT COLLATE "C" so text sorts
-- and compares byte-wise as in SQLite, lower(name) for COLLATE NOCASE.
-- Issue 16: a thread per game, and direct messages.

-- The thread opened for a game (one per game: the outbox row that creates it looks here first,
-- so a retried or restarted delivery reuses it instead of opening a second one). No foreign
-- key to games: the row outlives an undone round, whose thread is then archived too.
CREATE TABLE game_threads (
    game_id BIGINT PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    tournament_id BIGINT NOT NULL,
    round BIGINT NOT NULL,
    parent_id BIGINT NOT NULL,
    thread_id BIGINT,
    private BIGINT NOT NULL DEFAULT 1,
    problem TEXT COLLATE "C",
    created_at TEXT COLLATE "C" NOT NULL,
    archived_at TEXT COLLATE "C"
);
CREATE INDEX game_threads_open ON game_threads (guild_id)
    WHERE archived_at IS NULL AND thread_id IS NOT NULL;

-- The rounds whose organisers were told why game threads could not be opened (once per round).
CREATE TABLE thread_notices (
    tournament_id BIGINT NOT NULL,
    round BIGINT NOT NULL,
    problem TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (tournament_id, round)
);

-- Direct messages, per guild member: opted in with /notify dm:on; closed_at is set when Discord
-- refused a DM (403, 50007), and no DM is queued for the member until he opts in again.
CREATE TABLE dm_settings (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    enabled BIGINT NOT NULL DEFAULT 0,
    closed_at TEXT COLLATE "C",
    updated_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
