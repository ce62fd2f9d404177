"""Repository: the rating fields of a tournament's players (FIDE id, federation, birth date,
sex, title, TRF name): one row per player that has any, gone with the player."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from storage.connection import Connection
from storage.timefmt import to_text

#: The columns, in the order of ``swiss.trf.player_fields.PlayerFields``.
COLUMNS = ("fide_id", "federation", "birth", "sex", "title", "trf_name")


async def fields_of(conn: Connection, player_id: int) -> dict[str, str]:
    """The player's fields (``""`` where unset; all ``""`` without a row)."""
    async with conn.execute(
        f"SELECT {', '.join(COLUMNS)} FROM player_identity WHERE player_id = ?", (player_id,)
    ) as cur:
        row = await cur.fetchone()
    return {c: (row[c] or "") if row is not None else "" for c in COLUMNS}


async def fields_by_player(conn: Connection, tournament_id: int) -> dict[int, dict[str, str]]:
    """Every player of the tournament with a row: player id -> fields."""
    async with conn.execute(
        f"SELECT player_id, {', '.join(COLUMNS)} FROM player_identity WHERE tournament_id = ?",
        (tournament_id,),
    ) as cur:
        return {row["player_id"]: {c: row[c] or "" for c in COLUMNS}
                for row in await cur.fetchall()}


async def save_fields(
    conn: Connection, tournament_id: int, player_id: int, values: Mapping[str, str],
    now: datetime,
) -> None:
    """Store the whole record (unset fields as NULL); a record with nothing set is deleted."""
    cells = [values.get(c) or None for c in COLUMNS]
    if not any(cells):
        await conn.execute("DELETE FROM player_identity WHERE player_id = ?", (player_id,))
        return
    updates = ", ".join(f"{c} = excluded.{c}" for c in (*COLUMNS, "updated_at"))
    await conn.execute(
        f"INSERT INTO player_identity (player_id, tournament_id, {', '.join(COLUMNS)},"
        f" updated_at) VALUES (?, ?, {', '.join('?' for _ in COLUMNS)}, ?)"
        f" ON CONFLICT (player_id) DO UPDATE SET {updates}",
        (player_id, tournament_id, *cells, to_text(now)),
    )
