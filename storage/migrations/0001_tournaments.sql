-- Guilds, tournaments, players, rounds, games, byes, bye requests and forbidden pairs.
-- Times are UTC ISO-8601 strings of one fixed format (seconds), so they compare as text.

CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    organiser_role_id INTEGER,
    default_channel_id INTEGER,
    updated_at TEXT NOT NULL
);

CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'registration'
        CHECK (status IN ('registration', 'running', 'finished', 'cancelled')),
    settings TEXT NOT NULL,
    seed INTEGER NOT NULL,
    channel_id INTEGER,
    created_by INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT,
    auto_advance_due TEXT
);
-- One open tournament of a name per guild; finished and cancelled ones free the name.
CREATE UNIQUE INDEX tournaments_open_name
    ON tournaments (guild_id, name COLLATE NOCASE)
    WHERE status IN ('registration', 'running');
CREATE INDEX tournaments_guild ON tournaments (guild_id, status);
CREATE INDEX tournaments_due ON tournaments (auto_advance_due) WHERE auto_advance_due IS NOT NULL;

CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id INTEGER,
    name TEXT NOT NULL,
    rating INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'registered'
        CHECK (status IN ('registered', 'active', 'withdrawn', 'no_show')),
    checked_in INTEGER NOT NULL DEFAULT 0,
    number INTEGER,
    joined_round INTEGER NOT NULL DEFAULT 1,
    withdrawn_round INTEGER,
    registered_at TEXT NOT NULL,
    UNIQUE (tournament_id, number)
);
CREATE UNIQUE INDEX players_member ON players (tournament_id, user_id) WHERE user_id IS NOT NULL;
-- Guests are known by name only, so their names are unique; members may share display names.
CREATE UNIQUE INDEX players_guest_name ON players (tournament_id, name COLLATE NOCASE)
    WHERE user_id IS NULL;

CREATE TABLE rounds (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number INTEGER NOT NULL CHECK (number >= 1),
    state TEXT NOT NULL DEFAULT 'playing' CHECK (state IN ('playing', 'complete')),
    paired_at TEXT NOT NULL,
    paired_by INTEGER,
    forced INTEGER NOT NULL DEFAULT 0,
    deadline TEXT,
    completed_at TEXT,
    UNIQUE (tournament_id, number)
);

CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round_id INTEGER NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    board INTEGER NOT NULL,
    white_id INTEGER NOT NULL REFERENCES players (id),
    black_id INTEGER NOT NULL REFERENCES players (id),
    -- The final result (swiss.model.Result value); '*' until the game is final.
    result TEXT NOT NULL DEFAULT '*',
    white_games INTEGER,
    black_games INTEGER,
    state TEXT NOT NULL DEFAULT 'pending'
        CHECK (state IN ('pending', 'reported', 'disputed', 'final')),
    -- The first report, seen from white, waiting for the opponent.
    reported_result TEXT,
    reported_white_games INTEGER,
    reported_black_games INTEGER,
    reported_by INTEGER REFERENCES players (id),
    reported_at TEXT,
    -- The contradicting report or the dispute.
    disputed_by INTEGER REFERENCES players (id),
    disputed_result TEXT,
    disputed_at TEXT,
    -- Who made it final: the confirming opponent (a player) or an organiser (a user id).
    confirmed_by INTEGER REFERENCES players (id),
    set_by_user INTEGER,
    finalised_at TEXT,
    UNIQUE (round_id, board),
    CHECK (white_id <> black_id)
);
CREATE INDEX games_white ON games (white_id);
CREATE INDEX games_black ON games (black_id);

CREATE TABLE byes (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round_id INTEGER NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    player_id INTEGER NOT NULL REFERENCES players (id),
    kind TEXT NOT NULL CHECK (kind IN ('pairing', 'half', 'full', 'zero')),
    UNIQUE (round_id, player_id)
);

CREATE TABLE bye_requests (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player_id INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    round_number INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('half', 'full', 'zero')),
    requested_by INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (tournament_id, player_id, round_number)
);

CREATE TABLE forbidden_pairs (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player_a INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    player_b INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    CHECK (player_a < player_b),
    UNIQUE (tournament_id, player_a, player_b)
);
