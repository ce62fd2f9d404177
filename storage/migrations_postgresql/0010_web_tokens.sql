-- PostgreSQL twin of storage/migrations/0010_web_tokens.sql: the same tables and columns.
-- BIGINT for SQLite's 64-bit INTEGER, BIGSERIAL ids, TEXT COLLATE "C" so text sorts
-- and compares byte-wise as in SQLite, lower(name) for COLLATE NOCASE.
-- The live web page of an event (issue 16): one random, unguessable token per tournament.
-- The page's URL carries only the token, so nobody can list guilds or events by counting ids;
-- the token row names its guild so a page never shows another guild's data.
CREATE TABLE web_tokens (
    tournament_id BIGINT PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
    guild_id BIGINT NOT NULL,
    token TEXT COLLATE "C" NOT NULL UNIQUE,
    created_at TEXT COLLATE "C" NOT NULL
);
