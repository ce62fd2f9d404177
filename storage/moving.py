"""Moving a database between backends and checking one: ``swissbot db copy`` and ``db check``.

Both sides are read through the same code: the tables and their columns come from the source,
every row is read ordered by its primary key, and the checksum of a table is the SHA-256 of
its rows rendered one way in Python (``None`` -> ``\\N``, numbers and text as text, bytes in
hex), so a table checksums the same on SQLite and PostgreSQL exactly when it holds the same
values.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from storage.connection import Connection, dialect
from storage.db import AnyDatabase, connect
from storage.dialects import postgresql


class CopyRefused(RuntimeError):
    """The copy cannot start (destination not empty, source at another schema version)."""


@dataclass(frozen=True, slots=True)
class TableSum:
    table: str
    rows: int
    checksum: str


@dataclass(frozen=True, slots=True)
class CopyReport:
    source: list[TableSum]
    destination: list[TableSum]

    @property
    def identical(self) -> bool:
        return self.source == self.destination


def _render(value: Any) -> str:
    if value is None:
        return "\\N"
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).hex()
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _digest(rows: Iterable[Any], width: int) -> str:
    digest = hashlib.sha256()
    for row in rows:
        line = "\t".join(_render(row[i]).replace("\\", "\\\\").replace("\t", "\\t")
                         .replace("\n", "\\n") for i in range(width))
        digest.update(line.encode("utf-8") + b"\n")
    return digest.hexdigest()


async def _ordered_rows(
    conn: Connection, sql: ModuleType, table: str
) -> tuple[list[str], list[Any]]:
    names = await sql.columns(conn, table)
    key = await sql.primary_key(conn, table) or names
    listed = ", ".join(f'"{c}"' for c in names)
    order = ", ".join(f'"{c}"' for c in key)
    async with conn.execute(f'SELECT {listed} FROM "{table}" ORDER BY {order}') as cur:
        return names, list(await cur.fetchall())


async def table_sums(conn: Connection, names: list[str] | None = None) -> list[TableSum]:
    """Row count and checksum of every table (or of ``names``), by table name."""
    sql = dialect(conn)
    sums = []
    for table in names if names is not None else await sql.tables(conn):
        columns, rows = await _ordered_rows(conn, sql, table)
        sums.append(TableSum(table, len(rows), _digest(rows, len(columns))))
    return sums


def foreign_key_order(tables: list[str], references: list[tuple[str, str]]) -> list[str]:
    """The tables, each after every table it references (ties by name)."""
    needs = {t: {p for c, p in references if c == t and p != t and p in tables} for t in tables}
    ordered: list[str] = []
    while needs:
        ready = sorted(t for t, parents in needs.items() if not parents)
        if not ready:
            raise CopyRefused(f"foreign keys form a cycle among {sorted(needs)}")
        for t in ready:
            ordered.append(t)
            del needs[t]
        for parents in needs.values():
            parents.difference_update(ready)
    return ordered


async def _row_count(conn: Connection, tables: list[str]) -> int:
    total = 0
    for table in tables:
        async with conn.execute(f'SELECT COUNT(*) FROM "{table}"') as cur:
            row = await cur.fetchone()
        total += int(row[0]) if row else 0
    return total


async def copy_database(source: str, destination: str, *, force: bool = False) -> CopyReport:
    """Copy every row of ``source`` into ``destination`` (either backend), in one transaction
    on the destination, then compare row counts and checksums table by table.

    The destination is created and migrated if needed; it must be empty unless ``force``
    (then its rows are deleted first, in the same transaction). The source is opened without
    migrating and must be at the schema version this swissbot writes.
    """
    src = await connect(source, migrate=False)
    try:
        async with src.transaction(readonly=True) as conn:
            src_sql = dialect(conn)
            version = await src_sql.schema_version(conn)
            if version != src_sql.latest_version():
                raise CopyRefused(
                    f"the source {src.path} is at schema {version}, this swissbot writes schema "
                    f"{src_sql.latest_version()}: start swissbot on it once (it migrates), "
                    "then copy"
                )
            tables = foreign_key_order(await src_sql.tables(conn), await src_sql.references(conn))
            data = {t: await _ordered_rows(conn, src_sql, t) for t in tables}
            before = await table_sums(conn, tables)
        dst = await connect(destination)
        try:
            await _fill(dst, tables, data, force=force)
            async with dst.transaction(readonly=True) as conn:
                after = await table_sums(conn, tables)
        finally:
            await dst.close()
    finally:
        await src.close()
    return CopyReport(before, after)


async def _fill(
    dst: AnyDatabase, tables: list[str], data: dict[str, tuple[list[str], list[Any]]],
    *, force: bool,
) -> None:
    async with dst.transaction() as conn:
        sql = dialect(conn)
        missing = sorted(set(tables) - set(await sql.tables(conn)))
        if missing:
            raise CopyRefused(f"the destination has no table {', '.join(missing)}")
        if await _row_count(conn, tables):
            if not force:
                raise CopyRefused("the destination is not empty: copy into an empty database, "
                                  "or add --force to replace what it holds")
            await _empty(conn, sql, tables)
        for table in tables:
            names, rows = data[table]
            if not rows:
                continue
            marks = ", ".join("?" for _ in names)
            listed = ", ".join(f'"{c}"' for c in names)
            await conn.executemany(
                f'INSERT INTO "{table}" ({listed}) VALUES ({marks})',
                [tuple(row[i] for i in range(len(names))) for row in rows],
            )
        await _restore_revisions(conn, data)
        if sql is postgresql:
            await postgresql.reset_sequences(conn)  # type: ignore[arg-type]


async def _restore_revisions(conn: Connection, data: dict[str, Any]) -> None:
    """The revision and course version triggers (migrations 0013, 0015) bumped each
    tournament's counters while its players, rounds and byes went in: put the source's values
    back, so the copy is identical (these updates of ``tournaments`` fire no trigger)."""
    names, rows = data.get("tournaments", ([], []))
    if not rows:
        return
    key = list(names).index("id")
    for column in ("revision", "course_version"):
        if column in names:
            at = list(names).index(column)
            await conn.executemany(f"UPDATE tournaments SET {column} = ? WHERE id = ?",
                                   [(row[at], row[key]) for row in rows])


async def _empty(conn: Connection, sql: ModuleType, tables: list[str]) -> None:
    if sql is postgresql:
        await postgresql.truncate(conn, tables)  # type: ignore[arg-type]
        return
    # SQLite: the audit log refuses DELETE by trigger; lift the guard for this transaction
    # only (DDL is transactional in SQLite: a failed copy rolls the triggers back too).
    async with conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit_log'"
    ) as cur:
        triggers = [(row[0], row[1]) for row in await cur.fetchall()]
    for name, _ in triggers:
        await conn.execute(f'DROP TRIGGER "{name}"')
    for table in reversed(tables):
        await conn.execute(f'DELETE FROM "{table}"')
    for _, text in triggers:
        await conn.execute(text)


@dataclass(frozen=True, slots=True)
class CheckReport:
    backend: str
    version: int
    latest: int
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


async def check_database(target: str) -> CheckReport:
    """Integrity of a database without changing it: schema version, the backend's own
    consistency checks (SQLite quick_check and foreign_key_check; PostgreSQL foreign keys and
    orphans), id sequences ahead of the ids (PostgreSQL)."""
    db = await connect(target, migrate=False)
    try:
        async with db.transaction(readonly=True) as conn:
            sql = dialect(conn)
            version = await sql.schema_version(conn)
            latest = sql.latest_version()
            problems: list[str] = []
            if version < latest:
                problems.append(f"schema {version} is behind this swissbot's {latest}: start "
                                "swissbot on it once to migrate")
            elif version > latest:
                problems.append(f"schema {version} is newer than this swissbot's {latest}: "
                                "upgrade swissbot")
            problems += await sql.integrity_problems(conn)
            problems += await sql.sequence_problems(conn)
        return CheckReport(sql.NAME, version, latest, problems)
    finally:
        await db.close()
