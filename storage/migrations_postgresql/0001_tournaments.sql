-- PostgreSQL twin of storage/migrations/0001_tournaments.sql: the same tables and columns.
-- BIGINT for SQLite's 64-bit INTEGER, BIGSERIAL ids, TEXT COLLATE "C" so text sorts
-- and compares byte-wise as in SQLite, lower(name) for COLLATE NOCASE.
-- Guilds, tournaments, players, rounds, games, byes, bye requests and forbidden pairs.
-- Times are UTC ISO-8601 strings of one fixed format (seconds), so they compare as text.

CREATE TABLE guild_settings (
    guild_id BIGINT PRIMARY KEY,
    organiser_role_id BIGINT,
    default_channel_id BIGINT,
    updated_at TEXT COLLATE "C" NOT NULL
);

CREATE TABLE tournaments (
    id BIGSERIAL PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    name TEXT COLLATE "C" NOT NULL,
    status TEXT COLLATE "C" NOT NULL DEFAULT 'registration'
        CHECK (status IN ('registration', 'running', 'finished', 'cancelled')),
    settings TEXT COLLATE "C" NOT NULL,
    seed BIGINT NOT NULL,
    channel_id BIGINT,
    created_by BIGINT NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    started_at TEXT COLLATE "C",
    finished_at TEXT COLLATE "C",
    auto_advance_due TEXT COLLATE "C"
);
-- One open tournament of a name per guild; finished and cancelled ones free the name.
CREATE UNIQUE INDEX tournaments_open_name
    ON tournaments (guild_id, lower(name))
    WHERE status IN ('registration', 'running');
CREATE INDEX tournaments_guild ON tournaments (guild_id, status);
CREATE INDEX tournaments_due ON tournaments (auto_advance_due) WHERE auto_advance_due IS NOT NULL;

CREATE TABLE players (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id BIGINT,
    name TEXT COLLATE "C" NOT NULL,
    rating BIGINT NOT NULL DEFAULT 0,
    status TEXT COLLATE "C" NOT NULL DEFAULT 'registered'
        CHECK (status IN ('registered', 'active', 'withdrawn', 'no_show')),
    checked_in BIGINT NOT NULL DEFAULT 0,
    number BIGINT,
    joined_round BIGINT NOT NULL DEFAULT 1,
    withdrawn_round BIGINT,
    registered_at TEXT COLLATE "C" NOT NULL,
    UNIQUE (tournament_id, number)
);
CREATE UNIQUE INDEX players_member ON players (tournament_id, user_id) WHERE user_id IS NOT NULL;
-- Guests are known by name only, so their names are unique; members may share display names.
CREATE UNIQUE INDEX players_guest_name ON players (tournament_id, lower(name))
    WHERE user_id IS NULL;

CREATE TABLE rounds (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number BIGINT NOT NULL CHECK (number >= 1),
    state TEXT COLLATE "C" NOT NULL DEFAULT 'playing' CHECK (state IN ('playing', 'complete')),
    paired_at TEXT COLLATE "C" NOT NULL,
    paired_by BIGINT,
    forced BIGINT NOT NULL DEFAULT 0,
    deadline TEXT COLLATE "C",
    completed_at TEXT COLLATE "C",
    UNIQUE (tournament_id, number)
);

CREATE TABLE games (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round_id BIGINT NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    board BIGINT NOT NULL,
    white_id BIGINT NOT NULL REFERENCES players (id),
    black_id BIGINT NOT NULL REFERENCES players (id),
    -- The final result (swiss.model.Result value); '*' until the game is final.
    result TEXT COLLATE "C" NOT NULL DEFAULT '*',
    white_games BIGINT,
    black_games BIGINT,
    state TEXT COLLATE "C" NOT NULL DEFAULT 'pending'
        CHECK (state IN ('pending', 'reported', 'disputed', 'final')),
    -- The first report, seen from white, waiting for the opponent.
    reported_result TEXT COLLATE "C",
    reported_white_games BIGINT,
    reported_black_games BIGINT,
    reported_by BIGINT REFERENCES players (id),
    reported_at TEXT COLLATE "C",
    -- The contradicting report or the dispute.
    disputed_by BIGINT REFERENCES players (id),
    disputed_result TEXT COLLATE "C",
    disputed_at TEXT COLLATE "C",
    -- Who made it final: the confirming opponent (a player) or an organiser (a user id).
    confirmed_by BIGINT REFERENCES players (id),
    set_by_user BIGINT,
    finalised_at TEXT COLLATE "C",
    UNIQUE (round_id, board),
    CHECK (white_id <> black_id)
);
CREATE INDEX games_white ON games (white_id);
CREATE INDEX games_black ON games (black_id);

CREATE TABLE byes (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round_id BIGINT NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    player_id BIGINT NOT NULL REFERENCES players (id),
    kind TEXT COLLATE "C" NOT NULL CHECK (kind IN ('pairing', 'half', 'full', 'zero')),
    UNIQUE (round_id, player_id)
);

CREATE TABLE bye_requests (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player_id BIGINT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    round_number BIGINT NOT NULL,
    kind TEXT COLLATE "C" NOT NULL CHECK (kind IN ('half', 'full', 'zero')),
    requested_by BIGINT NOT NULL,
    created_at TEXT COLLATE "C" NOT NULL,
    UNIQUE (tournament_id, player_id, round_number)
);

CREATE TABLE forbidden_pairs (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player_a BIGINT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    player_b BIGINT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created_at TEXT COLLATE "C" NOT NULL,
    CHECK (player_a < player_b),
    UNIQUE (tournament_id, player_a, player_b)
);
