"""Repository: stored timers and no-show claims (migration 0005).

A timer is claimed by the one transaction that sets its ``fired_at`` (``UPDATE ... WHERE
fired_at IS NULL``): the service carries out the timer's action in that same transaction, so
an action happens if and only if its timer is marked fired, exactly once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from storage.connection import Connection, Row, insert_returning_id
from storage.shards import ALL, Shards
from storage.timefmt import from_text, to_text


@dataclass(frozen=True, slots=True)
class TimerRow:
    id: int
    tournament_id: int
    round_id: int | None
    round_number: int
    kind: str  # reminder, deadline, noshow, round_start
    due_at: datetime
    subject: int | None
    fired_at: datetime | None
    outcome: str | None


@dataclass(frozen=True, slots=True)
class NoShowClaimRow:
    id: int
    tournament_id: int
    game_id: int
    claimant_id: int
    claimed_at: datetime
    ends_at: datetime
    state: str  # open, objected, granted, void


def _timer(row: Row) -> TimerRow:
    return TimerRow(
        id=row["id"],
        tournament_id=row["tournament_id"],
        round_id=row["round_id"],
        round_number=row["round_number"],
        kind=row["kind"],
        due_at=from_text(row["due_at"]),  # type: ignore[arg-type]
        subject=row["subject"],
        fired_at=from_text(row["fired_at"]),
        outcome=row["outcome"],
    )


def _claim(row: Row) -> NoShowClaimRow:
    return NoShowClaimRow(
        id=row["id"],
        tournament_id=row["tournament_id"],
        game_id=row["game_id"],
        claimant_id=row["claimant_id"],
        claimed_at=from_text(row["claimed_at"]),  # type: ignore[arg-type]
        ends_at=from_text(row["ends_at"]),  # type: ignore[arg-type]
        state=row["state"],
    )


async def insert_timer(
    conn: Connection,
    *,
    tournament_id: int,
    round_id: int | None,
    round_number: int,
    kind: str,
    due_at: datetime,
    now: datetime,
    subject: int | None = None,
) -> int:
    return await insert_returning_id(
        conn,
        "INSERT INTO timers (tournament_id, round_id, round_number, kind, due_at, subject,"
        " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (tournament_id, round_id, round_number, kind, to_text(due_at), subject, to_text(now)),
    )


# Within one moment a deadline acts before a scheduled start (which waits for it), and
# reminders come before both.
_KIND_ORDER = (
    "CASE kind WHEN 'reminder' THEN 0 WHEN 'noshow' THEN 1 WHEN 'deadline' THEN 2 ELSE 3 END"
)


async def due_timers(
    conn: Connection, now: datetime, shards: Shards = ALL
) -> list[TimerRow]:
    """Unfired timers due at ``now`` or earlier (of guilds on ``shards``), oldest first."""
    mine, params = shards.where("t.guild_id")
    async with conn.execute(
        "SELECT timers.* FROM timers JOIN tournaments AS t ON t.id = timers.tournament_id"
        f" WHERE timers.fired_at IS NULL AND timers.due_at <= ? AND {mine}"
        f" ORDER BY timers.due_at, {_KIND_ORDER.replace('kind', 'timers.kind', 1)}, timers.id",
        (to_text(now), *params),
    ) as cur:
        return [_timer(row) for row in await cur.fetchall()]


async def get_timer(conn: Connection, timer_id: int) -> TimerRow | None:
    async with conn.execute("SELECT * FROM timers WHERE id = ?", (timer_id,)) as cur:
        row = await cur.fetchone()
    return None if row is None else _timer(row)


async def list_timers(conn: Connection, tournament_id: int) -> list[TimerRow]:
    async with conn.execute(
        "SELECT * FROM timers WHERE tournament_id = ? ORDER BY due_at, id", (tournament_id,)
    ) as cur:
        return [_timer(row) for row in await cur.fetchall()]


async def claim_timer(
    conn: Connection, timer_id: int, now: datetime, outcome: str = "fired"
) -> bool:
    """Mark the timer fired; True only for the one caller that did (exactly-once)."""
    cur = await conn.execute(
        "UPDATE timers SET fired_at = ?, outcome = ? WHERE id = ? AND fired_at IS NULL",
        (to_text(now), outcome, timer_id),
    )
    return cur.rowcount == 1


async def set_outcome(conn: Connection, timer_id: int, outcome: str) -> None:
    await conn.execute("UPDATE timers SET outcome = ? WHERE id = ?", (outcome, timer_id))


async def postpone(conn: Connection, timer_id: int, due_at: datetime) -> None:
    await conn.execute(
        "UPDATE timers SET due_at = ? WHERE id = ? AND fired_at IS NULL",
        (to_text(due_at), timer_id),
    )


async def cancel_pending(
    conn: Connection,
    tournament_id: int,
    kind: str,
    now: datetime,
    *,
    subject: int | None = None,
) -> int:
    """Cancel the unfired timers of one kind (and subject): they will never fire."""
    sql = ("UPDATE timers SET fired_at = ?, outcome = 'cancelled' WHERE tournament_id = ?"
           " AND kind = ? AND fired_at IS NULL")
    params: list[object] = [to_text(now), tournament_id, kind]
    if subject is not None:
        sql += " AND subject = ?"
        params.append(subject)
    cur = await conn.execute(sql, params)
    return cur.rowcount


# -- no-show claims ------------------------------------------------------------------------------
async def insert_claim(
    conn: Connection,
    *,
    tournament_id: int,
    game_id: int,
    claimant_id: int,
    now: datetime,
    ends_at: datetime,
) -> bool:
    """False if the game already has a claim (UNIQUE game_id: two claims race, one wins)."""
    cur = await conn.execute(
        "INSERT INTO noshow_claims (tournament_id, game_id, claimant_id, claimed_at,"
        " ends_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        (tournament_id, game_id, claimant_id, to_text(now), to_text(ends_at)),
    )
    return cur.rowcount == 1


async def get_claim(conn: Connection, game_id: int) -> NoShowClaimRow | None:
    async with conn.execute("SELECT * FROM noshow_claims WHERE game_id = ?", (game_id,)) as cur:
        row = await cur.fetchone()
    return None if row is None else _claim(row)


async def settle_claim(
    conn: Connection, game_id: int, state: str, now: datetime
) -> bool:
    """open -> ``state``; False if it was settled already (an objection racing the expiry)."""
    cur = await conn.execute(
        "UPDATE noshow_claims SET state = ?, settled_at = ? WHERE game_id = ? AND state = 'open'",
        (state, to_text(now), game_id),
    )
    return cur.rowcount == 1
