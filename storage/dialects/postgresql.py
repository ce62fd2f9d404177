"""PostgreSQL over asyncpg: the connection adapter, the pool, transactions and migrations.

Transactions: READ COMMITTED plus a row lock on the tournament. SQLite's ``BEGIN IMMEDIATE``
serialises every write on the file; here the write operations of one tournament are serialised
instead, by ``SELECT ... FOR NO KEY UPDATE`` on its row (:func:`lock_clause`, used by
``storage.tournaments.get_tournament`` and :func:`storage.tournaments.locked`). Every service
operation resolves its tournament before it reads the rest (the few that start from a game or a
timer read that row again once the tournament is locked), so once the lock is granted the
operation runs alone on that tournament, and READ COMMITTED gives each later statement a fresh
snapshot that includes what the previous holder committed: the optimistic round checks (the
round and draft version an operation names) see the latest state exactly as on SQLite. We do not
use SERIALIZABLE: its conflicts surface at any statement or at COMMIT and need the whole
operation re-run, which ``async with db.transaction()`` blocks cannot do. ``NO KEY UPDATE``
(not ``UPDATE``) so that foreign-key checks of other transactions (``KEY SHARE``) do not wait.
Operations of different tournaments and guilds run in parallel on separate pooled connections.

Deadlocks (SQLSTATE 40P01) can still happen between operations that lock rows of several
tables in different orders, and serialization failures (40001) in a REPEATABLE READ snapshot.
PostgreSQL rolls the victim's transaction back; :func:`retrying` (``db.retrying(op)``, which
the service wraps around every public operation) then runs the whole operation again, a
bounded number of times after a random pause, but only while the operation has committed
nothing yet: re-running one whose earlier transaction committed could apply that part twice,
so such a failure is raised as it is.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from importlib import resources
from typing import Any, TypeVar

import asyncpg

from storage.schema import MigrationError, UnusableDatabase, checked_migrations
from storage.usage import PoolUsage

NAME = "postgresql"

# lower() on both sides, matching the unique indexes on lower(name) of the PostgreSQL migrations.
NAME_EQUALS = "lower(name) = lower(?)"

# A round's boards from one JSON text [[white, black], ...] (storage.rounds.insert_games):
# board = the element's ordinal (1-based). The casts: a parameter in a SELECT list has no
# type to infer from the INSERT's columns.
INSERT_GAMES_FROM_JSON = (
    "INSERT INTO games (tournament_id, round_id, board, white_id, black_id)"
    " SELECT CAST(? AS BIGINT), CAST(? AS BIGINT), t.board, CAST(t.pair ->> 0 AS BIGINT),"
    " CAST(t.pair ->> 1 AS BIGINT)"
    " FROM jsonb_array_elements(CAST(? AS JSONB)) WITH ORDINALITY AS t (pair, board)"
)

# Any fixed number: the key of the advisory lock that serialises migrations across processes.
MIGRATION_LOCK = 0x5357_4953_5342_4F54 & 0x7FFF_FFFF_FFFF_FFFF

POOL_MIN = 1
POOL_MAX = 10

# Transient conflicts: PostgreSQL rolled the transaction back, and the same operation run again
# normally succeeds (40001 serialization_failure, 40P01 deadlock_detected).
RETRYABLE: tuple[type[Exception], ...] = (asyncpg.SerializationError,
                                          asyncpg.DeadlockDetectedError)
RETRY_ATTEMPTS = 4  # runs in all, the first included
RETRY_BASE_SECONDS = 0.05  # the k-th pause is random in [0, base * 2**(k-1)): "full jitter"

log = logging.getLogger(__name__)
T = TypeVar("T")


class _Operation:
    """One run of an operation under :func:`retrying`: has it committed a write yet?"""

    __slots__ = ("committed",)

    def __init__(self) -> None:
        self.committed = False


_operation: ContextVar[_Operation | None] = ContextVar("swissbot_pg_operation", default=None)


def is_retryable(error: BaseException) -> bool:
    """A transient conflict (directly, or as the cause of the error that reached us)."""
    return isinstance(error, RETRYABLE) or isinstance(error.__cause__, RETRYABLE)


async def retrying(
    operation: Callable[[], Awaitable[T]],
    *,
    attempts: int = RETRY_ATTEMPTS,
    base_seconds: float = RETRY_BASE_SECONDS,
) -> T:
    """Run ``operation()``; when it fails with a deadlock or a serialization failure before
    any of its transactions committed, run it again (``attempts`` runs at most) after a
    random pause. Nested calls (an operation calling another) leave the retrying to the
    outermost one, which alone knows whether something committed."""
    if _operation.get() is not None:
        return await operation()
    for attempt in range(1, max(1, attempts) + 1):
        state = _Operation()
        token = _operation.set(state)
        try:
            return await operation()
        except Exception as exc:
            if not is_retryable(exc) or state.committed or attempt >= attempts:
                raise
            pause = random.uniform(0, base_seconds * 2 ** (attempt - 1))
            log.info("transient database conflict (%s), run %d of %d; again in %.3fs",
                     type(exc.__cause__ if not isinstance(exc, RETRYABLE) else exc).__name__,
                     attempt, attempts, pause)
        finally:
            _operation.reset(token)
        await asyncio.sleep(pause)
    raise AssertionError("unreachable")  # the last run returned or raised

_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\?")
_RETURNING = re.compile(r"\bRETURNING\b", re.IGNORECASE)
_translated: dict[str, str] = {}


def translate(sql: str) -> str:
    """``?`` placeholders -> ``$1, $2, ...`` (not inside quoted literals or names); cached."""
    done = _translated.get(sql)
    if done is None:
        counter = 0

        def number(match: re.Match[str]) -> str:
            nonlocal counter
            if match.group(0) != "?":
                return match.group(0)
            counter += 1
            return f"${counter}"

        done = _PLACEHOLDER.sub(number, sql)
        if len(_translated) < 4096:
            _translated[sql] = done
    return done


def _returns_rows(sql: str) -> bool:
    head = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
    return head in ("SELECT", "WITH", "VALUES") or _RETURNING.search(sql) is not None


class PgCursor:
    """The rows of one statement, already fetched (asyncpg returns them all at once)."""

    def __init__(self, rows: list[asyncpg.Record], rowcount: int) -> None:
        self._rows = rows
        self._next = 0
        self.rowcount = rowcount

    async def fetchone(self) -> asyncpg.Record | None:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    async def fetchall(self) -> list[asyncpg.Record]:
        rest = self._rows[self._next:]
        self._next = len(self._rows)
        return rest


class PgStatement:
    """``await`` it or ``async with`` it, like aiosqlite's ``execute`` result."""

    def __init__(self, conn: PgConnection, sql: str, parameters: Sequence[Any]) -> None:
        self._conn = conn
        self._sql = sql
        self._parameters = parameters

    async def _run(self) -> PgCursor:
        raw = self._conn.raw
        sql = translate(self._sql)
        if _returns_rows(self._sql):
            rows = await raw.fetch(sql, *self._parameters)
            return PgCursor(rows, len(rows))
        status = await raw.execute(sql, *self._parameters)
        # "UPDATE 3", "DELETE 0", "INSERT 0 1": the last word is the number of rows.
        last = status.rsplit(" ", 1)[-1]
        return PgCursor([], int(last) if last.isdigit() else -1)

    def __await__(self) -> Iterator[Any]:
        return self._run().__await__()

    async def __aenter__(self) -> PgCursor:
        return await self._run()

    async def __aexit__(self, *exc: object) -> None:
        return None


class PgConnection:
    """One pooled asyncpg connection inside a transaction, with aiosqlite's interface."""

    def __init__(self, raw: asyncpg.Connection, *, readonly: bool = False) -> None:
        self.raw = raw
        self.readonly = readonly

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> PgStatement:
        return PgStatement(self, sql, parameters)

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> None:
        await self.raw.executemany(translate(sql), list(parameters))


def lock_clause(conn: Any) -> str:
    """The row lock that serialises the write operations of one tournament (module doc)."""
    return "" if getattr(conn, "readonly", True) else " FOR NO KEY UPDATE"


def is_url(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


def migration_texts() -> list[tuple[int, str, str]]:
    """``(version, file name, sql)`` of storage/migrations_postgresql, numbered 1, 2, 3, ..."""
    folder = resources.files("storage").joinpath("migrations_postgresql")
    return checked_migrations(
        [(e.name, e.read_text(encoding="utf-8"))
         for e in folder.iterdir() if e.name.endswith(".sql")]
    )


async def schema_version(conn: PgConnection) -> int:
    """The last migration applied (0 for an empty database)."""
    return await _raw_schema_version(conn.raw)


def latest_version() -> int:
    return len(migration_texts())


async def _raw_schema_version(raw: asyncpg.Connection) -> int:
    exists = await raw.fetchval("SELECT to_regclass('swissbot_schema') IS NOT NULL")
    if not exists:
        return 0
    return int(await raw.fetchval("SELECT COALESCE(MAX(version), 0) FROM swissbot_schema"))


async def apply_migrations(raw: asyncpg.Connection, *, target: int | None = None) -> int:
    """Apply the missing migrations under an advisory lock, each in its own transaction with
    its row in ``swissbot_schema``; two processes starting at once migrate one after the other
    (the second finds the work done). Returns the schema version."""
    migrations = migration_texts()
    latest = migrations[-1][0] if migrations else 0
    goal = latest if target is None else min(target, latest)
    await raw.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        await raw.execute(
            "CREATE TABLE IF NOT EXISTS swissbot_schema (version BIGINT PRIMARY KEY,"
            " name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        current = await _raw_schema_version(raw)
        if current > latest:
            raise MigrationError(
                f"this database was written by a newer swissbot (schema {current}, this "
                f"build knows {latest}): upgrade swissbot or point it at another database"
            )
        while current < goal:
            _version, name, sql = migrations[current]
            async with raw.transaction():
                await raw.execute(sql)  # the whole file: simple query protocol, no parameters
                await raw.execute(
                    "INSERT INTO swissbot_schema (version, name) VALUES ($1, $2)", current + 1, name
                )
            current += 1
        return current
    finally:
        await raw.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)


class PgDatabase:
    """A pool of asyncpg connections; one transaction per operation, like :class:`Database`."""

    dialect = NAME

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self.pool = pool
        self.path = url

    @asynccontextmanager
    async def transaction(self, *, readonly: bool = False) -> AsyncIterator[PgConnection]:
        """READ COMMITTED, committed at the end of the block, rolled back if it raises.

        ``readonly=True`` is a REPEATABLE READ READ ONLY transaction: one consistent snapshot,
        like SQLite's deferred read transaction."""
        async with self.pool.acquire() as raw:
            isolation = "repeatable_read" if readonly else "read_committed"
            async with raw.transaction(isolation=isolation, readonly=readonly):
                yield PgConnection(raw, readonly=readonly)
        state = _operation.get()
        if state is not None and not readonly:
            state.committed = True  # from now on a conflict must not re-run the operation

    def usage(self) -> PoolUsage:
        """The pool's connections open now, those an operation holds, and its ceiling."""
        size = self.pool.get_size()
        return PoolUsage(size=size, in_use=size - self.pool.get_idle_size(),
                         maximum=self.pool.get_max_size())

    async def retrying(self, operation: Callable[[], Awaitable[T]]) -> T:
        """``operation()``, run again on a deadlock or serialization failure while it has
        committed nothing (:func:`retrying`)."""
        return await retrying(operation)

    async def close(self) -> None:
        """Wait for the connections in use (a transaction in progress) to come back, then close."""
        await self.pool.close()

    async def __aenter__(self) -> PgDatabase:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


async def connect(url: str, *, migrate: bool = True) -> PgDatabase:
    """A pool on ``url`` with the schema brought up to date (see :func:`storage.db.connect`)."""
    where = shown(url)
    try:
        pool = await asyncpg.create_pool(url, min_size=POOL_MIN, max_size=POOL_MAX)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        raise UnusableDatabase(f"cannot use the database {where}: {_one_line(exc)}") from exc
    try:
        if migrate:
            async with pool.acquire() as raw:
                await apply_migrations(raw)
    except MigrationError as exc:
        await pool.close()
        raise MigrationError(f"cannot use the database {where}: {exc}") from None
    except asyncpg.PostgresError as exc:
        await pool.close()
        raise UnusableDatabase(f"cannot use the database {where}: {_one_line(exc)}") from exc
    except BaseException:
        await pool.close()
        raise
    return PgDatabase(pool, where)


def shown(url: str) -> str:
    """The URL for messages: never print a password."""
    return re.sub(r"(://[^:/@]+):[^@/]*@", r"\1:***@", url)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200] or type(exc).__name__


# -- introspection, integrity (swissbot db copy / check) -------------------------------------------
_VERSION_TABLE = "swissbot_schema"


async def tables(conn: PgConnection) -> list[str]:
    """Our tables in the current schema (not the migration bookkeeping), by name."""
    async with conn.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        " AND table_type = 'BASE TABLE' AND table_name <> ? ORDER BY table_name",
        (_VERSION_TABLE,),
    ) as cur:
        return [row[0] for row in await cur.fetchall()]


async def columns(conn: PgConnection, table: str) -> list[str]:
    async with conn.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
        " AND table_name = ? ORDER BY ordinal_position",
        (table,),
    ) as cur:
        return [row[0] for row in await cur.fetchall()]


async def primary_key(conn: PgConnection, table: str) -> list[str]:
    async with conn.execute(
        "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
        " AND a.attnum = ANY(i.indkey) WHERE i.indrelid = to_regclass(?) AND i.indisprimary"
        " ORDER BY array_position(i.indkey, a.attnum)",
        (table,),
    ) as cur:
        return [row[0] for row in await cur.fetchall()]


async def _foreign_keys(conn: PgConnection) -> list[tuple[str, str, list[str], list[str]]]:
    """``(table, referenced table, columns, referenced columns)`` per foreign key."""
    async with conn.execute(
        "SELECT c.conrelid::regclass::text, c.confrelid::regclass::text,"
        " ARRAY(SELECT attname FROM unnest(c.conkey) WITH ORDINALITY k(n, o)"
        "       JOIN pg_attribute ON attrelid = c.conrelid AND attnum = k.n ORDER BY k.o),"
        " ARRAY(SELECT attname FROM unnest(c.confkey) WITH ORDINALITY k(n, o)"
        "       JOIN pg_attribute ON attrelid = c.confrelid AND attnum = k.n ORDER BY k.o)"
        " FROM pg_constraint c JOIN pg_namespace s ON s.oid = c.connamespace"
        " WHERE c.contype = 'f' AND s.nspname = current_schema() ORDER BY 1, 2",
    ) as cur:
        return [(row[0], row[1], list(row[2]), list(row[3])) for row in await cur.fetchall()]


async def references(conn: PgConnection) -> list[tuple[str, str]]:
    return [(table, parent) for table, parent, _, _ in await _foreign_keys(conn)]


async def integrity_problems(conn: PgConnection) -> list[str]:
    """Rows whose foreign key points nowhere (possible only if constraints were disabled or
    the data was loaded around them), and foreign keys not validated."""
    problems: list[str] = []
    for table, parent, cols, parent_cols in await _foreign_keys(conn):
        join = " AND ".join(f'p."{pc}" = t."{c}"' for c, pc in zip(cols, parent_cols, strict=True))
        present = " AND ".join(f't."{c}" IS NOT NULL' for c in cols)
        async with conn.execute(
            f'SELECT COUNT(*) FROM "{table}" t WHERE {present} AND NOT EXISTS'
            f' (SELECT 1 FROM "{parent}" p WHERE {join})'
        ) as cur:
            row = await cur.fetchone()
        if row is not None and row[0]:
            problems.append(f"foreign key: {row[0]} {table} row(s) point to a missing {parent} row")
    async with conn.execute(
        "SELECT conrelid::regclass::text, conname FROM pg_constraint c JOIN pg_namespace s"
        " ON s.oid = c.connamespace WHERE s.nspname = current_schema() AND NOT c.convalidated"
    ) as cur:
        problems.extend(f"constraint {row[1]} on {row[0]} is not validated"
                        for row in await cur.fetchall())
    return problems


async def sequence_problems(conn: PgConnection) -> list[str]:
    """Every id sequence must be past the largest id, or the next insert collides."""
    problems: list[str] = []
    for table in await tables(conn):
        if "id" not in await columns(conn, table):
            continue
        async with conn.execute("SELECT pg_get_serial_sequence(?, 'id')", (table,)) as cur:
            row = await cur.fetchone()
        if row is None or row[0] is None:
            continue
        sequence = row[0]
        async with conn.execute(
            f'SELECT (SELECT COALESCE(MAX(id), 0) FROM "{table}"),'
            f" (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM {sequence})"
        ) as cur:
            top = await cur.fetchone()
        assert top is not None
        if top[1] < top[0]:
            problems.append(f"sequence {sequence} is at {top[1]} but {table} has id {top[0]}: "
                            "the next insert would collide")
    return problems


async def reset_sequences(conn: PgConnection) -> None:
    """Move every id sequence just past its table's largest id (after a copy)."""
    for table in await tables(conn):
        if "id" not in await columns(conn, table):
            continue
        async with conn.execute("SELECT pg_get_serial_sequence(?, 'id')", (table,)) as cur:
            row = await cur.fetchone()
        if row is not None and row[0] is not None:
            await conn.execute(
                f'SELECT setval(?, COALESCE((SELECT MAX(id) FROM "{table}"), 0) + 1, false)',
                (row[0],),
            )


async def truncate(conn: PgConnection, names: list[str]) -> None:
    """Empty the tables (TRUNCATE fires no row trigger: the audit log's append-only guard
    stays for everything else)."""
    if names:
        await conn.execute(
            "TRUNCATE " + ", ".join(f'"{n}"' for n in names) + " RESTART IDENTITY CASCADE"
        )
