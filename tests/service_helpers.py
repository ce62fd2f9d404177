"""Helpers for the storage and service tests: a real SQLite file, a settable clock, actors."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

from service import Actor, TournamentService
from storage.db import connect

GUILD = 1000
OTHER_GUILD = 2000
START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


def organiser(guild: int = GUILD, user_id: int = 1, name: str = "Orla") -> Actor:
    return Actor(user_id=user_id, guild_id=guild, display_name=name, is_organiser=True)


def manager(guild: int = GUILD, user_id: int = 2, name: str = "Mona") -> Actor:
    """Manage Server, Administrator or the guild owner: an organiser who also decides who
    organises."""
    return Actor(user_id=user_id, guild_id=guild, display_name=name, is_organiser=True,
                 is_manager=True)


def member(user_id: int, guild: int = GUILD, name: str | None = None) -> Actor:
    return Actor(user_id=user_id, guild_id=guild, display_name=name or f"Player{user_id}",
                 is_organiser=False)


@asynccontextmanager
async def open_service(
    path: Path, clock: Clock | None = None
) -> AsyncIterator[TournamentService]:
    db = await connect(path)
    try:
        yield TournamentService(db, clock=clock or Clock())
    finally:
        await db.close()
