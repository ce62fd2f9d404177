"""The SQLite connection: WAL mode, foreign keys, busy timeout, migrations, transactions.

Every service operation runs inside one :meth:`Database.transaction` (``BEGIN IMMEDIATE``):
it all happens or nothing does. ``BEGIN IMMEDIATE`` takes the write lock at the start, so two
processes (or two connections) that race for the same operation are serialised by SQLite and
the second one sees what the first one wrote. Inside one process the coroutines sharing a
:class:`Database` are serialised by an :class:`asyncio.Lock`, because a single SQLite
connection has one transaction at a time.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path

import aiosqlite

BUSY_TIMEOUT_MS = 10_000
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class MigrationError(RuntimeError):
    """The migration files are inconsistent or the database is newer than this code."""


def migration_files(directory: Path | None = None) -> list[tuple[int, str, str]]:
    """The numbered migrations as ``(version, file name, sql)``, in order.

    Versions must be 1, 2, 3, ... without gaps: ``PRAGMA user_version`` records the last one
    applied, so a gap would silently skip a file.
    """
    if directory is None:
        entries = [
            (entry.name, entry.read_text(encoding="utf-8"))
            for entry in resources.files("storage").joinpath("migrations").iterdir()
            if entry.name.endswith(".sql")
        ]
    else:
        entries = [(p.name, p.read_text(encoding="utf-8")) for p in directory.glob("*.sql")]
    found: list[tuple[int, str, str]] = []
    for name, sql in entries:
        match = _MIGRATION_NAME.match(name)
        if match is None:
            raise MigrationError(f"migration file {name!r} is not named NNNN_description.sql")
        found.append((int(match.group(1)), name, sql))
    found.sort()
    for expected, (version, name, _) in enumerate(found, start=1):
        if version != expected:
            raise MigrationError(f"migration {name} should be number {expected:04d}")
    return found


async def schema_version(conn: aiosqlite.Connection) -> int:
    async with conn.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def apply_migrations(
    conn: aiosqlite.Connection, directory: Path | None = None, *, target: int | None = None
) -> int:
    """Apply every migration newer than the file's ``user_version`` (up to ``target``).

    Each migration runs in its own transaction together with its ``user_version`` bump, so a
    failing migration leaves the file at the previous version. Returns the new version.
    """
    migrations = migration_files(directory)
    latest = migrations[-1][0] if migrations else 0
    current = await schema_version(conn)
    if current > latest:
        raise MigrationError(
            f"the database is at schema version {current} but this swissbot knows only up to "
            f"{latest}: upgrade swissbot"
        )
    for version, _name, sql in migrations:
        if version <= current or (target is not None and version > target):
            continue
        # executescript would COMMIT first; run the statements ourselves inside one transaction.
        await conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in _split_sql(sql):
                await conn.execute(statement)
            await conn.execute(f"PRAGMA user_version = {version:d}")
        except BaseException:
            await conn.execute("ROLLBACK")
            raise
        await conn.execute("COMMIT")
        current = version
    return current


def _split_sql(script: str) -> list[str]:
    """Split a migration into complete statements (triggers included), comments dropped."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines():
        if line.strip().startswith("--"):
            continue
        buffer += line + "\n"
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        raise MigrationError(f"unterminated SQL statement in a migration: {buffer.strip()[:60]!r}")
    return statements


class Database:
    """One aiosqlite connection with serialised transactions. Create it with :func:`connect`."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self.conn = conn
        self.path = path
        self._lock = asyncio.Lock()

    @asynccontextmanager
    async def transaction(self, *, readonly: bool = False) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``; ``ROLLBACK`` if the block raises.

        ``readonly=True`` starts a deferred transaction instead: a consistent snapshot that
        does not take the write lock (WAL readers never block the writer).
        """
        async with self._lock:
            await self.conn.execute("BEGIN" if readonly else "BEGIN IMMEDIATE")
            try:
                yield self.conn
                await self.conn.execute("COMMIT")
            except BaseException:
                if self.conn.in_transaction:
                    await self.conn.execute("ROLLBACK")
                raise

    async def close(self) -> None:
        """Close after the transaction in progress (a command, an outbox pass) has finished:
        closing under it would roll it back half-way through the operation."""
        async with self._lock:
            await self.conn.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


async def connect(
    path: str | Path, *, migrate: bool = True, migrations_dir: Path | None = None
) -> Database:
    """Open (or create) the database file, configure it and bring its schema up to date."""
    conn = await aiosqlite.connect(str(path), isolation_level=None)
    try:
        conn.row_factory = aiosqlite.Row
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("PRAGMA synchronous = NORMAL")
        if migrate:
            await apply_migrations(conn, migrations_dir)
    except BaseException:
        await conn.close()
        raise
    return Database(conn, str(path))
