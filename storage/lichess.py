"""Repository: Lichess links, link requests, claim conflicts, tokens, events and ratings
(migration 0018). Tokens arrive here already encrypted: storage never sees one in clear."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from storage.connection import Connection, insert_returning_id
from storage.timefmt import from_text, to_text


@dataclass(frozen=True, slots=True)
class LinkRow:
    guild_id: int
    user_id: int
    lichess_id: str
    username: str
    method: str
    linked_at: datetime


@dataclass(frozen=True, slots=True)
class LinkRequestRow:
    secret: str
    guild_id: int
    user_id: int
    method: str
    lichess_id: str | None
    verifier: str | None
    created_at: datetime
    expires_at: datetime
    used_at: datetime | None


@dataclass(frozen=True, slots=True)
class ConflictRow:
    lichess_id: str
    holder_id: int
    claimant_id: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class EventRow:
    tournament_id: int
    speed: str
    clock_limit: int
    clock_increment: int
    rated: bool


@dataclass(frozen=True, slots=True)
class RatingRow:
    player_id: int
    username: str
    rating: int
    provisional: bool


_LINK_COLUMNS = "guild_id, user_id, lichess_id, username, method, linked_at"


def _link(row: object) -> LinkRow:
    r: Any = row  # a database row, read by column name
    return LinkRow(guild_id=int(r["guild_id"]), user_id=int(r["user_id"]),
                   lichess_id=str(r["lichess_id"]), username=str(r["username"]),
                   method=str(r["method"]), linked_at=from_text(r["linked_at"]))  # type: ignore[arg-type]


async def link_of_member(conn: Connection, guild_id: int, user_id: int) -> LinkRow | None:
    return await _one_link(conn, "user_id = ?", (guild_id, user_id))


async def link_of_account(conn: Connection, guild_id: int, lichess_id: str) -> LinkRow | None:
    return await _one_link(conn, "lichess_id = ?", (guild_id, lichess_id))


async def _one_link(conn: Connection, condition: str, params: tuple[Any, ...]
                    ) -> LinkRow | None:
    async with conn.execute(
        f"SELECT {_LINK_COLUMNS} FROM lichess_links WHERE guild_id = ? AND {condition}", params,
    ) as cursor:
        row = await cursor.fetchone()
    return None if row is None else _link(row)


async def list_links(conn: Connection, guild_id: int) -> list[LinkRow]:
    async with conn.execute(
        f"SELECT {_LINK_COLUMNS} FROM lichess_links WHERE guild_id = ? ORDER BY lichess_id",
        (guild_id,),
    ) as cursor:
        rows = await cursor.fetchall()
    return [_link(row) for row in rows]


async def insert_link(conn: Connection, link: LinkRow) -> None:
    """Raises the backend's IntegrityError when the member or the account is linked already."""
    await conn.execute(
        f"INSERT INTO lichess_links ({_LINK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
        (link.guild_id, link.user_id, link.lichess_id, link.username, link.method,
         to_text(link.linked_at)),
    )


async def delete_link(conn: Connection, guild_id: int, user_id: int) -> bool:
    cur = await conn.execute(
        "DELETE FROM lichess_links WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
    await conn.execute(
        "DELETE FROM lichess_tokens WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
    return cur.rowcount == 1


# -- link requests ---------------------------------------------------------------------------
_REQUEST_COLUMNS = ("secret, guild_id, user_id, method, lichess_id, verifier, created_at,"
                    " expires_at, used_at")


async def insert_request(conn: Connection, request: LinkRequestRow) -> None:
    await conn.execute(
        f"INSERT INTO lichess_link_requests ({_REQUEST_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?,"
        " ?)",
        (request.secret, request.guild_id, request.user_id, request.method, request.lichess_id,
         request.verifier, to_text(request.created_at), to_text(request.expires_at), None),
    )


async def get_request(conn: Connection, secret: str) -> LinkRequestRow | None:
    async with conn.execute(
        f"SELECT {_REQUEST_COLUMNS} FROM lichess_link_requests WHERE secret = ?", (secret,)
    ) as cursor:
        row = await cursor.fetchone()
    return None if row is None else _request(row)


async def latest_request(
    conn: Connection, guild_id: int, user_id: int, method: str
) -> LinkRequestRow | None:
    """The member's newest request of ``method`` (used or not)."""
    async with conn.execute(
        f"SELECT {_REQUEST_COLUMNS} FROM lichess_link_requests WHERE guild_id = ? AND"
        " user_id = ? AND method = ? ORDER BY created_at DESC, secret LIMIT 1",
        (guild_id, user_id, method),
    ) as cursor:
        row = await cursor.fetchone()
    return None if row is None else _request(row)


async def use_request(conn: Connection, secret: str, now: datetime) -> bool:
    """Mark the request used: True for the one call that did (a code works once)."""
    cur = await conn.execute(
        "UPDATE lichess_link_requests SET used_at = ? WHERE secret = ? AND used_at IS NULL"
        " AND expires_at > ?",
        (to_text(now), secret, to_text(now)),
    )
    return cur.rowcount == 1


def _request(row: object) -> LinkRequestRow:
    r: Any = row
    return LinkRequestRow(
        secret=str(r["secret"]), guild_id=int(r["guild_id"]), user_id=int(r["user_id"]),
        method=str(r["method"]), lichess_id=r["lichess_id"], verifier=r["verifier"],
        created_at=from_text(r["created_at"]),  # type: ignore[arg-type]
        expires_at=from_text(r["expires_at"]),  # type: ignore[arg-type]
        used_at=from_text(r["used_at"]),
    )


# -- conflicts, tokens -----------------------------------------------------------------------
async def insert_conflict(conn: Connection, guild_id: int, lichess_id: str, holder_id: int,
                          claimant_id: int, now: datetime) -> int:
    return await insert_returning_id(
        conn,
        "INSERT INTO lichess_conflicts (guild_id, lichess_id, holder_id, claimant_id,"
        " created_at) VALUES (?, ?, ?, ?, ?)",
        (guild_id, lichess_id, holder_id, claimant_id, to_text(now)),
    )


async def recent_conflicts(conn: Connection, guild_id: int, limit: int = 10) -> list[ConflictRow]:
    async with conn.execute(
        "SELECT lichess_id, holder_id, claimant_id, created_at FROM lichess_conflicts"
        " WHERE guild_id = ? ORDER BY id DESC LIMIT ?",
        (guild_id, limit),
    ) as cursor:
        rows = await cursor.fetchall()
    return [ConflictRow(lichess_id=str(r["lichess_id"]), holder_id=int(r["holder_id"]),
                        claimant_id=int(r["claimant_id"]),
                        created_at=from_text(r["created_at"]))  # type: ignore[arg-type]
            for r in rows]


async def store_token(conn: Connection, guild_id: int, user_id: int, ciphertext: str,
                      now: datetime) -> None:
    await conn.execute("DELETE FROM lichess_tokens WHERE guild_id = ? AND user_id = ?",
                       (guild_id, user_id))
    await conn.execute(
        "INSERT INTO lichess_tokens (guild_id, user_id, token, stored_at) VALUES (?, ?, ?, ?)",
        (guild_id, user_id, ciphertext, to_text(now)),
    )


async def token_of(conn: Connection, guild_id: int, user_id: int) -> str | None:
    async with conn.execute(
        "SELECT token FROM lichess_tokens WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
    ) as cursor:
        row = await cursor.fetchone()
    return None if row is None else str(row[0])


# -- events and ratings ----------------------------------------------------------------------
async def get_event(conn: Connection, tournament_id: int) -> EventRow | None:
    async with conn.execute(
        "SELECT tournament_id, speed, clock_limit, clock_increment, rated FROM lichess_events"
        " WHERE tournament_id = ?", (tournament_id,)
    ) as cursor:
        r = await cursor.fetchone()
    if r is None:
        return None
    return EventRow(tournament_id=int(r["tournament_id"]), speed=str(r["speed"]),
                    clock_limit=int(r["clock_limit"]), clock_increment=int(r["clock_increment"]),
                    rated=bool(r["rated"]))


async def put_event(conn: Connection, event: EventRow) -> None:
    await conn.execute("DELETE FROM lichess_events WHERE tournament_id = ?",
                       (event.tournament_id,))
    await conn.execute(
        "INSERT INTO lichess_events (tournament_id, speed, clock_limit, clock_increment, rated)"
        " VALUES (?, ?, ?, ?, ?)",
        (event.tournament_id, event.speed, event.clock_limit, event.clock_increment,
         int(event.rated)),
    )


async def delete_event(conn: Connection, tournament_id: int) -> bool:
    cur = await conn.execute("DELETE FROM lichess_events WHERE tournament_id = ?",
                             (tournament_id,))
    return cur.rowcount == 1


async def put_rating(conn: Connection, tournament_id: int, rating: RatingRow,
                     now: datetime) -> None:
    await conn.execute("DELETE FROM lichess_ratings WHERE player_id = ?", (rating.player_id,))
    await conn.execute(
        "INSERT INTO lichess_ratings (player_id, tournament_id, username, rating, provisional,"
        " fetched_at) VALUES (?, ?, ?, ?, ?, ?)",
        (rating.player_id, tournament_id, rating.username, rating.rating,
         int(rating.provisional), to_text(now)),
    )


async def ratings_of(conn: Connection, tournament_id: int) -> dict[int, RatingRow]:
    async with conn.execute(
        "SELECT player_id, username, rating, provisional FROM lichess_ratings"
        " WHERE tournament_id = ?", (tournament_id,)
    ) as cursor:
        rows = await cursor.fetchall()
    return {int(r["player_id"]): RatingRow(player_id=int(r["player_id"]),
                                           username=str(r["username"]), rating=int(r["rating"]),
                                           provisional=bool(r["provisional"])) for r in rows}
