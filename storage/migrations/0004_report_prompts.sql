-- Where the Confirm / Dispute prompt of a report was posted, so that the bot can disable its
-- buttons once the result is settled another way (the opponent's /report, /result set, a
-- forced round, an undo). No foreign key to games: the row outlives an undone round, whose
-- prompt is then closed too.
CREATE TABLE report_prompts (
    game_id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    closed_at TEXT
);
CREATE INDEX report_prompts_open ON report_prompts (guild_id) WHERE closed_at IS NULL;
