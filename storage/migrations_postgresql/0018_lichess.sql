-- PostgreSQL twin of storage/migrations/0018_lichess.sql: the same tables and columns.
-- BIGINT for SQLite's 64-bit INTEGER, BIGSERIAL ids, TEXT COLLATE "C" so text sorts
-- and compares byte-wise as in SQLite.
-- Lichess accounts linked to Discord members (docs/lichess.md).
-- One Lichess account per member per server and one member per Lichess account per server:
-- both are keys, so two concurrent claims of one account cannot both succeed.
CREATE TABLE lichess_links (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    lichess_id TEXT COLLATE "C" NOT NULL,  -- Lichess's lowercase id of the account
    username TEXT COLLATE "C" NOT NULL,    -- as Lichess spells it
    method TEXT COLLATE "C" NOT NULL,      -- 'oauth' or 'profile'
    linked_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (guild_id, user_id),
    UNIQUE (guild_id, lichess_id)
);
-- A link being proved: the profile code or the OAuth state (unique, used once, expiring).
-- The PKCE verifier never leaves the bot: it is sent to Lichess only with the code.
CREATE TABLE lichess_link_requests (
    secret TEXT COLLATE "C" PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    method TEXT COLLATE "C" NOT NULL,
    lichess_id TEXT COLLATE "C",           -- the account claimed (profile codes)
    verifier TEXT COLLATE "C",             -- PKCE code_verifier (OAuth)
    created_at TEXT COLLATE "C" NOT NULL,
    expires_at TEXT COLLATE "C" NOT NULL,
    used_at TEXT COLLATE "C"
);
CREATE INDEX lichess_link_requests_member ON lichess_link_requests (guild_id, user_id);
-- A claim of an account already linked to another member, kept for the organisers' view.
CREATE TABLE lichess_conflicts (
    id BIGSERIAL PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    lichess_id TEXT COLLATE "C" NOT NULL,
    holder_id BIGINT NOT NULL,
    claimant_id BIGINT NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX lichess_conflicts_guild ON lichess_conflicts (guild_id, id);
-- OAuth access tokens, apart from everything else: encrypted with the key from the
-- environment, never shown, logged or exported.
CREATE TABLE lichess_tokens (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    token TEXT COLLATE "C" NOT NULL,       -- Fernet ciphertext
    stored_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
-- Events played on Lichess: the rating speed that counts and the clock.
CREATE TABLE lichess_events (
    tournament_id BIGINT PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
    speed TEXT COLLATE "C" NOT NULL,
    clock_limit BIGINT NOT NULL,      -- seconds
    clock_increment BIGINT NOT NULL,  -- seconds
    rated BIGINT NOT NULL
);
-- The Lichess rating each player of such an event entered with (refreshed at the start).
CREATE TABLE lichess_ratings (
    player_id BIGINT PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    username TEXT COLLATE "C" NOT NULL,
    rating BIGINT NOT NULL,
    provisional BIGINT NOT NULL,
    fetched_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX lichess_ratings_tournament ON lichess_ratings (tournament_id);
-- The Lichess game of each board of an event on Lichess (an open challenge that only the two
-- players may join), stored as soon as Lichess made it: a board with a row is never created
-- again, a restart goes on with the boards without one.
CREATE TABLE lichess_games (
    game_id BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    challenge_id TEXT COLLATE "C" NOT NULL,
    url_white TEXT COLLATE "C" NOT NULL,
    url_black TEXT COLLATE "C" NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    problem TEXT COLLATE "C"  -- what the organisers were last told about the game on Lichess
);
CREATE INDEX lichess_games_tournament ON lichess_games (tournament_id);
-- The rounds whose game links were announced (once per round).
CREATE TABLE lichess_rounds_announced (
    round_id BIGINT PRIMARY KEY REFERENCES rounds (id) ON DELETE CASCADE,
    announced_at TEXT COLLATE "C" NOT NULL
);
-- Lichess unreachable for the worker: the events on Lichess whose organisers were told
-- (once per outage; the row goes when Lichess answers again, and they are told that too).
CREATE TABLE lichess_outages (
    tournament_id BIGINT PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
    since TEXT COLLATE "C" NOT NULL,
    problem TEXT COLLATE "C" NOT NULL
);
