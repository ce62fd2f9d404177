"""The SQLite layer: pragmas, migrations (from empty and from every older version),
transactions, the append-only audit log and the exactly-once outbox."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiosqlite
import pytest

from storage import journal
from storage import tournaments as tournament_repo
from storage.db import (
    MigrationError,
    apply_migrations,
    connect,
    migration_files,
    schema_version,
)

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
LATEST = migration_files()[-1][0]


async def _tables(conn: aiosqlite.Connection) -> set[str]:
    async with conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'") as cur:
        return {row[0] for row in await cur.fetchall()}


async def test_connect_sets_wal_foreign_keys_and_busy_timeout(tmp_path: Path) -> None:
    db = await connect(tmp_path / "bot.sqlite3")
    try:
        async with db.conn.execute("PRAGMA journal_mode") as cur:
            assert (await cur.fetchone())[0] == "wal"
        async with db.conn.execute("PRAGMA foreign_keys") as cur:
            assert (await cur.fetchone())[0] == 1
        async with db.conn.execute("PRAGMA busy_timeout") as cur:
            assert (await cur.fetchone())[0] >= 1000
        assert await schema_version(db.conn) == LATEST
    finally:
        await db.close()


async def test_migrations_from_empty_create_every_table(tmp_path: Path) -> None:
    async with await connect(tmp_path / "bot.sqlite3") as db:
        assert {
            "guild_settings", "tournaments", "players", "rounds", "games", "byes",
            "bye_requests", "forbidden_pairs", "audit_log", "outbox",
        } <= await _tables(db.conn)


@pytest.mark.parametrize("start", range(LATEST))
async def test_migrations_from_every_older_version(tmp_path: Path, start: int) -> None:
    path = tmp_path / "old.sqlite3"
    old = await connect(path, migrate=False)
    await apply_migrations(old.conn, target=start)
    assert await schema_version(old.conn) == start
    if start >= 1:  # data written by the old version survives the upgrade
        await old.conn.execute(
            "INSERT INTO tournaments (guild_id, name, settings, seed, created_by, created_at)"
            " VALUES (1, 'Old Cup', '{\"rounds\": 3}', 5, 9, '2025-01-01T00:00:00+00:00')"
        )
    await old.close()

    async with await connect(path) as db:
        assert await schema_version(db.conn) == LATEST
        assert "outbox" in await _tables(db.conn)
        if start >= 1:
            row = await tournament_repo.get_tournament(db.conn, 1)
            assert row is not None and row.name == "Old Cup" and row.settings == {"rounds": 3}
        # Re-running is a no-op.
        assert await apply_migrations(db.conn) == LATEST


async def test_a_failing_migration_leaves_the_previous_version(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_one.sql").write_text("CREATE TABLE one (x INTEGER);\n")
    (folder / "0002_two.sql").write_text(
        "CREATE TABLE two (x INTEGER);\nINSERT INTO nowhere VALUES (1);\n"
    )
    db = await connect(tmp_path / "x.sqlite3", migrate=False)
    try:
        with pytest.raises(sqlite3.OperationalError, match="nowhere"):
            await apply_migrations(db.conn, folder)
        assert await schema_version(db.conn) == 1
        assert await _tables(db.conn) == {"one"}  # "two" was rolled back with its migration
    finally:
        await db.close()


def test_migration_files_must_be_numbered_without_gaps(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("SELECT 1;")
    (tmp_path / "0003_c.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match="should be number 0002"):
        migration_files(tmp_path)
    (tmp_path / "3_bad.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match="NNNN_description"):
        migration_files(tmp_path)


async def test_a_database_newer_than_the_code_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite3"
    raw = await aiosqlite.connect(path)
    await raw.execute(f"PRAGMA user_version = {LATEST + 1}")
    await raw.commit()
    await raw.close()
    with pytest.raises(MigrationError, match="upgrade swissbot"):
        await connect(path)


async def test_transaction_rolls_back_everything_on_error(tmp_path: Path) -> None:
    async with await connect(tmp_path / "bot.sqlite3") as db:
        with pytest.raises(RuntimeError):
            async with db.transaction() as conn:
                await tournament_repo.insert_tournament(
                    conn, guild_id=1, name="Ghost", settings={"rounds": 1}, seed=1,
                    channel_id=None, created_by=1, now=NOW,
                )
                raise RuntimeError("boom")
        async with db.transaction() as conn:
            assert await tournament_repo.list_tournaments(conn, 1) == []


@pytest.mark.parametrize("where", ["begin", "body"])
async def test_a_cancelled_transaction_leaves_the_connection_usable(
    tmp_path: Path, where: str
) -> None:
    """A command cancelled while its BEGIN waits for the write lock (or inside its block) must
    not leave the shared connection inside a transaction: the BEGIN still runs in aiosqlite's
    thread after the await is cancelled, and the next operation would fail or commit it."""
    path = tmp_path / "bot.sqlite3"
    async with await connect(path) as db, await connect(path) as other:
        holder = asyncio.Event()
        release = asyncio.Event()

        async def hold_the_write_lock() -> None:
            async with other.transaction():
                holder.set()
                await release.wait()

        async def victim() -> None:
            async with db.transaction() as conn:
                await tournament_repo.insert_tournament(
                    conn, guild_id=1, name="Cancelled", settings={"rounds": 1}, seed=1,
                    channel_id=None, created_by=1, now=NOW,
                )
                await asyncio.sleep(3600)

        if where == "begin":
            blocker = asyncio.create_task(hold_the_write_lock())
            await holder.wait()
        task = asyncio.create_task(victim())
        await asyncio.sleep(0.2)  # BEGIN IMMEDIATE is now waiting for the lock in its thread
        task.cancel()
        if where == "begin":
            await asyncio.sleep(0.05)
            release.set()
            await blocker
        with pytest.raises(asyncio.CancelledError):
            await task
        assert not db.conn.in_transaction
        async with db.transaction() as conn:
            await tournament_repo.insert_tournament(
                conn, guild_id=1, name="Next", settings={"rounds": 1}, seed=1,
                channel_id=None, created_by=1, now=NOW,
            )
        async with db.transaction(readonly=True) as conn:
            names = [t.name for t in await tournament_repo.list_tournaments(conn, 1)]
        assert names == ["Next"]


async def test_foreign_keys_are_enforced(tmp_path: Path) -> None:
    async with await connect(tmp_path / "bot.sqlite3") as db:
        with pytest.raises(sqlite3.IntegrityError):
            async with db.transaction() as conn:
                await conn.execute(
                    "INSERT INTO players (tournament_id, name, registered_at)"
                    " VALUES (42, 'Nobody', '2026-01-01T00:00:00+00:00')"
                )


async def test_audit_log_is_append_only(tmp_path: Path) -> None:
    async with await connect(tmp_path / "bot.sqlite3") as db:
        async with db.transaction() as conn:
            await journal.append_audit(
                conn, guild_id=1, tournament_id=None, actor_id=7, actor_name="Ann",
                action="test", before={"a": 1}, after={"a": 2}, now=NOW,
            )
        for statement in ("UPDATE audit_log SET action = 'x'", "DELETE FROM audit_log"):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                async with db.transaction() as conn:
                    await conn.execute(statement)
        async with db.transaction() as conn:
            cur = await conn.execute("SELECT action, before, after FROM audit_log")
            assert [tuple(r) for r in await cur.fetchall()] == [("test", '{"a": 1}', '{"a": 2}')]


async def test_outbox_pending_retry_and_exactly_once_delivery(tmp_path: Path) -> None:
    async with await connect(tmp_path / "bot.sqlite3") as db:
        async with db.transaction() as conn:
            first = await journal.enqueue(conn, guild_id=1, channel_id=5, tournament_id=None,
                                          kind="pairings", payload={"round": 1}, now=NOW)
            second = await journal.enqueue(conn, guild_id=1, channel_id=5, tournament_id=None,
                                           kind="standings", payload={"round": 1}, now=NOW)
        async with db.transaction() as conn:
            assert [r.id for r in await journal.pending(conn, NOW)] == [first, second]
            assert await journal.mark_failed(conn, first, error="429 rate limited",
                                             retry_at=NOW + timedelta(seconds=30))
            # The failed row waits for its retry time; the other one is still due.
            assert [r.id for r in await journal.pending(conn, NOW)] == [second]
            assert await journal.mark_delivered(conn, second, NOW)
            assert not await journal.mark_delivered(conn, second, NOW)  # exactly once
            later = await journal.pending(conn, NOW + timedelta(seconds=30))
            assert [(r.id, r.attempts, r.last_error) for r in later] == [
                (first, 1, "429 rate limited")
            ]
            assert later[0].payload == {"round": 1}


async def test_a_read_transaction_does_not_block_a_writer(tmp_path: Path) -> None:
    path = tmp_path / "wal.sqlite3"
    async with await connect(path) as reader, await connect(path) as writer:
        async with reader.transaction(readonly=True) as conn:
            assert await tournament_repo.list_tournaments(conn, 1) == []
            # The writer commits while the reader's snapshot is open (WAL).
            async with writer.transaction() as wconn:
                await tournament_repo.insert_tournament(
                    wconn, guild_id=1, name="During", settings={"rounds": 1}, seed=1,
                    channel_id=None, created_by=1, now=NOW,
                )
            assert await tournament_repo.list_tournaments(conn, 1) == []  # its snapshot
        async with reader.transaction(readonly=True) as conn:
            assert [t.name for t in await tournament_repo.list_tournaments(conn, 1)] == ["During"]


async def test_close_waits_for_the_transaction_in_flight(tmp_path: Path) -> None:
    """A bot stopping while a command still writes: close() lets the transaction finish, so
    no half-closed connection keeps the file locked for the restarted bot."""
    path = tmp_path / "closing.sqlite3"
    db = await connect(path)
    inside = asyncio.Event()

    async def work() -> int:
        async with (
            db.transaction() as conn,
            conn.execute("SELECT count(*) FROM sqlite_master") as cur,
        ):
            inside.set()
            await asyncio.sleep(0.05)
            (count,) = await cur.fetchone()
        return int(count)

    task = asyncio.create_task(work())
    await inside.wait()
    await db.close()
    assert await task > 0  # the transaction finished (before: "Connection closed")
    again = await connect(path)  # and nothing holds the file
    async with again.transaction() as conn:
        await conn.execute("SELECT 1")
    await again.close()


async def test_a_statement_is_one_hop_to_aiosqlites_thread_with_the_same_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each statement runs, fetches and closes in one call to aiosqlite's thread (three
    before: each a wait for the event loop and the thread, issue 13); the cursor gives the
    same rows, in order, with ``fetchone`` / ``fetchall``, and the row counts of writes."""
    db = await connect(tmp_path / "hops.sqlite3")
    calls = 0
    execute = aiosqlite.Connection._execute

    async def counted(self: aiosqlite.Connection, fn: object, *args: object) -> object:
        nonlocal calls
        calls += 1
        return await execute(self, fn, *args)  # type: ignore[arg-type]

    try:
        async with db.transaction() as conn:
            await conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
            await conn.executemany("INSERT INTO t (v) VALUES (?)", [("a",), ("b",), ("c",)])
        monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
        async with db.transaction() as conn:
            calls = 0
            async with conn.execute("SELECT id, v FROM t ORDER BY id") as cur:
                first = await cur.fetchone()
                rest = await cur.fetchall()
                assert await cur.fetchone() is None and await cur.fetchall() == []
            assert calls == 1
            assert (first["id"], first["v"]) == (1, "a")
            assert [tuple(r) for r in rest] == [(2, "b"), (3, "c")]
            cur = await conn.execute("UPDATE t SET v = 'x' WHERE id > ?", (1,))
            assert cur.rowcount == 2
            cur = await conn.execute("DELETE FROM t WHERE id = 1 RETURNING v")
            assert [r[0] for r in await cur.fetchall()] == ["a"] and cur.rowcount == 1
            assert calls == 3
        with pytest.raises(sqlite3.IntegrityError):
            async with db.transaction() as conn:
                await conn.execute("INSERT INTO t (id, v) VALUES (2, 'dup')")
        async with db.transaction(readonly=True) as conn, conn.execute(
                "SELECT COUNT(*) FROM t") as cur:
            assert (await cur.fetchone())[0] == 2
    finally:
        await db.close()
