"""Announcements with what they bring along: the outbox row, then (same transaction) the DMs
and game threads of :class:`service.notify.Notify`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.base import Context, part, post_announcement
from service.notify import Notify
from storage.connection import Connection
from storage.tournaments import TournamentRow


@part
class Announcer:
    ctx: Context
    notify: Notify

    async def announce(
        self, conn: Connection, t: TournamentRow, kind: str, payload: dict[str, Any],
        *, deferred: dict[str, Any] | None = None,
        encode: Callable[[dict[str, Any]], str] | None = None,
        channel_id: int | None = None,
    ) -> int:
        """Queue an announcement in the tournament's channel (else the guild's default one)
        (:func:`service.base.post_announcement`), then what it brings with it
        (:meth:`announced`). ``deferred``: its standings are computed after the commit
        (``service.deferred``), and what follows it waits for them. ``channel_id``: posted
        there (a game's thread) rather than in the event's channel."""
        row_id = await post_announcement(self.ctx, conn, t, kind, payload,
                                         deferred=deferred, encode=encode,
                                         channel_id=channel_id)
        if deferred is None:
            await self.announced(conn, t, kind, payload)
        return row_id

    async def announced(
        self, conn: Connection, t: TournamentRow, kind: str, payload: dict[str, Any]
    ) -> None:
        """What an announcement brings with it, in the same transaction: the DMs and game
        threads of ``service.notify``."""
        await self.notify.announced(conn, t, kind, payload)
