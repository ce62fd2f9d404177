-- PostgreSQL twin of storage/migrations/0023_teams.sql: the same tables and columns.
-- Team events (docs/teams.md): the event's team system, its teams and their members in board
-- order, each round's lineups, and the rounds, matches and boards of a team Swiss. A team
-- event keeps its own rounds: its pairing unit is the team, not the player.

-- An event is a team event when it has this row: the system, its settings, and a version
-- bumped by every change of them.
CREATE TABLE team_events (
    tournament_id BIGINT PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
    system TEXT COLLATE "C" NOT NULL CHECK (system IN ('fide-team', 'esports-swiss')),
    colour_model TEXT COLLATE "C" NOT NULL DEFAULT 'type-a'
        CHECK (colour_model IN ('type-a', 'type-b', 'none')),
    primary_score TEXT COLLATE "C" NOT NULL DEFAULT 'mp' CHECK (primary_score IN ('mp', 'gp')),
    boards BIGINT NOT NULL CHECK (boards BETWEEN 1 AND 12),
    wins_to_advance BIGINT NOT NULL DEFAULT 3 CHECK (wins_to_advance >= 1),
    losses_to_eliminate BIGINT NOT NULL DEFAULT 3 CHECK (losses_to_eliminate >= 1),
    decider_best_of BIGINT NOT NULL DEFAULT 3 CHECK (decider_best_of IN (1, 3, 5)),
    other_best_of BIGINT NOT NULL DEFAULT 1 CHECK (other_best_of IN (1, 3, 5)),
    version BIGINT NOT NULL DEFAULT 1
);

-- A team: its pairing number (the order of creation), captain, and a version bumped by every
-- change of its roster or status, which the roster commands name.
CREATE TABLE teams (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number BIGINT NOT NULL CHECK (number >= 1),
    name TEXT COLLATE "C" NOT NULL,
    captain_user_id BIGINT NOT NULL,
    status TEXT COLLATE "C" NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'withdrawn')),
    checked_in BIGINT NOT NULL DEFAULT 0,
    withdrawn_round BIGINT,
    version BIGINT NOT NULL DEFAULT 1,
    created_at TEXT COLLATE "C" NOT NULL,
    UNIQUE (tournament_id, number)
);
CREATE UNIQUE INDEX teams_name ON teams (tournament_id, lower(name));

-- A member is in one team per event (the unique index says so, whoever asks); position is
-- the board order, substitutes after the regulars.
CREATE TABLE team_members (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    team_id BIGINT NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL,
    name TEXT COLLATE "C" NOT NULL,
    position BIGINT NOT NULL CHECK (position >= 1),
    substitute BIGINT NOT NULL DEFAULT 0,
    UNIQUE (team_id, position)
);
CREATE UNIQUE INDEX team_members_one_team ON team_members (tournament_id, user_id);

-- A team's lineup for a round: board -> member. The last one set before the round is paired
-- stands; version counts the lineups set for that round.
CREATE TABLE team_lineups (
    team_id BIGINT NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    round_number BIGINT NOT NULL CHECK (round_number >= 1),
    board BIGINT NOT NULL CHECK (board >= 1),
    member_id BIGINT NOT NULL REFERENCES team_members (id) ON DELETE CASCADE,
    version BIGINT NOT NULL,
    set_by BIGINT NOT NULL,
    set_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (team_id, round_number, board)
);

CREATE TABLE team_rounds (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number BIGINT NOT NULL CHECK (number >= 1),
    state TEXT COLLATE "C" NOT NULL DEFAULT 'playing' CHECK (state IN ('playing', 'complete')),
    paired_at TEXT COLLATE "C" NOT NULL,
    paired_by BIGINT,
    UNIQUE (tournament_id, number)
);

-- A match (black_team_id NULL: the bye). Scores are derived from the boards (chess, in half
-- points) or reported as maps won (e-sports); match points are derived from them.
CREATE TABLE team_matches (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round_id BIGINT NOT NULL REFERENCES team_rounds (id) ON DELETE CASCADE,
    number BIGINT NOT NULL CHECK (number >= 1),
    white_team_id BIGINT NOT NULL REFERENCES teams (id),
    black_team_id BIGINT REFERENCES teams (id),
    best_of BIGINT NOT NULL DEFAULT 1,
    state TEXT COLLATE "C" NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'reported', 'final')),
    reported_by_team BIGINT REFERENCES teams (id),
    reported_white BIGINT,
    reported_black BIGINT,
    white_score BIGINT,
    black_score BIGINT,
    white_mp BIGINT,
    black_mp BIGINT,
    forfeit TEXT COLLATE "C" CHECK (forfeit IN ('white', 'black', 'both')),
    finalised_by BIGINT,
    finalised_at TEXT COLLATE "C",
    UNIQUE (round_id, number),
    CHECK (white_team_id IS DISTINCT FROM black_team_id)
);

-- A chess board of a match: the two members (NULL: nobody, the board is forfeited) and its
-- result, reported by one player and confirmed by the other.
CREATE TABLE team_boards (
    match_id BIGINT NOT NULL REFERENCES team_matches (id) ON DELETE CASCADE,
    board BIGINT NOT NULL CHECK (board >= 1),
    white_member_id BIGINT REFERENCES team_members (id),
    black_member_id BIGINT REFERENCES team_members (id),
    result TEXT COLLATE "C" NOT NULL DEFAULT '*' CHECK (result IN ('*', '1-0', '0-1', '1/2', '+-', '-+', '--')),
    reported_result TEXT COLLATE "C",
    reported_by BIGINT REFERENCES team_members (id),
    state TEXT COLLATE "C" NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'reported', 'final')),
    PRIMARY KEY (match_id, board)
);
