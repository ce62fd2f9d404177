"""The one connection interface the repositories and the service use, whatever the backend.

It is the part of aiosqlite's connection that swissbot uses, so an ``aiosqlite.Connection``
is one as it is, and :class:`storage.dialects.postgresql.PgConnection` implements the same over
asyncpg::

    async with conn.execute(sql, params) as cur:   # or: cur = await conn.execute(...)
        row = await cur.fetchone()                 # rows index by position and by name
    cur.rowcount                                   # rows changed (or returned)
    await conn.executemany(sql, rows)

SQL is written once with ``?`` placeholders in portable SQL; the few fragments that differ
per dialect come from :func:`dialect` (``storage.dialects.sqlite`` / ``.postgresql``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Iterable, Iterator, Sequence
from types import ModuleType
from typing import Any, Protocol

import asyncpg


class Row(Protocol):
    """One result row: ``row[0]`` or ``row["column"]``."""

    def __getitem__(self, key: int | str) -> Any: ...

    def keys(self) -> Iterable[str]: ...


class Cursor(Protocol):
    rowcount: int

    async def fetchone(self) -> Row | None: ...

    async def fetchall(self) -> Iterable[Row]: ...


class Statement(Protocol):
    """What ``execute`` returns: awaited it is the cursor, or ``async with`` it."""

    def __await__(self) -> Iterator[Any]: ...

    async def __aenter__(self) -> Cursor: ...

    async def __aexit__(self, *exc: object) -> Any: ...


class Connection(Protocol):
    """A connection inside one :meth:`Database.transaction`."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Statement: ...

    def executemany(
        self, sql: str, parameters: Iterable[Sequence[Any]], /
    ) -> Awaitable[Any]: ...


# A constraint the database refused (unique, foreign key, check, the audit log's trigger), on
# either backend: ``except IntegrityError`` works on both.
IntegrityError: tuple[type[Exception], ...] = (
    sqlite3.IntegrityError,
    asyncpg.IntegrityConstraintViolationError,
)


def dialect(conn: Connection) -> ModuleType:
    """The module of SQL fragments for this connection's backend."""
    from storage.dialects import postgresql, sqlite

    return postgresql if isinstance(conn, postgresql.PgConnection) else sqlite


async def insert_returning_id(conn: Connection, sql: str, parameters: Sequence[Any]) -> int:
    """Run an ``INSERT`` and return the new row's ``id`` (``RETURNING``, portable where
    ``cursor.lastrowid`` is SQLite's)."""
    async with conn.execute(sql + " RETURNING id", parameters) as cur:
        row = await cur.fetchone()
    assert row is not None
    return int(row[0])
