"""Repository: the live page's per-event tokens (migration 0005)."""

from __future__ import annotations

from datetime import datetime

from storage.connection import Connection
from storage.timefmt import to_text


async def get_token(conn: Connection, tournament_id: int) -> str | None:
    async with conn.execute(
        "SELECT token FROM web_tokens WHERE tournament_id = ?", (tournament_id,)
    ) as cursor:
        row = await cursor.fetchone()
    return None if row is None else str(row[0])


async def insert_token(
    conn: Connection, tournament_id: int, guild_id: int, token: str, now: datetime
) -> None:
    await conn.execute(
        "INSERT INTO web_tokens (tournament_id, guild_id, token, created_at) VALUES (?, ?, ?, ?)",
        (tournament_id, guild_id, token, to_text(now)),
    )


async def find_by_token(conn: Connection, token: str) -> tuple[int, int] | None:
    """``(guild_id, tournament_id)`` of the token, or None."""
    async with conn.execute(
        "SELECT guild_id, tournament_id FROM web_tokens WHERE token = ?", (token,)
    ) as cursor:
        row = await cursor.fetchone()
    return None if row is None else (int(row[0]), int(row[1]))
