"""Repository: the rounds being paired (migrations 0012, 0017) and the messages posted for
edits.

A run is claimed by inserting its row (``ON CONFLICT DO NOTHING``: one per tournament) and
ended by deleting it with its token, so a late worker never removes a newer run's marker.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from storage.connection import Connection, Row
from storage.timefmt import from_text, to_text


@dataclass(frozen=True, slots=True)
class PairingRunRow:
    tournament_id: int
    round_number: int
    players: int
    token: str
    owner: str
    started_at: datetime
    expires_at: datetime
    progress_id: int | None
    # the command that started the run (migration 0017): None for a background run
    reply_application_id: int | None = None
    reply_token: str | None = field(default=None, repr=False)  # a credential: never shown
    reply_until: datetime | None = None


def _run(row: Row) -> PairingRunRow:
    until = row["reply_until"]
    return PairingRunRow(
        tournament_id=row["tournament_id"],
        round_number=row["round_number"],
        players=row["players"],
        token=row["token"],
        owner=row["owner"],
        started_at=from_text(row["started_at"]),  # type: ignore[arg-type]
        expires_at=from_text(row["expires_at"]),  # type: ignore[arg-type]
        progress_id=row["progress_id"],
        reply_application_id=row["reply_application_id"],
        reply_token=row["reply_token"],
        reply_until=None if until is None else from_text(until),
    )


_COLUMNS = ("tournament_id, round_number, players, token, owner, started_at, expires_at, "
            "progress_id, reply_application_id, reply_token, reply_until")


async def get_run(conn: Connection, tournament_id: int) -> PairingRunRow | None:
    async with conn.execute(
        f"SELECT {_COLUMNS} FROM pairing_runs WHERE tournament_id = ?", (tournament_id,)
    ) as cur:
        row = await cur.fetchone()
    return None if row is None else _run(row)


async def list_runs(conn: Connection) -> list[PairingRunRow]:
    async with conn.execute(
        f"SELECT {_COLUMNS} FROM pairing_runs ORDER BY tournament_id"
    ) as cur:
        return [_run(r) for r in await cur.fetchall()]


async def claim_run(
    conn: Connection,
    *,
    tournament_id: int,
    round_number: int,
    players: int,
    token: str,
    owner: str,
    now: datetime,
    expires_at: datetime,
    reply: tuple[int, str, datetime] | None = None,
) -> bool:
    """Mark round ``round_number`` as being paired; False if a run is already marked.
    ``reply``: (application id, reply token, valid until) of the command that started it."""
    application_id, reply_token, until = reply if reply is not None else (None, None, None)
    async with conn.execute(
        "INSERT INTO pairing_runs (tournament_id, round_number, players, token, owner,"
        " started_at, expires_at, reply_application_id, reply_token, reply_until)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (tournament_id) DO NOTHING RETURNING tournament_id",
        (tournament_id, round_number, players, token, owner, to_text(now),
         to_text(expires_at), application_id, reply_token,
         None if until is None else to_text(until)),
    ) as cur:
        return await cur.fetchone() is not None


async def set_progress(
    conn: Connection, tournament_id: int, token: str, progress_id: int
) -> None:
    await conn.execute(
        "UPDATE pairing_runs SET progress_id = ? WHERE tournament_id = ? AND token = ?",
        (progress_id, tournament_id, token),
    )


async def end_run(conn: Connection, tournament_id: int, token: str) -> bool:
    """Remove the marker of this run (and of no later one). True if it was still there."""
    async with conn.execute(
        "DELETE FROM pairing_runs WHERE tournament_id = ? AND token = ?"
        " RETURNING tournament_id",
        (tournament_id, token),
    ) as cur:
        return await cur.fetchone() is not None


async def remember_message(
    conn: Connection, outbox_id: int, channel_id: int, message_id: int
) -> None:
    await conn.execute(
        "INSERT INTO posted_messages (outbox_id, channel_id, message_id) VALUES (?, ?, ?)"
        " ON CONFLICT (outbox_id) DO UPDATE SET channel_id = excluded.channel_id,"
        " message_id = excluded.message_id",
        (outbox_id, channel_id, message_id),
    )


async def posted_message(
    conn: Connection, outbox_id: int
) -> tuple[int, int] | None:
    """(channel id, message id) of a posted announcement remembered for a later edit."""
    async with conn.execute(
        "SELECT channel_id, message_id FROM posted_messages WHERE outbox_id = ?", (outbox_id,)
    ) as cur:
        row = await cur.fetchone()
    return None if row is None else (int(row[0]), int(row[1]))


async def largest_open_event(conn: Connection) -> int:
    """Players of the biggest tournament in registration or running (0 when none)."""
    async with conn.execute(
        "SELECT COUNT(*) AS n FROM players p JOIN tournaments t ON t.id = p.tournament_id"
        " WHERE t.status IN ('registration', 'running') AND p.status IN"
        " ('registered', 'active') GROUP BY p.tournament_id ORDER BY n DESC LIMIT 1"
    ) as cur:
        row = await cur.fetchone()
    return 0 if row is None else int(row[0])
