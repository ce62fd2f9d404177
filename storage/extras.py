"""Repository: round explanations and decklists (see migration 0005)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from storage.connection import Connection
from storage.timefmt import from_text, to_text


# -- round explanations ---------------------------------------------------------------------------
async def save_explanation(conn: Connection, round_id: int, data: dict[str, Any] | str) -> None:
    """``data``, or its :func:`explanation_text` made beforehand (a big round's, in the
    pairing worker: tens of milliseconds of JSON not spent in the event loop)."""
    await conn.execute(
        "INSERT INTO round_explanations (round_id, data) VALUES (?, ?)"
        " ON CONFLICT (round_id) DO UPDATE SET data = excluded.data",
        (round_id, data if isinstance(data, str) else explanation_text(data)),
    )


def explanation_text(data: dict[str, Any]) -> str:
    """How an explanation is stored."""
    return json.dumps(data, sort_keys=True)


async def get_explanation(conn: Connection, round_id: int) -> dict[str, Any] | None:
    cur = await conn.execute("SELECT data FROM round_explanations WHERE round_id = ?",
                             (round_id,))
    row = await cur.fetchone()
    return None if row is None else json.loads(row[0])


# -- decklists ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class DecklistRow:
    tournament_id: int
    player_id: int
    content: str
    submitted_by: int
    submitted_at: datetime


def _decklist(row: Any) -> DecklistRow:
    at = from_text(row[4])
    assert at is not None
    return DecklistRow(row[0], row[1], row[2], row[3], at)


async def upsert_decklist(
    conn: Connection, *, tournament_id: int, player_id: int, content: str,
    submitted_by: int, now: datetime,
) -> None:
    await conn.execute(
        "INSERT INTO decklists"
        " (tournament_id, player_id, content, submitted_by, submitted_at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (tournament_id, player_id) DO UPDATE SET content = excluded.content,"
        " submitted_by = excluded.submitted_by, submitted_at = excluded.submitted_at",
        (tournament_id, player_id, content, submitted_by, to_text(now)),
    )


async def get_decklist(
    conn: Connection, tournament_id: int, player_id: int
) -> DecklistRow | None:
    cur = await conn.execute(
        "SELECT tournament_id, player_id, content, submitted_by, submitted_at FROM decklists"
        " WHERE tournament_id = ? AND player_id = ?", (tournament_id, player_id))
    row = await cur.fetchone()
    return None if row is None else _decklist(row)


async def list_decklists(conn: Connection, tournament_id: int) -> list[DecklistRow]:
    cur = await conn.execute(
        "SELECT tournament_id, player_id, content, submitted_by, submitted_at FROM decklists"
        " WHERE tournament_id = ? ORDER BY player_id", (tournament_id,))
    return [_decklist(row) for row in await cur.fetchall()]


async def published_at(conn: Connection, tournament_id: int) -> datetime | None:
    cur = await conn.execute(
        "SELECT published_at FROM decklist_publications WHERE tournament_id = ?",
        (tournament_id,))
    row = await cur.fetchone()
    return None if row is None else from_text(row[0])


async def publish(
    conn: Connection, tournament_id: int, user_id: int, now: datetime
) -> bool:
    """Publish the decklists; True only for the call that did it (a repeat changes nothing)."""
    cur = await conn.execute(
        "INSERT INTO decklist_publications (tournament_id, published_at, published_by)"
        " VALUES (?, ?, ?) ON CONFLICT DO NOTHING", (tournament_id, to_text(now), user_id))
    return cur.rowcount == 1
