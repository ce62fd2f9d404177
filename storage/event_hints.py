"""Queries that tell which event a command is about when it names none: the event of a game
thread, the events posting in a channel, the events a member plays in."""

from __future__ import annotations

from collections.abc import Sequence

from storage.connection import Connection

_OPEN = "status IN ('registration', 'running')"


async def thread_event(conn: Connection, guild_id: int, thread_id: int) -> int | None:
    """The event of the game thread ``thread_id`` (any state), or None."""
    async with conn.execute(
        "SELECT tournament_id FROM game_threads WHERE guild_id = ? AND thread_id = ?"
        " ORDER BY game_id DESC LIMIT 1", (guild_id, thread_id),
    ) as cur:
        row = await cur.fetchone()
    return None if row is None else int(row["tournament_id"])


async def open_events(conn: Connection, guild_id: int) -> list[tuple[int, str, str, int | None]]:
    """``(id, name, status, channel_id)`` of the guild's open events, oldest first."""
    async with conn.execute(
        f"SELECT id, name, status, channel_id FROM tournaments WHERE guild_id = ? AND {_OPEN}"
        " ORDER BY id", (guild_id,),
    ) as cur:
        return [(r["id"], r["name"], r["status"], r["channel_id"]) for r in await cur.fetchall()]


async def events_of_member(
    conn: Connection, user_id: int, event_ids: Sequence[int]
) -> set[int]:
    """Those of ``event_ids`` where ``user_id`` is a player (withdrawn ones excluded)."""
    if not event_ids:
        return set()
    marks = ", ".join("?" for _ in event_ids)
    async with conn.execute(
        f"SELECT tournament_id FROM players WHERE user_id = ? AND status != 'withdrawn'"
        f" AND tournament_id IN ({marks})", (user_id, *event_ids),
    ) as cur:
        return {int(r["tournament_id"]) for r in await cur.fetchall()}
