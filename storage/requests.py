"""Repository: pairing drafts, the waitlist and leave requests (issue 15 items 4, 5, 7)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from storage.connection import Connection, Row
from storage.shards import ALL, Shards
from storage.timefmt import from_text, to_text


# -- drafts --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class DraftRow:
    tournament_id: int
    round_number: int
    version: int
    basis: str
    games: list[tuple[int, int]]  # (white player id, black player id), board order
    byes: list[tuple[int, str]]  # (player id, bye kind)
    notes: list[str]
    updated_by: int
    updated_at: datetime


async def get_draft(conn: Connection, tournament_id: int) -> DraftRow | None:
    async with conn.execute(
        "SELECT * FROM round_drafts WHERE tournament_id = ?", (tournament_id,)
    ) as cur:
        row = await cur.fetchone()
    if row is None:
        return None
    body: dict[str, Any] = json.loads(row["body"])
    return DraftRow(
        tournament_id=row["tournament_id"],
        round_number=row["round_number"],
        version=row["version"],
        basis=row["basis"],
        games=[(int(w), int(b)) for w, b in body["games"]],
        byes=[(int(p), str(k)) for p, k in body["byes"]],
        notes=[str(n) for n in body.get("notes", [])],
        updated_by=row["updated_by"],
        updated_at=from_text(row["updated_at"]),  # type: ignore[arg-type]
    )


async def save_draft(
    conn: Connection,
    *,
    tournament_id: int,
    round_number: int,
    basis: str,
    games: list[tuple[int, int]],
    byes: list[tuple[int, str]],
    notes: list[str],
    user_id: int,
    now: datetime,
) -> int:
    """Store the draft as the next version (1 for the first) and return that version."""
    old = await get_draft(conn, tournament_id)
    version = 1 if old is None else old.version + 1
    body = json.dumps({"games": games, "byes": byes, "notes": notes})
    await conn.execute(
        "INSERT INTO round_drafts (tournament_id, round_number, version, basis, body,"
        " updated_by, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tournament_id)"
        " DO UPDATE SET round_number = excluded.round_number, version = excluded.version,"
        " basis = excluded.basis, body = excluded.body, updated_by = excluded.updated_by,"
        " updated_at = excluded.updated_at",
        (tournament_id, round_number, version, basis, body, user_id, to_text(now)),
    )
    return version


async def delete_draft(conn: Connection, tournament_id: int) -> bool:
    cur = await conn.execute("DELETE FROM round_drafts WHERE tournament_id = ?", (tournament_id,))
    return cur.rowcount == 1


# -- waitlist ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class WaitingRow:
    id: int
    tournament_id: int
    user_id: int
    name: str
    rating: int
    created_at: datetime


def _waiting(row: Row) -> WaitingRow:
    return WaitingRow(
        id=row["id"], tournament_id=row["tournament_id"], user_id=row["user_id"],
        name=row["name"], rating=row["rating"],
        created_at=from_text(row["created_at"]),  # type: ignore[arg-type]
    )


async def add_waiting(
    conn: Connection, *, tournament_id: int, user_id: int, name: str, rating: int,
    now: datetime,
) -> bool:
    cur = await conn.execute(
        "INSERT INTO waitlist (tournament_id, user_id, name, rating, created_at)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        (tournament_id, user_id, name, rating, to_text(now)),
    )
    return cur.rowcount == 1


async def list_waiting(conn: Connection, tournament_id: int) -> list[WaitingRow]:
    async with conn.execute(
        "SELECT * FROM waitlist WHERE tournament_id = ? ORDER BY id", (tournament_id,)
    ) as cur:
        return [_waiting(r) for r in await cur.fetchall()]


async def remove_waiting(conn: Connection, tournament_id: int, user_id: int) -> bool:
    cur = await conn.execute(
        "DELETE FROM waitlist WHERE tournament_id = ? AND user_id = ?", (tournament_id, user_id)
    )
    return cur.rowcount == 1


# -- leave requests ------------------------------------------------------------------------------
async def add_leave_request(
    conn: Connection, tournament_id: int, player_id: int, now: datetime
) -> bool:
    cur = await conn.execute(
        "INSERT INTO leave_requests (tournament_id, player_id, created_at)"
        " VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
        (tournament_id, player_id, to_text(now)),
    )
    return cur.rowcount == 1


async def list_leave_requests(conn: Connection, tournament_id: int) -> list[int]:
    """The player ids, oldest request first."""
    async with conn.execute(
        "SELECT player_id FROM leave_requests WHERE tournament_id = ? ORDER BY id",
        (tournament_id,),
    ) as cur:
        return [int(r[0]) for r in await cur.fetchall()]


async def delete_leave_request(
    conn: Connection, tournament_id: int, player_id: int
) -> bool:
    cur = await conn.execute(
        "DELETE FROM leave_requests WHERE tournament_id = ? AND player_id = ?",
        (tournament_id, player_id),
    )
    return cur.rowcount == 1


# -- check-in reminders --------------------------------------------------------------------------
async def claim_checkin_reminder(
    conn: Connection, tournament_id: int, now: datetime
) -> bool:
    """True once per tournament: the caller sends the reminder."""
    cur = await conn.execute(
        "INSERT INTO checkin_reminders (tournament_id, sent_at) VALUES (?, ?)"
        " ON CONFLICT DO NOTHING",
        (tournament_id, to_text(now)),
    )
    return cur.rowcount == 1


async def registration_tournament_ids(
    conn: Connection, shards: Shards = ALL
) -> list[int]:
    """Every tournament still in registration whose check-in reminder was not sent (all
    guilds of ``shards``: the background pass; each operation on one is scoped to its own
    guild)."""
    mine, params = shards.where("guild_id")
    async with conn.execute(
        "SELECT id FROM tournaments WHERE status = 'registration' AND id NOT IN"
        f" (SELECT tournament_id FROM checkin_reminders) AND {mine} ORDER BY id", params
    ) as cur:
        return [int(r[0]) for r in await cur.fetchall()]
