"""Helpers for the storage and service tests: a real database, a settable clock, actors.

``open_service(path)`` opens the SQLite file ``path``, or, while the ``backend`` fixture
(tests/conftest.py) runs a test on PostgreSQL, a fresh database of the test cluster standing
for that path (the same one when the test opens the path again, as a restart would).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from service import Actor, TournamentService
from storage.db import AnyDatabase, connect

if TYPE_CHECKING:
    from tests.pg_cluster import Cluster

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


class _Backend:
    """The PostgreSQL cluster in use (None: SQLite) and the databases made for this test."""

    cluster: ClassVar[Cluster | None] = None
    databases: ClassVar[dict[str, str]] = {}


def use_postgresql(cluster: Cluster) -> None:
    _Backend.cluster = cluster
    _Backend.databases = {}


def use_sqlite() -> None:
    """Back to SQLite; the databases the test used are emptied for the next ones."""
    cluster, urls = _Backend.cluster, list(_Backend.databases.values())
    _Backend.cluster, _Backend.databases = None, {}
    if cluster is not None and urls:
        import asyncio

        asyncio.run(cluster.release(urls))


def on_postgresql() -> bool:
    return _Backend.cluster is not None


async def open_database(path: Path) -> AnyDatabase:
    """The test's database standing for ``path`` on the backend in force."""
    cluster = _Backend.cluster
    if cluster is None:
        return await connect(path)
    url = _Backend.databases.get(str(path))
    if url is None:
        url = _Backend.databases[str(path)] = await cluster.new_database()
    return await connect(url)


def database_target(path: Path) -> str:
    """What ``SWISSBOT_DATABASE`` says for the database :func:`open_database` opened for
    ``path`` (a bot process started on it opens the same one)."""
    return _Backend.databases.get(str(path), str(path))


@asynccontextmanager
async def open_service(
    path: Path, clock: Clock | None = None
) -> AsyncIterator[TournamentService]:
    db = await open_database(path)
    try:
        yield TournamentService(db, clock=clock or Clock())
    finally:
        await db.close()


MODES = ["one connection", "two connections"]  # for two_services


@asynccontextmanager
async def two_services(path: Path, mode: str) -> AsyncIterator[tuple[TournamentService, ...]]:
    """The same service twice ("one connection") or two services on two connections."""
    clock = Clock()
    async with open_service(path, clock) as first:
        if mode == "one connection":
            yield first, first
        else:
            async with open_service(path, clock) as second:
                yield first, second
