"""SQLite's SQL fragments (the connection itself is aiosqlite's, see :mod:`storage.db`)."""

from __future__ import annotations

from typing import Any

from storage.schema import migration_files

NAME = "sqlite"

# Names compare case-insensitively (ASCII) like the NOCASE unique indexes of migration 0001.
NAME_EQUALS = "name = ? COLLATE NOCASE"

# A round's boards from one JSON text [[white, black], ...] (storage.rounds.insert_games):
# board = position + 1; ``json_each`` gives the array's rows in order with their index.
INSERT_GAMES_FROM_JSON = (
    "INSERT INTO games (tournament_id, round_id, board, white_id, black_id)"
    " SELECT ?, ?, key + 1, json_extract(value, '$[0]'), json_extract(value, '$[1]')"
    " FROM json_each(?)"
)


def lock_clause(conn: Any) -> str:
    """Nothing: ``BEGIN IMMEDIATE`` already serialises every write transaction on the file."""
    return ""


# -- introspection, integrity (swissbot db copy / check) -------------------------------------------
async def schema_version(conn: Any) -> int:
    async with conn.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


def latest_version() -> int:
    return len(migration_files())


async def tables(conn: Any) -> list[str]:
    """Our tables (not SQLite's own), by name."""
    async with conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        " ORDER BY name"
    ) as cur:
        return [row[0] for row in await cur.fetchall()]


async def columns(conn: Any, table: str) -> list[str]:
    async with conn.execute(f'PRAGMA table_info("{table}")') as cur:
        return [row[1] for row in await cur.fetchall()]


async def primary_key(conn: Any, table: str) -> list[str]:
    async with conn.execute(f'PRAGMA table_info("{table}")') as cur:
        rows = [row for row in await cur.fetchall() if row[5] > 0]
    return [row[1] for row in sorted(rows, key=lambda r: r[5])]


async def references(conn: Any) -> list[tuple[str, str]]:
    """``(table, referenced table)`` for every foreign key."""
    found: list[tuple[str, str]] = []
    for table in await tables(conn):
        async with conn.execute(f'PRAGMA foreign_key_list("{table}")') as cur:
            found.extend((table, row[2]) for row in await cur.fetchall())
    return found


async def integrity_problems(conn: Any) -> list[str]:
    """``quick_check`` (every page reads back consistently) and ``foreign_key_check``."""
    problems: list[str] = []
    async with conn.execute("PRAGMA quick_check") as cur:
        verdicts = [str(row[0]) for row in await cur.fetchall()]
    if verdicts != ["ok"]:
        problems.extend(f"quick_check: {v}" for v in verdicts[:20])
    async with conn.execute("PRAGMA foreign_key_check") as cur:
        for row in await cur.fetchall():
            problems.append(f"foreign key: {row[0]} row {row[1]} points to a missing {row[2]} row")
    return problems


async def sequence_problems(conn: Any) -> list[str]:
    """Nothing to check: SQLite takes the next id from the table itself."""
    return []
