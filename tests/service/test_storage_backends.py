"""The storage guarantees that hold on both backends (SQLite and PostgreSQL): one transaction
per operation, foreign keys, the append-only audit log, the exactly-once outbox, read
snapshots, portable inserts (RETURNING id, ON CONFLICT) and case-insensitive names.

The SQLite-only behaviour (pragmas, WAL, damaged files) stays in tests/storage/test_storage.py."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from storage import journal, requests
from storage import players as player_repo
from storage import tournaments as tournament_repo
from storage.connection import IntegrityError, dialect
from tests.service_helpers import open_database

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


async def _cup(conn: object, name: str = "Cup", guild: int = 1) -> int:
    return await tournament_repo.insert_tournament(
        conn,  # type: ignore[arg-type]
        guild_id=guild, name=name, settings={"rounds": 1}, seed=1, channel_id=None,
        created_by=1, now=NOW,
    )


async def test_transaction_rolls_back_everything_on_error(tmp_path: Path) -> None:
    async with await open_database(tmp_path / "bot.sqlite3") as db:
        with pytest.raises(RuntimeError):
            async with db.transaction() as conn:
                await _cup(conn, "Ghost")
                raise RuntimeError("boom")
        async with db.transaction() as conn:
            assert await tournament_repo.list_tournaments(conn, 1) == []


async def test_ids_come_back_from_inserts_and_grow(tmp_path: Path) -> None:
    async with await open_database(tmp_path / "bot.sqlite3") as db, db.transaction() as conn:
        first, second = await _cup(conn, "A"), await _cup(conn, "B")
        assert second > first > 0
        t = await tournament_repo.get_tournament(conn, second)
        assert t is not None and t.name == "B"


async def test_foreign_keys_are_enforced(tmp_path: Path) -> None:
    async with await open_database(tmp_path / "bot.sqlite3") as db:
        with pytest.raises(IntegrityError):
            async with db.transaction() as conn:
                await conn.execute(
                    "INSERT INTO players (tournament_id, name, registered_at)"
                    " VALUES (42, 'Nobody', '2026-01-01T00:00:00+00:00')"
                )


async def test_open_tournament_names_are_unique_whatever_the_case(tmp_path: Path) -> None:
    async with await open_database(tmp_path / "bot.sqlite3") as db:
        async with db.transaction() as conn:
            await _cup(conn, "Spring Open")
        with pytest.raises(IntegrityError):
            async with db.transaction() as conn:
                await _cup(conn, "SPRING open")
        async with db.transaction() as conn:
            found = await tournament_repo.find_by_name(conn, 1, "spring OPEN")
            assert [t.name for t in found] == ["Spring Open"]
            assert await _cup(conn, "Spring Open", guild=2) > 0  # another guild may


async def test_insert_on_conflict_do_nothing_reports_whether_it_inserted(tmp_path: Path) -> None:
    async with await open_database(tmp_path / "bot.sqlite3") as db, db.transaction() as conn:
        tid = await _cup(conn)
        assert await requests.add_waiting(
            conn, tournament_id=tid, user_id=7, name="Ann", rating=1500, now=NOW)
        assert not await requests.add_waiting(
            conn, tournament_id=tid, user_id=7, name="Ann", rating=1500, now=NOW)
        assert [w.user_id for w in await requests.list_waiting(conn, tid)] == [7]


async def test_audit_log_is_append_only(tmp_path: Path) -> None:
    async with await open_database(tmp_path / "bot.sqlite3") as db:
        async with db.transaction() as conn:
            await journal.append_audit(
                conn, guild_id=1, tournament_id=None, actor_id=7, actor_name="Ann",
                action="test", before={"a": 1}, after={"a": 2}, now=NOW,
            )
        for statement in ("UPDATE audit_log SET action = 'x'", "DELETE FROM audit_log"):
            with pytest.raises(IntegrityError, match="append-only"):
                async with db.transaction() as conn:
                    await conn.execute(statement)
        async with db.transaction() as conn:
            cur = await conn.execute("SELECT action, before, after FROM audit_log")
            assert [tuple(r) for r in await cur.fetchall()] == [("test", '{"a": 1}', '{"a": 2}')]


async def test_outbox_pending_retry_and_exactly_once_delivery(tmp_path: Path) -> None:
    async with await open_database(tmp_path / "bot.sqlite3") as db:
        async with db.transaction() as conn:
            first = await journal.enqueue(conn, guild_id=1, channel_id=5, tournament_id=None,
                                          kind="pairings", payload={"round": 1}, now=NOW)
            second = await journal.enqueue(conn, guild_id=1, channel_id=5, tournament_id=None,
                                           kind="standings", payload={"round": 1}, now=NOW)
        async with db.transaction() as conn:
            assert [r.id for r in await journal.pending(conn, NOW)] == [first, second]
            assert await journal.mark_failed(conn, first, error="429 rate limited",
                                             retry_at=NOW + timedelta(seconds=30))
            assert [r.id for r in await journal.pending(conn, NOW)] == [second]
            assert await journal.mark_delivered(conn, second, NOW)
            assert not await journal.mark_delivered(conn, second, NOW)  # exactly once
            later = await journal.pending(conn, NOW + timedelta(seconds=30))
            assert [(r.id, r.attempts, r.last_error) for r in later] == [
                (first, 1, "429 rate limited")
            ]


async def test_a_read_transaction_sees_one_snapshot(tmp_path: Path) -> None:
    path = tmp_path / "wal.sqlite3"
    async with await open_database(path) as reader, await open_database(path) as writer:
        async with reader.transaction(readonly=True) as conn:
            assert await tournament_repo.list_tournaments(conn, 1) == []
            async with writer.transaction() as wconn:  # commits while the snapshot is open
                await _cup(wconn, "During")
            assert await tournament_repo.list_tournaments(conn, 1) == []
        async with reader.transaction(readonly=True) as conn:
            assert [t.name for t in await tournament_repo.list_tournaments(conn, 1)] == ["During"]


async def test_savepoints_undo_part_of_a_transaction(tmp_path: Path) -> None:
    async with await open_database(tmp_path / "bot.sqlite3") as db:
        async with db.transaction() as conn:
            tid = await _cup(conn)
            await conn.execute("SAVEPOINT part")
            await player_repo.insert_player(conn, tournament_id=tid, user_id=None, name="Gone",
                                            rating=0, now=NOW)
            await conn.execute("ROLLBACK TO part")
            await conn.execute("RELEASE part")
            await player_repo.insert_player(conn, tournament_id=tid, user_id=None, name="Kept",
                                            rating=0, now=NOW)
        async with db.transaction(readonly=True) as conn:
            assert [p.name for p in await player_repo.list_players(conn, tid)] == ["Kept"]


async def test_writes_to_one_tournament_wait_for_each_other(tmp_path: Path) -> None:
    """The second writer of a tournament reads it only after the first one committed (SQLite:
    BEGIN IMMEDIATE; PostgreSQL: the row lock of get_tournament), so a read-then-write of a
    counter loses no update."""
    path = tmp_path / "lock.sqlite3"
    async with await open_database(path) as a, await open_database(path) as b:
        async with a.transaction() as conn:
            tid = await _cup(conn)

        async def bump(db: object) -> None:
            async with db.transaction() as conn:  # type: ignore[attr-defined]
                t = await tournament_repo.get_tournament(conn, tid)
                assert t is not None
                await asyncio.sleep(0.02)  # the other writer tries meanwhile
                await conn.execute("UPDATE tournaments SET seed = ? WHERE id = ?",
                                   (t.seed + 1, tid))

        await asyncio.gather(*(bump(a if i % 2 else b) for i in range(10)))
        async with a.transaction(readonly=True) as conn:
            t = await tournament_repo.get_tournament(conn, tid)
            assert t is not None and t.seed == 11
            assert dialect(conn).lock_clause(conn) == ""  # no lock in a read transaction
