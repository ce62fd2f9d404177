-- PostgreSQL twin of storage/migrations/0004_report_prompts.sql: the same tables and columns.
-- BIGINT for SQLite's 64-bit INTEGER, BIGSERIAL ids, TEXT COLLATE "C" so text sorts
-- and compares byte-wise as in SQLite, lower(name) for COLLATE NOCASE.
-- Where the Confirm / Dispute prompt of a report was posted, so that the bot can disable its
-- buttons once the result is settled another way (the opponent's /report, /result set, a
-- forced round, an undo). No foreign key to games: the row outlives an undone round, whose
-- prompt is then closed too.
CREATE TABLE report_prompts (
    game_id BIGINT PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    closed_at TEXT COLLATE "C"
);
CREATE INDEX report_prompts_open ON report_prompts (guild_id) WHERE closed_at IS NULL;
