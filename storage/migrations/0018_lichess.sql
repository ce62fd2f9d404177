-- Lichess accounts linked to Discord members (docs/lichess.md).
-- One Lichess account per member per server and one member per Lichess account per server:
-- both are keys, so two concurrent claims of one account cannot both succeed.
CREATE TABLE lichess_links (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    lichess_id TEXT NOT NULL,  -- Lichess's lowercase id of the account
    username TEXT NOT NULL,    -- as Lichess spells it
    method TEXT NOT NULL,      -- 'oauth' or 'profile'
    linked_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id),
    UNIQUE (guild_id, lichess_id)
);
-- A link being proved: the profile code or the OAuth state (unique, used once, expiring).
-- The PKCE verifier never leaves the bot: it is sent to Lichess only with the code.
CREATE TABLE lichess_link_requests (
    secret TEXT PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    method TEXT NOT NULL,
    lichess_id TEXT,           -- the account claimed (profile codes)
    verifier TEXT,             -- PKCE code_verifier (OAuth)
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
);
CREATE INDEX lichess_link_requests_member ON lichess_link_requests (guild_id, user_id);
-- A claim of an account already linked to another member, kept for the organisers' view.
CREATE TABLE lichess_conflicts (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    lichess_id TEXT NOT NULL,
    holder_id INTEGER NOT NULL,
    claimant_id INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX lichess_conflicts_guild ON lichess_conflicts (guild_id, id);
-- OAuth access tokens, apart from everything else: encrypted with the key from the
-- environment, never shown, logged or exported.
CREATE TABLE lichess_tokens (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    token TEXT NOT NULL,       -- Fernet ciphertext
    stored_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
-- Events played on Lichess: the rating speed that counts and the clock.
CREATE TABLE lichess_events (
    tournament_id INTEGER PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
    speed TEXT NOT NULL,
    clock_limit INTEGER NOT NULL,      -- seconds
    clock_increment INTEGER NOT NULL,  -- seconds
    rated INTEGER NOT NULL
);
-- The Lichess rating each player of such an event entered with (refreshed at the start).
CREATE TABLE lichess_ratings (
    player_id INTEGER PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    username TEXT NOT NULL,
    rating INTEGER NOT NULL,
    provisional INTEGER NOT NULL,
    fetched_at TEXT NOT NULL
);
CREATE INDEX lichess_ratings_tournament ON lichess_ratings (tournament_id);
-- The Lichess game of each board of an event on Lichess (an open challenge that only the two
-- players may join), stored as soon as Lichess made it: a board with a row is never created
-- again, a restart goes on with the boards without one.
CREATE TABLE lichess_games (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    challenge_id TEXT NOT NULL,
    url_white TEXT NOT NULL,
    url_black TEXT NOT NULL,
    created_at TEXT NOT NULL,
    problem TEXT  -- what the organisers were last told about the game on Lichess
);
CREATE INDEX lichess_games_tournament ON lichess_games (tournament_id);
-- The rounds whose game links were announced (once per round).
CREATE TABLE lichess_rounds_announced (
    round_id INTEGER PRIMARY KEY REFERENCES rounds (id) ON DELETE CASCADE,
    announced_at TEXT NOT NULL
);
-- Lichess unreachable for the worker: the events on Lichess whose organisers were told
-- (once per outage; the row goes when Lichess answers again, and they are told that too).
CREATE TABLE lichess_outages (
    tournament_id INTEGER PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
    since TEXT NOT NULL,
    problem TEXT NOT NULL
);
