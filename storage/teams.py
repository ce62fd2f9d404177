"""Repository: team events, their teams, members and lineups (migration 0023).

The rounds, matches and boards of a team event are in :mod:`storage.team_rounds`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from storage.connection import Connection, insert_returning_id
from storage.timefmt import to_text


@dataclass(frozen=True, slots=True)
class TeamEventRow:
    tournament_id: int
    system: str  # "fide-team" | "esports-swiss"
    colour_model: str  # "type-a" | "type-b" | "none"
    primary_score: str  # "mp" | "gp"
    boards: int
    wins_to_advance: int
    losses_to_eliminate: int
    decider_best_of: int
    other_best_of: int
    version: int


@dataclass(frozen=True, slots=True)
class TeamRow:
    id: int
    tournament_id: int
    number: int
    name: str
    captain_user_id: int
    status: str  # "active" | "withdrawn"
    checked_in: bool
    withdrawn_round: int | None
    version: int


@dataclass(frozen=True, slots=True)
class MemberRow:
    id: int
    team_id: int
    user_id: int
    name: str
    position: int
    substitute: bool


_EVENT = ("tournament_id, system, colour_model, primary_score, boards, wins_to_advance,"
          " losses_to_eliminate, decider_best_of, other_best_of, version")
_TEAM = ("id, tournament_id, number, name, captain_user_id, status, checked_in,"
         " withdrawn_round, version")
_OUT_OF_THE_WAY = 1_000_000  # far beyond any team's size
_MEMBER = "id, team_id, user_id, name, position, substitute"


def _team(row: Any) -> TeamRow:
    return TeamRow(row[0], row[1], row[2], row[3], row[4], row[5], bool(row[6]), row[7], row[8])


def _member(row: Any) -> MemberRow:
    return MemberRow(row[0], row[1], row[2], row[3], row[4], bool(row[5]))


# -- the event's team settings ----------------------------------------------------------------
async def get_event(conn: Connection, tournament_id: int) -> TeamEventRow | None:
    cur = await conn.execute(f"SELECT {_EVENT} FROM team_events WHERE tournament_id = ?",
                             (tournament_id,))
    row = await cur.fetchone()
    return None if row is None else TeamEventRow(*row)


async def save_event(conn: Connection, event: TeamEventRow) -> None:
    """Insert the settings, or replace them and bump their version."""
    await conn.execute(
        f"INSERT INTO team_events ({_EVENT}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)"
        " ON CONFLICT (tournament_id) DO UPDATE SET system = excluded.system,"
        " colour_model = excluded.colour_model, primary_score = excluded.primary_score,"
        " boards = excluded.boards, wins_to_advance = excluded.wins_to_advance,"
        " losses_to_eliminate = excluded.losses_to_eliminate,"
        " decider_best_of = excluded.decider_best_of, other_best_of = excluded.other_best_of,"
        " version = team_events.version + 1",
        (event.tournament_id, event.system, event.colour_model, event.primary_score,
         event.boards, event.wins_to_advance, event.losses_to_eliminate,
         event.decider_best_of, event.other_best_of))


# -- teams ------------------------------------------------------------------------------------
async def insert_team(conn: Connection, tournament_id: int, name: str, captain_user_id: int,
                      now: datetime) -> int:
    cur = await conn.execute("SELECT COALESCE(MAX(number), 0) + 1 FROM teams"
                             " WHERE tournament_id = ?", (tournament_id,))
    row = await cur.fetchone()
    assert row is not None
    return await insert_returning_id(
        conn, "INSERT INTO teams (tournament_id, number, name, captain_user_id, created_at)"
        " VALUES (?, ?, ?, ?, ?)", (tournament_id, row[0], name, captain_user_id, to_text(now)))


async def list_teams(conn: Connection, tournament_id: int) -> list[TeamRow]:
    cur = await conn.execute(f"SELECT {_TEAM} FROM teams WHERE tournament_id = ?"
                             " ORDER BY number", (tournament_id,))
    return [_team(row) for row in await cur.fetchall()]


async def get_team(conn: Connection, team_id: int) -> TeamRow | None:
    cur = await conn.execute(f"SELECT {_TEAM} FROM teams WHERE id = ?", (team_id,))
    row = await cur.fetchone()
    return None if row is None else _team(row)


async def update_team(conn: Connection, team: TeamRow, **changes: Any) -> bool:
    """Apply ``changes`` (columns of ``teams``) and bump the version, only if the team is still
    at ``team.version``: False when another operation changed it first."""
    sets = ", ".join(f"{column} = ?" for column in changes)
    sql = (f"UPDATE teams SET {sets}{', ' if sets else ''}version = version + 1"
           " WHERE id = ? AND version = ? RETURNING id")
    async with conn.execute(sql, (*changes.values(), team.id, team.version)) as cur:
        return await cur.fetchone() is not None


# -- members ----------------------------------------------------------------------------------
async def list_members(conn: Connection, tournament_id: int) -> list[MemberRow]:
    """Every member of the event's teams, team by team in board order."""
    cur = await conn.execute(f"SELECT {_MEMBER} FROM team_members WHERE tournament_id = ?"
                             " ORDER BY team_id, position", (tournament_id,))
    return [_member(row) for row in await cur.fetchall()]


async def member_of_user(conn: Connection, tournament_id: int, user_id: int
                         ) -> MemberRow | None:
    cur = await conn.execute(f"SELECT {_MEMBER} FROM team_members WHERE tournament_id = ?"
                             " AND user_id = ?", (tournament_id, user_id))
    row = await cur.fetchone()
    return None if row is None else _member(row)


async def insert_member(conn: Connection, tournament_id: int, team_id: int, user_id: int,
                        name: str, position: int, substitute: bool) -> int:
    """``position`` in board order: the members from there down move one place down."""
    await _shift(conn, team_id, position - 1, 1)
    return await insert_returning_id(
        conn, "INSERT INTO team_members (tournament_id, team_id, user_id, name, position,"
        " substitute) VALUES (?, ?, ?, ?, ?, ?)",
        (tournament_id, team_id, user_id, name, position, int(substitute)))


async def delete_member(conn: Connection, member: MemberRow) -> None:
    """Remove ``member`` (one who never had a board: the boards name him); the members
    below him move one place up, and his lineups go with him."""
    await conn.execute("DELETE FROM team_members WHERE id = ?", (member.id,))
    await _shift(conn, member.team_id, member.position, -1)


async def _shift(conn: Connection, team_id: int, after: int, by: int) -> None:
    """Move the members below ``after`` by ``by`` places, in two steps through positions out
    of the way: UNIQUE (team_id, position) holds after every row of each step."""
    await conn.execute("UPDATE team_members SET position = position + ? WHERE team_id = ?"
                       " AND position > ?", (_OUT_OF_THE_WAY, team_id, after))
    await conn.execute("UPDATE team_members SET position = position - ? WHERE team_id = ?"
                       " AND position > ?", (_OUT_OF_THE_WAY - by, team_id, _OUT_OF_THE_WAY))


async def member_has_boards(conn: Connection, member_id: int) -> bool:
    cur = await conn.execute("SELECT 1 FROM team_boards WHERE white_member_id = ?"
                             " OR black_member_id = ? LIMIT 1", (member_id, member_id))
    return await cur.fetchone() is not None


# -- lineups ----------------------------------------------------------------------------------
async def get_lineup(conn: Connection, team_id: int, round_number: int
                     ) -> tuple[int, dict[int, int]]:
    """The lineup set for the round: (its version, board -> member id); (0, {}) when none."""
    cur = await conn.execute("SELECT board, member_id, version FROM team_lineups"
                             " WHERE team_id = ? AND round_number = ? ORDER BY board",
                             (team_id, round_number))
    rows = list(await cur.fetchall())
    return (rows[0][2] if rows else 0), {row[0]: row[1] for row in rows}


async def set_lineup(conn: Connection, team_id: int, round_number: int,
                     boards: dict[int, int], version: int, set_by: int, now: datetime) -> None:
    """Replace the team's lineup for the round by ``boards`` (board -> member id)."""
    await conn.execute("DELETE FROM team_lineups WHERE team_id = ? AND round_number = ?",
                       (team_id, round_number))
    await conn.executemany(
        "INSERT INTO team_lineups (team_id, round_number, board, member_id, version, set_by,"
        " set_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(team_id, round_number, board, member, version, set_by, to_text(now))
         for board, member in sorted(boards.items())])
