"""The PostgreSQL side of storage: its migrations mirror SQLite's (same numbers, same tables
and columns), apply from empty and from every older version, safely from two processes at
once, refuse a newer database; ``?`` placeholders become ``$n``."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
import pytest
from hypothesis import given
from hypothesis import strategies as st

from storage import tournaments as tournament_repo
from storage.connection import dialect
from storage.db import MigrationError, connect, migration_files
from storage.dialects import postgresql
from tests.pg_cluster import Cluster

LATEST = migration_files()[-1][0]


def test_both_dialects_have_the_same_migration_numbers_and_names() -> None:
    sqlite_names = [name for _, name, _ in migration_files()]
    pg_names = [name for _, name, _ in postgresql.migration_texts()]
    assert pg_names == sqlite_names
    assert postgresql.latest_version() == LATEST


async def _shape(db: object) -> dict[str, list[str]]:
    async with db.transaction(readonly=True) as conn:  # type: ignore[attr-defined]
        sql = dialect(conn)
        return {t: await sql.columns(conn, t) for t in await sql.tables(conn)}


async def _empty_database(cluster: Cluster, name: str) -> str:
    admin = await asyncpg.connect(cluster.url())
    try:
        await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    finally:
        await admin.close()
    return cluster.url(name)


@pytest.mark.slow
async def test_both_dialects_give_the_same_tables_and_columns(
    tmp_path: Path, pg_cluster: Cluster
) -> None:
    async with await connect(tmp_path / "a.sqlite3") as lite:
        expected = await _shape(lite)
    async with await connect(await _empty_database(pg_cluster, "shape")) as pg:
        assert await _shape(pg) == expected
        async with pg.transaction(readonly=True) as conn:
            assert await postgresql.schema_version(conn) == LATEST


@pytest.mark.slow
async def test_migrations_from_every_older_version_keep_the_data(pg_cluster: Cluster) -> None:
    for start in range(LATEST):
        url = await _empty_database(pg_cluster, f"old_{start}")
        async with await connect(url, migrate=False) as db, db.pool.acquire() as raw:
            assert await postgresql.apply_migrations(raw, target=start) == start
            if start >= 1:
                await raw.execute(
                    "INSERT INTO tournaments (guild_id, name, settings, seed, created_by,"
                    " created_at) VALUES (1, 'Old Cup', '{\"rounds\": 3}', 5, 9,"
                    " '2025-01-01T00:00:00+00:00')"
                )
        async with await connect(url) as db:
            async with db.transaction() as conn:
                assert await postgresql.schema_version(conn) == LATEST
                if start >= 1:
                    t = await tournament_repo.get_tournament(conn, 1)
                    assert t is not None and t.settings == {"rounds": 3}
                    # the sequence went on from the row inserted with its id
                    assert await tournament_repo.insert_tournament(
                        conn, guild_id=1, name="New", settings={}, seed=1, channel_id=None,
                        created_by=1, now=t.created_at) == 2
            async with db.pool.acquire() as raw:
                assert await postgresql.apply_migrations(raw) == LATEST  # a no-op again


async def test_processes_starting_together_migrate_once(pg_cluster: Cluster) -> None:
    """Five processes open one empty database at once: the advisory lock makes them migrate
    one after the other, the first does the work and the others find it done."""
    url = await _empty_database(pg_cluster, "together")
    dbs = await asyncio.gather(*(connect(url) for _ in range(5)))
    try:
        async with dbs[0].pool.acquire() as raw:
            versions = [r[0] for r in await raw.fetch(
                "SELECT version FROM swissbot_schema ORDER BY version")]
        assert versions == list(range(1, LATEST + 1))
    finally:
        for db in dbs:
            await db.close()


async def test_a_database_newer_than_the_code_is_refused(pg_cluster: Cluster) -> None:
    url = await _empty_database(pg_cluster, "future")
    async with await connect(url) as db, db.pool.acquire() as raw:
        await raw.execute("INSERT INTO swissbot_schema (version, name) VALUES ($1, 'x')",
                          LATEST + 1)
    with pytest.raises(MigrationError, match="upgrade swissbot"):
        await connect(url)


async def test_an_unreachable_server_is_one_line_without_the_password() -> None:
    from storage.schema import UnusableDatabase

    with pytest.raises(UnusableDatabase) as caught:
        await connect("postgresql://bot:hunter2@/nowhere?host=/nonexistent-swissbot&port=1")
    assert "hunter2" not in str(caught.value) and "\n" not in str(caught.value)
    assert "bot:***@" in str(caught.value)


@pytest.mark.parametrize(("sql", "expected"), [
    ("SELECT * FROM t WHERE a = ? AND b = ?", "SELECT * FROM t WHERE a = $1 AND b = $2"),
    ("SELECT '?' , ? FROM \"odd?name\"", "SELECT '?' , $1 FROM \"odd?name\""),
    ("SELECT 'it''s ?', ?", "SELECT 'it''s ?', $1"),
    ("SELECT 1", "SELECT 1"),
])
def test_placeholders(sql: str, expected: str) -> None:
    assert postgresql.translate(sql) == expected


@given(st.lists(st.sampled_from(["?", "'?'", "'a''?'", '"?"', " x ", "=", ","]), max_size=30))
def test_placeholders_number_only_the_bare_question_marks(parts: list[str]) -> None:
    sql = "".join(parts)
    out = postgresql.translate(sql)
    bare = parts.count("?")
    assert [f"${n}" in out for n in range(1, bare + 1)] == [True] * bare
    assert f"${bare + 1}" not in out
    # quoted text comes through unchanged
    assert out.count("'") == sql.count("'") and out.count('"') == sql.count('"')
