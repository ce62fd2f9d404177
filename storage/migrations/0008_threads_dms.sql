-- Issue 16: a thread per game, and direct messages.

-- The thread opened for a game (one per game: the outbox row that creates it looks here first,
-- so a retried or restarted delivery reuses it instead of opening a second one). No foreign
-- key to games: the row outlives an undone round, whose thread is then archived too.
CREATE TABLE game_threads (
    game_id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    tournament_id INTEGER NOT NULL,
    round INTEGER NOT NULL,
    parent_id INTEGER NOT NULL,
    thread_id INTEGER,
    private INTEGER NOT NULL DEFAULT 1,
    problem TEXT,
    created_at TEXT NOT NULL,
    archived_at TEXT
);
CREATE INDEX game_threads_open ON game_threads (guild_id)
    WHERE archived_at IS NULL AND thread_id IS NOT NULL;

-- The rounds whose organisers were told why game threads could not be opened (once per round).
CREATE TABLE thread_notices (
    tournament_id INTEGER NOT NULL,
    round INTEGER NOT NULL,
    problem TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round)
);

-- Direct messages, per guild member: opted in with /notify dm:on; closed_at is set when Discord
-- refused a DM (403, 50007), and no DM is queued for the member until he opts in again.
CREATE TABLE dm_settings (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    enabled INTEGER NOT NULL DEFAULT 0,
    closed_at TEXT,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
