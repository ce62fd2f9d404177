"""Health and monitoring reads (the bot's /readyz and Prometheus metrics): Discord-free and
free of user data, like the rest of the service."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from service.base import Context, part
from service.operation import operation
from storage import health
from storage.usage import PoolUsage


@dataclass(frozen=True)
class OutboxHealth:
    """``depth``: announcements not yet posted (given-up ones excluded); ``oldest_seconds``:
    the age of the oldest of them (0 when there is none); ``oldest_due_seconds``: how long the
    longest-waiting due one has been waiting past its due time (0 when none is due; a failed
    one waiting for its retry is not due)."""

    depth: int
    oldest_seconds: float
    oldest_due_seconds: float


@part
class Health:
    ctx: Context

    @operation
    async def outbox_health(self, now: datetime | None = None) -> OutboxHealth:
        """The outbox backlog, read in a short read-only transaction."""
        now = now or self.ctx.precise_now()
        async with self.ctx.db.transaction(readonly=True) as conn:
            backlog = await health.outbox_backlog(conn, now)
        return OutboxHealth(depth=backlog.depth, oldest_seconds=_since(backlog.oldest_queued, now),
                            oldest_due_seconds=_since(backlog.oldest_due, now))

    @operation
    async def database_ping(self) -> None:
        """Raises when the database cannot be reached (its driver's error)."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            await health.ping(conn)

    def database_usage(self) -> PoolUsage | None:
        """The connections of the database (None for a test double without them)."""
        usage = getattr(self.ctx.db, "usage", None)
        return usage() if usage is not None else None


def _since(moment: datetime | None, now: datetime) -> float:
    return 0.0 if moment is None else max(0.0, (now - moment).total_seconds())
