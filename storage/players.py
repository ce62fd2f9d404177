"""Repository: the players of a tournament (members or guests)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from storage.connection import Connection, Row, dialect, insert_returning_id
from storage.timefmt import from_text, to_text


@dataclass(frozen=True, slots=True)
class PlayerRow:
    id: int
    tournament_id: int
    user_id: int | None
    name: str
    rating: int
    status: str  # registered, active, withdrawn, no_show
    checked_in: bool
    number: int | None
    joined_round: int
    withdrawn_round: int | None
    registered_at: datetime


def _player(row: Row) -> PlayerRow:
    return PlayerRow(
        id=row["id"],
        tournament_id=row["tournament_id"],
        user_id=row["user_id"],
        name=row["name"],
        rating=row["rating"],
        status=row["status"],
        checked_in=bool(row["checked_in"]),
        number=row["number"],
        joined_round=row["joined_round"],
        withdrawn_round=row["withdrawn_round"],
        registered_at=from_text(row["registered_at"]),  # type: ignore[arg-type]
    )


async def list_players(conn: Connection, tournament_id: int) -> list[PlayerRow]:
    """All players, in pairing-number order (unnumbered ones by registration)."""
    return player_rows(await fetch_players(conn, tournament_id))


async def fetch_players(conn: Connection, tournament_id: int) -> list[Row]:
    """:func:`list_players` as the database gives them: turn them into rows with
    :func:`player_rows` where it costs no one (3,000 of them: ~50 ms of Python)."""
    async with conn.execute(
        "SELECT * FROM players WHERE tournament_id = ?"
        " ORDER BY number IS NULL, number, registered_at, id",
        (tournament_id,),
    ) as cur:
        return list(await cur.fetchall())


def player_rows(rows: list[Row]) -> list[PlayerRow]:
    return [_player(row) for row in rows]


async def get_player(conn: Connection, player_id: int) -> PlayerRow | None:
    async with conn.execute("SELECT * FROM players WHERE id = ?", (player_id,)) as cur:
        row = await cur.fetchone()
    return None if row is None else _player(row)


async def find_member(
    conn: Connection, tournament_id: int, user_id: int
) -> PlayerRow | None:
    async with conn.execute(
        "SELECT * FROM players WHERE tournament_id = ? AND user_id = ?", (tournament_id, user_id)
    ) as cur:
        row = await cur.fetchone()
    return None if row is None else _player(row)


async def find_by_name(
    conn: Connection, tournament_id: int, name: str
) -> list[PlayerRow]:
    """Players with this name (case-insensitive); members may share a display name."""
    async with conn.execute(
        "SELECT * FROM players WHERE tournament_id = ? AND "
        + dialect(conn).NAME_EQUALS
        + " ORDER BY id",
        (tournament_id, name),
    ) as cur:
        return [_player(row) for row in await cur.fetchall()]


async def find_by_number(
    conn: Connection, tournament_id: int, number: int
) -> PlayerRow | None:
    async with conn.execute(
        "SELECT * FROM players WHERE tournament_id = ? AND number = ?", (tournament_id, number)
    ) as cur:
        row = await cur.fetchone()
    return None if row is None else _player(row)


async def count_entrants(conn: Connection, tournament_id: int) -> int:
    """Players registered or playing (not the withdrawn, the no-shows, the waitlist)."""
    async with conn.execute(
        "SELECT COUNT(*) FROM players WHERE tournament_id = ? AND status IN"
        " ('registered', 'active')", (tournament_id,)
    ) as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def count_still_in(conn: Connection, tournament_id: int) -> int:
    """Players who could be seeded into a top cut: active and not withdrawn."""
    async with conn.execute(
        "SELECT COUNT(*) FROM players WHERE tournament_id = ? AND status = 'active'"
        " AND withdrawn_round IS NULL", (tournament_id,)
    ) as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def insert_player(
    conn: Connection,
    *,
    tournament_id: int,
    user_id: int | None,
    name: str,
    rating: int,
    now: datetime,
    status: str = "registered",
    number: int | None = None,
    joined_round: int = 1,
    checked_in: bool = False,
) -> int:
    return await insert_returning_id(
        conn,
        "INSERT INTO players (tournament_id, user_id, name, rating, status, number, joined_round,"
        " checked_in, registered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (tournament_id, user_id, name, rating, status, number, joined_round, int(checked_in),
         to_text(now)),
    )


async def delete_player(conn: Connection, player_id: int) -> None:
    await conn.execute("DELETE FROM players WHERE id = ?", (player_id,))


async def set_rating(conn: Connection, player_id: int, rating: int) -> None:
    await conn.execute("UPDATE players SET rating = ? WHERE id = ?", (rating, player_id))


async def set_checked_in(conn: Connection, player_id: int, checked_in: bool) -> None:
    await conn.execute(
        "UPDATE players SET checked_in = ? WHERE id = ?", (int(checked_in), player_id)
    )


async def activate(conn: Connection, player_id: int, number: int) -> None:
    await conn.execute(
        "UPDATE players SET status = 'active', number = ? WHERE id = ?", (number, player_id)
    )


async def mark_no_show(conn: Connection, player_id: int) -> None:
    await conn.execute("UPDATE players SET status = 'no_show' WHERE id = ?", (player_id,))


async def withdraw(conn: Connection, player_id: int, from_round: int) -> bool:
    cur = await conn.execute(
        "UPDATE players SET status = 'withdrawn', withdrawn_round = ? WHERE id = ?"
        " AND status = 'active'",
        (from_round, player_id),
    )
    return cur.rowcount == 1


async def readmit(conn: Connection, player_id: int) -> bool:
    """A withdrawn player plays again (the organiser re-admits him)."""
    cur = await conn.execute(
        "UPDATE players SET status = 'active', withdrawn_round = NULL WHERE id = ?"
        " AND status = 'withdrawn'",
        (player_id,),
    )
    return cur.rowcount == 1


async def cap_withdrawals(
    conn: Connection, tournament_id: int, round_number: int
) -> None:
    """After undoing round ``round_number``: players who dropped during it are out of it too."""
    await conn.execute(
        "UPDATE players SET withdrawn_round = ? WHERE tournament_id = ? AND withdrawn_round > ?",
        (round_number, tournament_id, round_number),
    )


async def next_number(conn: Connection, tournament_id: int) -> int:
    async with conn.execute(
        "SELECT COALESCE(MAX(number), 0) + 1 FROM players WHERE tournament_id = ?",
        (tournament_id,),
    ) as cur:
        row = await cur.fetchone()
    assert row is not None
    return int(row[0])


async def pairing_numbers(conn: Connection, tournament_id: int) -> dict[int, int]:
    """Player id -> pairing number of the numbered players (two columns, no row objects)."""
    async with conn.execute(
        "SELECT id, number FROM players WHERE tournament_id = ? AND number IS NOT NULL",
        (tournament_id,),
    ) as cur:
        return {int(row[0]): int(row[1]) for row in await cur.fetchall()}
