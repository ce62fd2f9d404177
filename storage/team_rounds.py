"""Repository: the rounds, matches and boards of a team event (migration 0023)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from storage.connection import Connection, insert_returning_id
from storage.timefmt import to_text


@dataclass(frozen=True, slots=True)
class TeamRoundRow:
    id: int
    number: int
    state: str  # "playing" | "complete"


@dataclass(frozen=True, slots=True)
class MatchRow:
    id: int
    round_number: int
    number: int
    white_team_id: int
    black_team_id: int | None  # None: the bye
    best_of: int
    state: str  # "pending" | "reported" | "final"
    reported_by_team: int | None
    reported_white: int | None
    reported_black: int | None
    white_score: int | None  # maps won, or game points times two
    black_score: int | None
    white_mp: int | None
    black_mp: int | None
    forfeit: str | None  # "white" | "black" | "both": who did not come


@dataclass(frozen=True, slots=True)
class BoardRow:
    match_id: int
    board: int
    white_member_id: int | None
    black_member_id: int | None
    result: str  # "*", "1-0", "0-1", "1/2", "+-", "-+", "--"
    reported_result: str | None
    reported_by: int | None
    state: str


_MATCH = ("m.id, r.number, m.number, m.white_team_id, m.black_team_id, m.best_of, m.state,"
          " m.reported_by_team, m.reported_white, m.reported_black, m.white_score,"
          " m.black_score, m.white_mp, m.black_mp, m.forfeit")
_BOARD = ("b.match_id, b.board, b.white_member_id, b.black_member_id, b.result,"
          " b.reported_result, b.reported_by, b.state")


async def list_rounds(conn: Connection, tournament_id: int) -> list[TeamRoundRow]:
    cur = await conn.execute("SELECT id, number, state FROM team_rounds WHERE tournament_id = ?"
                             " ORDER BY number", (tournament_id,))
    return [TeamRoundRow(*row) for row in await cur.fetchall()]


async def insert_round(conn: Connection, tournament_id: int, number: int, paired_by: int,
                       now: datetime) -> int:
    return await insert_returning_id(
        conn, "INSERT INTO team_rounds (tournament_id, number, paired_at, paired_by)"
        " VALUES (?, ?, ?, ?)", (tournament_id, number, to_text(now), paired_by))


async def complete_round(conn: Connection, round_id: int) -> bool:
    """Mark the round complete, once: False when it already was."""
    async with conn.execute("UPDATE team_rounds SET state = 'complete' WHERE id = ?"
                            " AND state = 'playing' RETURNING id", (round_id,)) as cur:
        return await cur.fetchone() is not None


async def insert_match(conn: Connection, tournament_id: int, round_id: int, number: int,
                       white_team_id: int, black_team_id: int | None, best_of: int) -> int:
    return await insert_returning_id(
        conn, "INSERT INTO team_matches (tournament_id, round_id, number, white_team_id,"
        " black_team_id, best_of) VALUES (?, ?, ?, ?, ?, ?)",
        (tournament_id, round_id, number, white_team_id, black_team_id, best_of))


async def list_matches(conn: Connection, tournament_id: int,
                       round_number: int | None = None) -> list[MatchRow]:
    sql = (f"SELECT {_MATCH} FROM team_matches m JOIN team_rounds r ON r.id = m.round_id"
           " WHERE m.tournament_id = ?")
    params: tuple[Any, ...] = (tournament_id,)
    if round_number is not None:
        sql += " AND r.number = ?"
        params += (round_number,)
    cur = await conn.execute(sql + " ORDER BY r.number, m.number", params)
    return [MatchRow(*row) for row in await cur.fetchall()]


async def finish_match(conn: Connection, match_id: int, *, white_score: int,
                       black_score: int, white_mp: int, black_mp: int, forfeit: str | None,
                       by: int, now: datetime) -> None:
    await conn.execute(
        "UPDATE team_matches SET state = 'final', white_score = ?, black_score = ?,"
        " white_mp = ?, black_mp = ?, forfeit = ?, finalised_by = ?, finalised_at = ?"
        " WHERE id = ?",
        (white_score, black_score, white_mp, black_mp, forfeit, by, to_text(now), match_id))


async def report_match(conn: Connection, match_id: int, team_id: int, white: int,
                       black: int) -> None:
    await conn.execute(
        "UPDATE team_matches SET state = 'reported', reported_by_team = ?,"
        " reported_white = ?, reported_black = ? WHERE id = ?",
        (team_id, white, black, match_id))


async def insert_boards(conn: Connection, match_id: int,
                        boards: list[tuple[int, int | None, int | None, str]]) -> None:
    """(board, white member, black member, result) per board; a board missing a player is
    decided at once (a forfeit)."""
    await conn.executemany(
        "INSERT INTO team_boards (match_id, board, white_member_id, black_member_id, result,"
        " state) VALUES (?, ?, ?, ?, ?, ?)",
        [(match_id, board, white, black, result, "pending" if result == "*" else "final")
         for board, white, black, result in boards])


async def list_boards(conn: Connection, tournament_id: int,
                      round_number: int | None = None) -> list[BoardRow]:
    sql = (f"SELECT {_BOARD} FROM team_boards b JOIN team_matches m ON m.id = b.match_id"
           " JOIN team_rounds r ON r.id = m.round_id WHERE m.tournament_id = ?")
    params: tuple[Any, ...] = (tournament_id,)
    if round_number is not None:
        sql += " AND r.number = ?"
        params += (round_number,)
    cur = await conn.execute(sql + " ORDER BY r.number, m.number, b.board", params)
    return [BoardRow(*row) for row in await cur.fetchall()]


async def update_board(conn: Connection, match_id: int, board: int, **changes: Any) -> None:
    sets = ", ".join(f"{column} = ?" for column in changes)
    await conn.execute(f"UPDATE team_boards SET {sets} WHERE match_id = ? AND board = ?",
                       (*changes.values(), match_id, board))
