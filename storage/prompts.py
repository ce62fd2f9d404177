"""Repository: the posted Confirm / Dispute prompts of result reports (see migration 0004)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from storage.connection import Connection
from storage.shards import ALL, Shards
from storage.timefmt import to_text


@dataclass(frozen=True, slots=True)
class PromptRow:
    game_id: int
    guild_id: int
    channel_id: int
    message_id: int
    game_state: str | None  # None: the game is gone (its round was undone)


async def remember(
    conn: Connection,
    *,
    game_id: int,
    guild_id: int,
    channel_id: int,
    message_id: int,
    now: datetime,
) -> None:
    await conn.execute(
        "INSERT INTO report_prompts"
        " (game_id, guild_id, channel_id, message_id, created_at, closed_at)"
        " VALUES (?, ?, ?, ?, ?, NULL) ON CONFLICT (game_id) DO UPDATE SET"
        " guild_id = excluded.guild_id, channel_id = excluded.channel_id,"
        " message_id = excluded.message_id, created_at = excluded.created_at, closed_at = NULL",
        (game_id, guild_id, channel_id, message_id, to_text(now)),
    )


async def settled(
    conn: Connection, guild_id: int | None, shards: Shards = ALL
) -> list[PromptRow]:
    """Open prompts of the guild (None: of every guild on ``shards``) whose game no longer
    waits for an answer."""
    mine, params = shards.where("p.guild_id")
    guild = "p.guild_id = ?" if guild_id is not None else "1 = 1"
    async with conn.execute(
        "SELECT p.game_id, p.guild_id, p.channel_id, p.message_id, g.state"
        " FROM report_prompts p LEFT JOIN games g ON g.id = p.game_id"
        f" WHERE {guild} AND {mine} AND p.closed_at IS NULL"
        " AND (g.id IS NULL OR g.state <> 'reported') ORDER BY p.game_id",
        (*([guild_id] if guild_id is not None else []), *params),
    ) as cur:
        return [
            PromptRow(r["game_id"], r["guild_id"], r["channel_id"], r["message_id"], r["state"])
            for r in await cur.fetchall()
        ]


async def close(conn: Connection, guild_id: int, game_id: int, now: datetime) -> bool:
    cur = await conn.execute(
        "UPDATE report_prompts SET closed_at = ? WHERE guild_id = ? AND game_id = ?"
        " AND closed_at IS NULL",
        (to_text(now), guild_id, game_id),
    )
    return cur.rowcount == 1
