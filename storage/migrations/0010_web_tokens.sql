-- The live web page of an event (issue 16): one random, unguessable token per tournament.
-- The page's URL carries only the token, so nobody can list guilds or events by counting ids;
-- the token row names its guild so a page never shows another guild's data.
CREATE TABLE web_tokens (
    tournament_id INTEGER PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
    guild_id INTEGER NOT NULL,
    token TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
);
