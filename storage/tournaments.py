"""Repository: guild settings and tournaments."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from storage.connection import Connection, Row, dialect, insert_returning_id
from storage.shards import ALL, Shards
from storage.timefmt import from_text, to_text

OPEN_STATUSES = ("registration", "running")


@dataclass(frozen=True, slots=True)
class GuildSettingsRow:
    guild_id: int
    organiser_role_id: int | None
    default_channel_id: int | None
    timezone: str = "UTC"  # an IANA name: how the moments organisers type are read


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: int
    guild_id: int
    name: str
    status: str
    settings: dict[str, Any]
    seed: int
    channel_id: int | None
    created_by: int
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    auto_advance_due: datetime | None
    settings_version: int = 0  # counts the changes of settings (the panel names it)


def _tournament(row: Row) -> TournamentRow:
    return TournamentRow(
        id=row["id"],
        guild_id=row["guild_id"],
        name=row["name"],
        status=row["status"],
        settings=json.loads(row["settings"]),
        seed=row["seed"],
        channel_id=row["channel_id"],
        created_by=row["created_by"],
        created_at=from_text(row["created_at"]),  # type: ignore[arg-type]
        started_at=from_text(row["started_at"]),
        finished_at=from_text(row["finished_at"]),
        auto_advance_due=from_text(row["auto_advance_due"]),
        settings_version=row["settings_version"],
    )


async def get_guild_settings(conn: Connection, guild_id: int) -> GuildSettingsRow:
    async with conn.execute(
        "SELECT guild_id, organiser_role_id, default_channel_id, timezone FROM guild_settings"
        " WHERE guild_id = ?",
        (guild_id,),
    ) as cur:
        row = await cur.fetchone()
    if row is None:
        return GuildSettingsRow(guild_id, None, None)
    return GuildSettingsRow(row[0], row[1], row[2], row[3])


async def save_guild_settings(
    conn: Connection, settings: GuildSettingsRow, now: datetime
) -> None:
    await conn.execute(
        "INSERT INTO guild_settings (guild_id, organiser_role_id, default_channel_id, timezone,"
        " updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
        " organiser_role_id = excluded.organiser_role_id,"
        " default_channel_id = excluded.default_channel_id, timezone = excluded.timezone,"
        " updated_at = excluded.updated_at",
        (settings.guild_id, settings.organiser_role_id, settings.default_channel_id,
         settings.timezone, to_text(now)),
    )


async def insert_tournament(
    conn: Connection,
    *,
    guild_id: int,
    name: str,
    settings: dict[str, Any],
    seed: int,
    channel_id: int | None,
    created_by: int,
    now: datetime,
) -> int:
    return await insert_returning_id(
        conn,
        "INSERT INTO tournaments (guild_id, name, settings, seed, channel_id, created_by,"
        " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (guild_id, name, json.dumps(settings), seed, channel_id, created_by, to_text(now)),
    )


async def get_tournament(conn: Connection, tournament_id: int) -> TournamentRow | None:
    """The tournament, locked against the other write operations on it until this transaction
    ends where the backend needs a lock for that (PostgreSQL: see storage.dialects.postgresql)."""
    async with conn.execute(
        "SELECT * FROM tournaments WHERE id = ?" + dialect(conn).lock_clause(conn), (tournament_id,)
    ) as cur:
        row = await cur.fetchone()
    return None if row is None else _tournament(row)


async def locked(conn: Connection, t: TournamentRow) -> TournamentRow:
    """``t`` as it is now, locked as by :func:`get_tournament` (found by name or in a list,
    it was read before any lock); as it is where no lock is needed (SQLite)."""
    if not dialect(conn).lock_clause(conn):
        return t
    fresh = await get_tournament(conn, t.id)
    return t if fresh is None else fresh


async def list_tournaments(
    conn: Connection, guild_id: int, *, open_only: bool = False
) -> list[TournamentRow]:
    sql = "SELECT * FROM tournaments WHERE guild_id = ?"
    if open_only:
        sql += " AND status IN ('registration', 'running')"
    async with conn.execute(sql + " ORDER BY id", (guild_id,)) as cur:
        return [_tournament(row) for row in await cur.fetchall()]


async def find_by_name(
    conn: Connection, guild_id: int, name: str
) -> list[TournamentRow]:
    """Tournaments of the guild with this name (case-insensitive), open ones first, newest first."""
    async with conn.execute(
        "SELECT * FROM tournaments WHERE guild_id = ? AND "
        + dialect(conn).NAME_EQUALS
        + " ORDER BY status IN ('registration', 'running') DESC, id DESC",
        (guild_id, name),
    ) as cur:
        return [_tournament(row) for row in await cur.fetchall()]


async def update_settings(
    conn: Connection,
    tournament_id: int,
    *,
    name: str,
    settings: dict[str, Any],
    channel_id: int | None,
) -> None:
    await conn.execute(
        "UPDATE tournaments SET name = ?, settings = ?, channel_id = ?,"
        " settings_version = settings_version + 1 WHERE id = ?",
        (name, json.dumps(settings), channel_id, tournament_id),
    )


async def set_status(
    conn: Connection,
    tournament_id: int,
    status: str,
    *,
    expected: tuple[str, ...],
    now: datetime,
) -> bool:
    """Move to ``status`` only from one of ``expected``; False if another operation won."""
    column = {"running": "started_at", "finished": "finished_at", "cancelled": "finished_at"}
    stamp = column.get(status)
    assignments = ["status = ?", "auto_advance_due = NULL"]
    params: list[Any] = [status]
    if stamp:
        assignments.append(f"{stamp} = ?")
        params.append(to_text(now))
    marks = ", ".join("?" for _ in expected)
    sql = (
        f"UPDATE tournaments SET {', '.join(assignments)}"
        f" WHERE id = ? AND status IN ({marks})"
    )
    params += [tournament_id, *expected]
    cur = await conn.execute(sql, params)
    return cur.rowcount == 1


async def set_auto_advance_due(
    conn: Connection, tournament_id: int, due: datetime | None
) -> None:
    await conn.execute(
        "UPDATE tournaments SET auto_advance_due = ? WHERE id = ?",
        (None if due is None else to_text(due), tournament_id),
    )


async def claim_auto_advance(conn: Connection, tournament_id: int) -> bool:
    """Clear the due time; True for the one caller that cleared it (exactly-once advance)."""
    cur = await conn.execute(
        "UPDATE tournaments SET auto_advance_due = NULL WHERE id = ?"
        " AND auto_advance_due IS NOT NULL AND status = 'running'",
        (tournament_id,),
    )
    return cur.rowcount == 1


async def due_auto_advances(
    conn: Connection, now: datetime, shards: Shards = ALL
) -> list[TournamentRow]:
    """Running tournaments (of guilds on ``shards``) whose next round is due to be paired."""
    mine, params = shards.where("guild_id")
    async with conn.execute(
        "SELECT * FROM tournaments WHERE auto_advance_due IS NOT NULL AND auto_advance_due <= ?"
        f" AND status = 'running' AND {mine} ORDER BY auto_advance_due, id",
        (to_text(now), *params),
    ) as cur:
        return [_tournament(row) for row in await cur.fetchall()]


async def revision(conn: Connection, tournament_id: int) -> int:
    """The tournament's revision (migration 0013): bumped by every write to what a pairing is
    computed from, so two equal readings mean none happened in between."""
    async with conn.execute(
        "SELECT revision FROM tournaments WHERE id = ?", (tournament_id,)
    ) as cur:
        row = await cur.fetchone()
    return 0 if row is None else int(row[0])


async def course_version(conn: Connection, tournament_id: int) -> int:
    """The tournament's course version (migration 0015): bumped when a round is paired or
    undone, its status changes, or a player's status changes or he is removed; a
    confirmation prompt carries it, so a click acts only on the state it was shown for."""
    async with conn.execute(
        "SELECT course_version FROM tournaments WHERE id = ?", (tournament_id,)
    ) as cur:
        row = await cur.fetchone()
    return 0 if row is None else int(row[0])


async def get_guild_language(conn: Connection, guild_id: int) -> str | None:
    """The language chosen for the guild's public posts (None: not chosen)."""
    async with conn.execute(
        "SELECT language FROM guild_settings WHERE guild_id = ?", (guild_id,)
    ) as cur:
        row = await cur.fetchone()
    return None if row is None else row[0]


async def set_guild_language(
    conn: Connection, guild_id: int, language: str | None, now: datetime
) -> None:
    await conn.execute(
        "INSERT INTO guild_settings (guild_id, updated_at, language) VALUES (?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language,"
        " updated_at = excluded.updated_at",
        (guild_id, to_text(now), language),
    )
