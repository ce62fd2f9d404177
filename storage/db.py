"""Opening the database (:func:`connect`: SQLite by default, PostgreSQL for a URL) and SQLite's
side of it: WAL mode, foreign keys, busy timeout, migrations, transactions.

Every service operation runs inside one :meth:`Database.transaction` (``BEGIN IMMEDIATE``):
it all happens or nothing does. ``BEGIN IMMEDIATE`` takes the write lock at the start, so two
processes (or two connections) that race for the same operation are serialised by SQLite and
the second one sees what the first one wrote. Inside one process the coroutines sharing a
:class:`Database` are serialised by an :class:`asyncio.Lock`, because a single SQLite
connection has one transaction at a time.

Read-only transactions (``transaction(readonly=True)``: views, the snapshot a big round is
paired from, the standings computed after a commit) run on separate reading connections
(:data:`READERS`, issue 13): in WAL mode a reader sees the last commit and neither waits for
the writer nor makes it wait, so a 3,000-player snapshot read no longer holds the connection
that every other guild's ``/report`` needs, and the other reading connections serve the
other guilds' reads meanwhile. A file name SQLite cannot open twice (``:memory:``) keeps
one connection for everything.

:func:`connect` refuses, with one line for the operator (:class:`UnusableDatabase`), a file
that swissbot could open but not use: not a database, damaged, read-only, or written by a newer
swissbot. Better to stop at start-up than to start and then fail every write.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from storage.checkpoints import WalCheckpointer
from storage.dialects.postgresql import PgDatabase, is_url
from storage.dialects.postgresql import connect as pg_connect
from storage.schema import MigrationError, UnusableDatabase, migration_files
from storage.usage import PoolUsage

T = TypeVar("T")

BUSY_TIMEOUT_MS = 10_000


async def schema_version(conn: aiosqlite.Connection) -> int:
    async with conn.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def apply_migrations(
    conn: aiosqlite.Connection, directory: Path | None = None, *, target: int | None = None
) -> int:
    """Apply every migration newer than the file's ``user_version`` (up to ``target``).

    Each migration runs in its own transaction together with its ``user_version`` bump, so a
    failing migration leaves the file at the previous version. The version is read *inside*
    that ``BEGIN IMMEDIATE`` transaction: several processes opening one new file at once are
    serialised by the write lock, and each one migrates from what the previous one committed
    (reading it before the lock let two of them run migration 1). Returns the new version.
    """
    migrations = migration_files(directory)
    latest = migrations[-1][0] if migrations else 0
    goal = latest if target is None else min(target, latest)
    while True:
        await conn.execute("BEGIN IMMEDIATE")
        try:
            current = await schema_version(conn)
            if current > latest:
                raise MigrationError(
                    f"this database was written by a newer swissbot (schema {current}, this "
                    f"build knows {latest}): upgrade swissbot or point it at another file"
                )
            if current >= goal:
                await conn.execute("COMMIT")
                return current
            _version, _name, sql = migrations[current]  # versions are 1, 2, 3, ... (checked)
            # executescript would COMMIT first; run the statements ourselves in this transaction.
            for statement in _split_sql(sql):
                await conn.execute(statement)
            await conn.execute(f"PRAGMA user_version = {current + 1:d}")
        except BaseException:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise
        await conn.execute("COMMIT")


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


class FetchedCursor:
    """A cursor whose rows were all fetched, and which was closed, with its statement in
    aiosqlite's thread (:class:`FetchingConnection`)."""

    __slots__ = ("_next", "_rows", "description", "lastrowid", "rowcount")

    def __init__(self, rows: list[Any], rowcount: int, lastrowid: int | None,
                 description: Any) -> None:
        self._rows, self._next = rows, 0
        self.rowcount, self.lastrowid, self.description = rowcount, lastrowid, description

    async def fetchone(self) -> Any:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    async def fetchall(self) -> list[Any]:
        rest, self._next = self._rows[self._next:], len(self._rows)
        return rest

    async def close(self) -> None:
        """Nothing left to close (closed in the thread)."""

    async def __aenter__(self) -> FetchedCursor:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


class _Statement:
    """What :meth:`FetchingConnection.execute` returns: awaited, the cursor; or
    ``async with`` it (as aiosqlite's)."""

    __slots__ = ("_running",)

    def __init__(self, running: Awaitable[FetchedCursor]) -> None:
        self._running = running

    def __await__(self) -> Any:
        return self._running.__await__()

    async def __aenter__(self) -> FetchedCursor:
        return await self._running

    async def __aexit__(self, *exc: object) -> None:
        return None


def _execute_fetched(conn: sqlite3.Connection, sql: str, parameters: Any) -> FetchedCursor:
    cursor = conn.execute(sql, parameters)
    try:
        rows = cursor.fetchall()
        return FetchedCursor(rows, cursor.rowcount, cursor.lastrowid, cursor.description)
    finally:
        cursor.close()


class FetchingConnection(aiosqlite.Connection):
    """aiosqlite's connection whose ``execute`` runs the statement, fetches its rows and
    closes its cursor in one call to aiosqlite's thread: one hop from the event loop to
    that thread and back per statement instead of three (execute, fetch, close).

    Each hop waits for the event loop's turn and, on a busy machine, for the thread to be
    scheduled: a 4-player ``/report`` made 26 of them, and while a big round was posted
    they made its transaction last tens of milliseconds (issue 13, loop_spans). The rows
    are the same; only the queries that read many rows and look at the first one would
    read more (the repositories have none: they ``LIMIT`` or read them all)."""

    def execute(  # type: ignore[override]
        self, sql: str, parameters: Any = None
    ) -> _Statement:
        return _Statement(self._execute(_execute_fetched, self._conn, sql,
                                        [] if parameters is None else parameters))


def _open(where: str) -> FetchingConnection:
    """``aiosqlite.connect(where, isolation_level=None)``, as a :class:`FetchingConnection`
    (await it to open it)."""
    def connector() -> sqlite3.Connection:
        return sqlite3.connect(where, isolation_level=None)

    return FetchingConnection(connector, 64)


async def _to_completion(statement: Awaitable[Any]) -> Any:
    """Await a statement to its end even if our task is cancelled meanwhile, then pass the
    cancellation on. aiosqlite runs statements in its own thread: cancelling the await does not
    stop BEGIN, COMMIT or ROLLBACK, it only hides whether they happened."""
    task = asyncio.ensure_future(statement)
    cancelled = False
    while True:
        try:
            result = await asyncio.shield(task)
        except asyncio.CancelledError:
            if task.done():
                raise
            cancelled = True
            continue
        if cancelled:
            raise asyncio.CancelledError
        return result


class Database:
    """A writing aiosqlite connection with serialised transactions, and a reading one (see
    the module docstring). Create it with :func:`connect`."""

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: str,
                 readers: list[aiosqlite.Connection] | None = None,
                 checkpointer: WalCheckpointer | None = None) -> None:
        self.conn = conn
        self.path = path
        # the WAL checkpoints, after the commits rather than inside one (storage.checkpoints)
        self.checkpointer = checkpointer
        self._lock = asyncio.Lock()
        self.readers = list(readers or [])
        # the reading connections not in use: a long read (a big event's snapshot) takes
        # one, the short reads of other guilds take the others
        self._free: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        for reader in self.readers:
            self._free.put_nowait(reader)

    @asynccontextmanager
    async def transaction(self, *, readonly: bool = False) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``; ``ROLLBACK`` if the block raises.

        ``readonly=True`` starts a deferred transaction instead, on the reading connection:
        a consistent snapshot that neither takes the write lock nor waits for the writing
        connection (WAL readers never block the writer, nor the writer them).
        """
        if readonly and self.readers:
            reader = await self._free.get()
            try:
                async with _transaction(reader, "BEGIN") as conn:
                    yield conn
            finally:
                self._free.put_nowait(reader)
            return
        async with self._lock, _transaction(
                self.conn, "BEGIN" if readonly else "BEGIN IMMEDIATE") as conn:
            yield conn
        if not readonly and self.checkpointer is not None:
            self.checkpointer.wrote()  # committed: its pages are checkpointed soon after

    def usage(self) -> PoolUsage:
        """The writing connection and the readers: how many an operation holds now."""
        readers = len(self.readers)
        in_use = int(self._lock.locked()) + readers - self._free.qsize()
        return PoolUsage(size=1 + readers, in_use=in_use, maximum=1 + readers)

    async def retrying(self, operation: Callable[[], Awaitable[T]]) -> T:
        """``operation()`` as it is: SQLite serialises every write transaction on the file
        (``BEGIN IMMEDIATE``), so there are no deadlocks to retry (PostgreSQL's has)."""
        return await operation()

    async def close(self) -> None:
        """Close after the transaction in progress (a command, an outbox pass) has finished:
        closing under it would roll it back half-way through the operation."""
        async with self._lock:
            for _ in self.readers:  # each one once its read is over
                await (await self._free.get()).close()
            if self.checkpointer is not None:
                await self.checkpointer.close()
            await self.conn.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


async def connect(
    target: str | Path, *, migrate: bool = True, migrations_dir: Path | None = None
) -> Database | PgDatabase:
    """Open the database ``target`` names, check it and bring its schema up to date.

    ``postgresql://user:password@host:port/name`` (or ``postgres://``) opens a pool on that
    PostgreSQL database (:mod:`storage.dialects.postgresql`); anything else is a SQLite file,
    given as a path or as ``sqlite:///path``.
    """
    where = str(target)
    if is_url(where):
        return await pg_connect(where, migrate=migrate)
    if where.startswith("sqlite://"):
        # sqlite:///club.sqlite3 is relative, sqlite:////srv/club.sqlite3 absolute (as SQLAlchemy)
        where = where.removeprefix("sqlite://").removeprefix("/")
    return await connect_sqlite(where, migrate=migrate, migrations_dir=migrations_dir)


async def connect_sqlite(
    path: str | Path, *, migrate: bool = True, migrations_dir: Path | None = None
) -> Database:
    """Open (or create) the database file, check it, configure it and bring its schema up to date.

    Raises :class:`UnusableDatabase` (one line naming the file and what to do) when the file
    cannot be used: its folder is missing, it is not a database, it is damaged, it cannot be
    written, or it comes from a newer swissbot.
    """
    where = str(path)
    _check_path(Path(path))
    try:
        conn = await _open(where)
    except sqlite3.Error as exc:
        raise UnusableDatabase(_explain(where, exc)) from exc
    try:
        conn.row_factory = aiosqlite.Row
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        # Read the whole file before anything writes to it: a damaged file must not be
        # "repaired" by a half-successful migration, nor start and then fail every write.
        await _check_integrity(conn, where)
        await _enable_wal(conn)
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("PRAGMA synchronous = NORMAL")
        if migrate:
            await apply_migrations(conn, migrations_dir)
        await _check_writable(conn)
        readers = await _open_readers(where)
        try:
            checkpointer = await _open_checkpointer(where, conn) if readers else None
        except BaseException:
            for reader in readers:
                await reader.close()
            raise
    except MigrationError as exc:
        await conn.close()
        raise MigrationError(f"cannot use the database {where}: {exc}") from None
    except sqlite3.Error as exc:
        await conn.close()
        raise UnusableDatabase(_explain(where, exc)) from exc
    except BaseException:
        await conn.close()
        raise
    return Database(conn, where, readers, checkpointer)


@asynccontextmanager
async def _transaction(conn: aiosqlite.Connection, begin: str
                       ) -> AsyncIterator[aiosqlite.Connection]:
    """``begin`` ... ``COMMIT`` on ``conn``; ``ROLLBACK`` if the block raises."""
    try:
        await _to_completion(conn.execute(begin))
    except BaseException:
        # Cancelled while BEGIN waited for the write lock: it still ran in aiosqlite's
        # thread, so undo it or the next operation on this connection inherits it.
        await _rollback_if_open(conn)
        raise
    try:
        yield conn
        await _to_completion(conn.execute("COMMIT"))
    except BaseException:
        await _rollback_if_open(conn)
        raise


async def _rollback_if_open(conn: aiosqlite.Connection) -> None:
    if conn.in_transaction:
        await _to_completion(conn.execute("ROLLBACK"))


#: Reading connections per process (module docstring): one for a long read, the others
#: for every other guild's short ones meanwhile.
READERS = 3


async def _open_readers(where: str) -> list[aiosqlite.Connection]:
    """The reading connections (module docstring), opened once the file is in WAL mode and
    migrated; none where a second connection would open another database (``:memory:``)."""
    if ":memory:" in where or "mode=memory" in where:
        return []
    readers: list[aiosqlite.Connection] = []
    try:
        for _ in range(READERS):
            reader = await _open(where)
            readers.append(reader)
            reader.row_factory = aiosqlite.Row
            await reader.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
            # A write through it would be a bug (it holds no write lock): SQLite refuses one.
            await reader.execute("PRAGMA query_only = ON")
    except BaseException:
        for reader in readers:
            await reader.close()
        raise
    return readers


async def _open_checkpointer(where: str, writer: aiosqlite.Connection) -> WalCheckpointer:
    """The connection that checkpoints the WAL (storage.checkpoints), and the writer's own
    automatic checkpoints turned off: they ran inside whichever COMMIT crossed 1,000 pages,
    with the write lock held."""
    conn = await _open(where)
    try:
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        await writer.execute("PRAGMA wal_autocheckpoint = 0")
    except BaseException:
        await conn.close()
        raise
    return WalCheckpointer(conn)


async def _enable_wal(conn: aiosqlite.Connection) -> None:
    """``PRAGMA journal_mode = WAL``, retried while another connection holds the file.

    Switching a new file to WAL needs an exclusive lock and SQLite answers "database is
    locked" at once instead of calling the busy handler, so processes that open one new file
    together would fail here; wait for our turn, up to the busy timeout, like any other write.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + BUSY_TIMEOUT_MS / 1000
    delay = 0.005
    while True:
        try:
            await conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            busy = str(getattr(exc, "sqlite_errorname", "")).startswith("SQLITE_BUSY")
            if not busy or loop.time() >= deadline:
                raise
        await asyncio.sleep(delay)
        delay = min(delay * 2, 0.1)


def _check_path(path: Path) -> None:
    """Refuse what the file system already says cannot work, before SQLite says it obscurely.

    ``os.access`` is only a first, friendlier check (it says yes to root for any mode bits);
    :func:`_check_writable` is the real test of writing.
    """
    if str(path) == ":memory:" or str(path).startswith("file:"):
        return
    folder = path.parent
    if not folder.is_dir():
        raise UnusableDatabase(
            f"cannot use the database {path}: the folder {folder} does not exist"
        )
    if path.exists():
        if not path.is_file():
            raise UnusableDatabase(f"cannot use the database {path}: it is not a regular file")
        if not os.access(path, os.R_OK | os.W_OK):
            raise UnusableDatabase(
                f"cannot use the database {path}: the file is read-only for this user; "
                "swissbot must be able to write it"
            )
    # WAL mode keeps NAME-wal and NAME-shm beside the file: the folder must be writable too.
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UnusableDatabase(
            f"cannot use the database {path}: the folder {folder} is read-only for this user; "
            "swissbot must create files beside the database (-wal, -shm)"
        )


async def _check_integrity(conn: aiosqlite.Connection, where: str) -> None:
    """``PRAGMA quick_check``: the whole file reads back as a consistent database.

    quick_check skips the index-content comparison of integrity_check, so it stays fast
    (linear in the file size) while still catching truncated and overwritten pages.
    """
    async with conn.execute("PRAGMA quick_check(1)") as cur:
        row = await cur.fetchone()
    verdict = str(row[0]) if row else "no answer"
    if verdict != "ok":
        raise UnusableDatabase(
            f"cannot use the database {where}: it is damaged (quick_check: "
            f"{_one_line(verdict)}); restore a backup"
        )


async def _check_writable(conn: aiosqlite.Connection) -> None:
    """Write once at start-up, so a read-only file fails now and not at the first command.

    ``BEGIN IMMEDIATE`` alone succeeds on a read-only connection; rewriting ``user_version``
    with its own value is a real write that changes nothing.
    """
    await conn.execute("BEGIN IMMEDIATE")
    try:
        version = await schema_version(conn)
        await conn.execute(f"PRAGMA user_version = {version:d}")
    except BaseException:
        if conn.in_transaction:
            await conn.execute("ROLLBACK")
        raise
    await conn.execute("COMMIT")


# SQLite's primary result codes (``sqlite_errorname``) -> what the operator should do.
_ADVICE: dict[str, str] = {
    "SQLITE_NOTADB": "it is not a SQLite database (wrong file?)",
    "SQLITE_CORRUPT": "it is damaged; restore a backup",
    "SQLITE_READONLY": "it cannot be written (read-only file, folder or file system); "
    "swissbot must be able to write it",
    "SQLITE_CANTOPEN": "SQLite cannot open or create it (check the path and that the folder "
    "is writable)",
    "SQLITE_BUSY": "another process holds it locked (is another swissbot running on it?)",
    "SQLITE_PERM": "access denied",
    "SQLITE_IOERR": "the disk reported an I/O error",
    "SQLITE_FULL": "the disk is full",
}


def _explain(where: str, exc: sqlite3.Error) -> str:
    name = str(getattr(exc, "sqlite_errorname", "") or "")
    for code, advice in _ADVICE.items():
        if name == code or name.startswith(code + "_"):
            return f"cannot use the database {where}: {advice} (SQLite: {_one_line(str(exc))})"
    return f"cannot use the database {where}: {_one_line(str(exc))}"


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= 200 else line[:199] + "…"


# What :func:`connect` returns: the service works with either through ``transaction()``.
AnyDatabase = Database | PgDatabase
