"""What an operator's monitoring reads from the database: the outbox backlog and a ping.

Aggregates only (counts and times): nothing here returns a guild, a channel or a user.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from storage.connection import Connection
from storage.timefmt import from_text, to_text

#: Rows the delivery gave up on wait until the year 9999 (service.outbox.GIVEN_UP): they are
#: kept for the record, not part of the backlog.
_GIVEN_UP_FROM = "9999"


@dataclass(frozen=True)
class OutboxBacklog:
    """Undelivered announcements still to be posted, and since when the oldest one is due."""

    depth: int
    oldest_queued: datetime | None  # when the oldest of them was queued (None: no backlog)
    oldest_due: datetime | None  # None: nothing is due now


async def outbox_backlog(conn: Connection, now: datetime) -> OutboxBacklog:
    """Lookups on the partial index of undelivered rows (``outbox_pending``) and one row by
    its key: cheap however long the delivered history is."""
    async with conn.execute(
        "SELECT COUNT(*), MIN(id) FROM outbox WHERE delivered_at IS NULL "
        "AND next_attempt_at < ?",
        (_GIVEN_UP_FROM,),
    ) as cur:
        row = await cur.fetchone()
    depth = int(row[0]) if row is not None else 0
    oldest_queued = None
    if row is not None and row[1] is not None:  # ids grow with time: the oldest row
        async with conn.execute("SELECT created_at FROM outbox WHERE id = ?",
                                (row[1],)) as cur:
            queued = await cur.fetchone()
        oldest_queued = from_text(queued[0]) if queued is not None else None
    async with conn.execute(
        "SELECT MIN(next_attempt_at) FROM outbox WHERE delivered_at IS NULL "
        "AND next_attempt_at <= ?",
        (to_text(now),),
    ) as cur:
        row = await cur.fetchone()
    return OutboxBacklog(depth=depth, oldest_queued=oldest_queued,
                         oldest_due=from_text(row[0]) if row is not None else None)


async def ping(conn: Connection) -> None:
    """A round trip to the database (raises when it cannot be reached)."""
    async with conn.execute("SELECT 1") as cur:
        await cur.fetchone()
