"""Repository: game threads, their once-per-round notices, and DM settings (migration 0005)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from storage.connection import Connection, Row
from storage.shards import ALL, Shards
from storage.timefmt import to_text


@dataclass(frozen=True, slots=True)
class ThreadRow:
    game_id: int
    guild_id: int
    tournament_id: int
    round: int
    parent_id: int
    thread_id: int | None
    private: bool
    problem: str | None
    archived: bool


@dataclass(frozen=True, slots=True)
class DmSettingRow:
    guild_id: int
    user_id: int
    enabled: bool
    closed: bool


def _thread(r: Row) -> ThreadRow:
    return ThreadRow(r["game_id"], r["guild_id"], r["tournament_id"], r["round"], r["parent_id"],
                     r["thread_id"], bool(r["private"]), r["problem"],
                     r["archived_at"] is not None)


async def get_thread(conn: Connection, game_id: int) -> ThreadRow | None:
    async with conn.execute("SELECT * FROM game_threads WHERE game_id = ?", (game_id,)) as cur:
        row = await cur.fetchone()
    return None if row is None else _thread(row)


async def save_thread(
    conn: Connection, *, game_id: int, guild_id: int, tournament_id: int,
    round_number: int, parent_id: int, thread_id: int | None, private: bool,
    problem: str | None, now: datetime,
) -> bool:
    """Record the thread of a game (or why it has none). Never replaces a stored thread id:
    False when the game already has one."""
    cur = await conn.execute(
        "INSERT INTO game_threads (game_id, guild_id, tournament_id, round, parent_id, thread_id,"
        " private, problem, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (game_id) DO UPDATE SET thread_id = excluded.thread_id,"
        " private = excluded.private, problem = excluded.problem"
        " WHERE game_threads.thread_id IS NULL",
        (game_id, guild_id, tournament_id, round_number, parent_id, thread_id, int(private),
         problem, to_text(now)),
    )
    return cur.rowcount == 1


async def to_archive(conn: Connection, guild_id: int | None) -> list[ThreadRow]:
    """Open threads whose game is final, or gone (its round was undone), once every post
    queued for the thread itself was delivered or given up: the note of an organiser's
    decision is posted there, and an archived thread takes no more messages."""
    where = "" if guild_id is None else " AND t.guild_id = ?"
    args: tuple[int, ...] = () if guild_id is None else (guild_id,)
    async with conn.execute(
        "SELECT t.* FROM game_threads t LEFT JOIN games g ON g.id = t.game_id"
        " WHERE t.archived_at IS NULL AND t.thread_id IS NOT NULL"
        " AND (g.id IS NULL OR g.state = 'final')"
        " AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.channel_id = t.thread_id"
        " AND o.delivered_at IS NULL AND o.next_attempt_at < '9999')" + where +
        " ORDER BY t.game_id",
        args,
    ) as cur:
        return [_thread(r) for r in await cur.fetchall()]


async def mark_archived(conn: Connection, game_id: int, now: datetime) -> bool:
    cur = await conn.execute(
        "UPDATE game_threads SET archived_at = ? WHERE game_id = ? AND archived_at IS NULL",
        (to_text(now), game_id),
    )
    return cur.rowcount == 1


async def add_notice(
    conn: Connection, tournament_id: int, round_number: int, problem: str,
    now: datetime,
) -> bool:
    """True the first time a problem is noted for this round (the organisers are told once)."""
    cur = await conn.execute(
        "INSERT INTO thread_notices (tournament_id, round, problem, created_at)"
        " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
        (tournament_id, round_number, problem, to_text(now)),
    )
    return cur.rowcount == 1


async def get_dm(conn: Connection, guild_id: int, user_id: int) -> DmSettingRow:
    async with conn.execute(
        "SELECT enabled, closed_at FROM dm_settings WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    ) as cur:
        row = await cur.fetchone()
    if row is None:
        return DmSettingRow(guild_id, user_id, False, False)
    return DmSettingRow(guild_id, user_id, bool(row["enabled"]), row["closed_at"] is not None)


async def set_dm(
    conn: Connection, guild_id: int, user_id: int, enabled: bool, now: datetime
) -> None:
    """Opt in or out; either way a remembered closed DM is forgotten (the player says he
    opened them again)."""
    await conn.execute(
        "INSERT INTO dm_settings (guild_id, user_id, enabled, closed_at, updated_at)"
        " VALUES (?, ?, ?, NULL, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
        " enabled = excluded.enabled, closed_at = NULL, updated_at = excluded.updated_at",
        (guild_id, user_id, int(enabled), to_text(now)),
    )


async def mark_dm_closed(
    conn: Connection, guild_id: int, user_id: int, now: datetime
) -> bool:
    """True the first time (the player is told once)."""
    cur = await conn.execute(
        "UPDATE dm_settings SET closed_at = ?, updated_at = ? WHERE guild_id = ? AND user_id = ?"
        " AND closed_at IS NULL",
        (to_text(now), to_text(now), guild_id, user_id),
    )
    return cur.rowcount == 1


async def dm_recipients(
    conn: Connection, guild_id: int, user_ids: list[int]
) -> set[int]:
    """Those of ``user_ids`` who opted in and whose DMs are not known to be closed."""
    if not user_ids:
        return set()
    marks = ",".join("?" * len(user_ids))
    async with conn.execute(
        f"SELECT user_id FROM dm_settings WHERE guild_id = ? AND enabled = 1"
        f" AND closed_at IS NULL AND user_id IN ({marks})",
        (guild_id, *user_ids),
    ) as cur:
        return {r["user_id"] for r in await cur.fetchall()}


@dataclass(frozen=True, slots=True)
class DmPromptRow:
    """A Confirm / Dispute prompt posted by DM whose buttons are still live."""

    outbox_id: int
    guild_id: int
    game_id: int
    channel_id: int
    message_id: int


async def open_dm_prompts(conn: Connection, shards: Shards = ALL) -> list[DmPromptRow]:
    """The ``dm_confirm`` announcements whose message was remembered when posted and not yet
    closed (closing forgets the message), in the guilds of ``shards``."""
    mine, params = shards.where("o.guild_id")
    async with conn.execute(
        "SELECT o.id, o.guild_id, o.payload, m.channel_id, m.message_id FROM posted_messages m"
        f" JOIN outbox o ON o.id = m.outbox_id WHERE o.kind = 'dm_confirm' AND {mine}"
        " ORDER BY o.id",
        params,
    ) as cur:
        rows = await cur.fetchall()
    found = []
    for r in rows:
        game_id = json.loads(r["payload"]).get("game_id")
        if isinstance(game_id, int):
            found.append(DmPromptRow(r["id"], r["guild_id"], game_id, r["channel_id"],
                                     r["message_id"]))
    return found


async def forget_dm_prompt(conn: Connection, outbox_id: int) -> bool:
    """The DM prompt's buttons were disabled: True the first time."""
    cur = await conn.execute("DELETE FROM posted_messages WHERE outbox_id = ?", (outbox_id,))
    return cur.rowcount == 1
