"""Repository: the top-cut bracket (migration 0005_playoffs): its boundary, rules and seeds."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from storage.connection import Connection
from storage.timefmt import to_text


@dataclass(frozen=True, slots=True)
class PlayoffRow:
    tournament_id: int
    swiss_rounds: int  # the last Swiss round; every later round is a playoff round
    entrants: int
    best_of: int
    privilege: str  # white / black: what the higher seed plays in game 1
    seeds: tuple[int, ...]  # player ids, seed 1 first


async def get_playoffs(conn: Connection, tournament_id: int) -> PlayoffRow | None:
    async with conn.execute(
        "SELECT * FROM playoffs WHERE tournament_id = ?", (tournament_id,)
    ) as cur:
        row = await cur.fetchone()
    if row is None:
        return None
    async with conn.execute(
        "SELECT player_id FROM playoff_seeds WHERE tournament_id = ? ORDER BY seed",
        (tournament_id,),
    ) as cur:
        seeds = tuple(r["player_id"] for r in await cur.fetchall())
    return PlayoffRow(
        tournament_id=row["tournament_id"], swiss_rounds=row["swiss_rounds"],
        entrants=row["entrants"], best_of=row["best_of"], privilege=row["privilege"],
        seeds=seeds,
    )


async def insert_playoffs(
    conn: Connection,
    *,
    tournament_id: int,
    swiss_rounds: int,
    best_of: int,
    privilege: str,
    seeds: list[int],
    now: datetime,
) -> bool:
    """Store the bracket; False if the tournament already has one (the cut is made once)."""
    cur = await conn.execute(
        "INSERT INTO playoffs (tournament_id, swiss_rounds, entrants, best_of, privilege, "
        "created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tournament_id) DO NOTHING",
        (tournament_id, swiss_rounds, len(seeds), best_of, privilege, to_text(now)),
    )
    if cur.rowcount != 1:
        return False
    await conn.executemany(
        "INSERT INTO playoff_seeds (tournament_id, seed, player_id) VALUES (?, ?, ?)",
        [(tournament_id, seed, pid) for seed, pid in enumerate(seeds, start=1)],
    )
    return True


async def delete_playoffs(conn: Connection, tournament_id: int) -> None:
    """Remove the bracket (the Swiss round it was cut from was undone)."""
    await conn.execute("DELETE FROM playoff_seeds WHERE tournament_id = ?", (tournament_id,))
    await conn.execute("DELETE FROM playoffs WHERE tournament_id = ?", (tournament_id,))
