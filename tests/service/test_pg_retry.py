"""Deadlocks and serialization failures on PostgreSQL are retried, boundedly, and only while the
operation has committed nothing (storage.dialects.postgresql.retrying).

The deadlock is a real one on the test cluster: two operations lock two rows in opposite
orders; PostgreSQL aborts one of them (40P01) and the retry finishes it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from storage import tournaments as tournament_repo
from storage.db import connect
from storage.dialects import postgresql
from tests.pg_cluster import Cluster
from tests.service_helpers import GUILD, member, open_service, organiser


async def _two_rows(db: Any) -> None:
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE IF NOT EXISTS lockme (id INTEGER PRIMARY KEY, n INTEGER)")
        await conn.execute("DELETE FROM lockme")
        await conn.execute("INSERT INTO lockme (id, n) VALUES (1, 0), (2, 0)")


async def test_a_real_deadlock_is_retried_and_both_operations_finish(
    pg_cluster: Cluster,
) -> None:
    url = await pg_cluster.new_database()
    async with await connect(url) as db:
        await _two_rows(db)
        both_hold_one = asyncio.Barrier(2)
        runs = {"a": 0, "b": 0}

        async def op(name: str, first: int, second: int) -> str:
            runs[name] += 1
            async with db.transaction() as conn:
                await conn.execute("UPDATE lockme SET n = n + 1 WHERE id = ?", (first,))
                if runs[name] == 1:
                    await both_hold_one.wait()  # the first run of each: a guaranteed cycle
                await conn.execute("UPDATE lockme SET n = n + 1 WHERE id = ?", (second,))
            return name

        done = await asyncio.wait_for(asyncio.gather(
            db.retrying(lambda: op("a", 1, 2)), db.retrying(lambda: op("b", 2, 1))), 60)
        assert sorted(done) == ["a", "b"]
        assert sorted(runs.values()) == [1, 2]  # the victim ran again, once
        async with db.transaction(readonly=True) as conn, conn.execute(
            "SELECT n FROM lockme ORDER BY id"
        ) as cur:
            # each operation's two updates applied exactly once (the aborted run rolled back)
            assert [r[0] for r in await cur.fetchall()] == [2, 2]


async def test_a_deadlock_after_a_commit_is_not_retried(pg_cluster: Cluster) -> None:
    url = await pg_cluster.new_database()
    async with await connect(url) as db:
        await _two_rows(db)
        runs = 0

        async def op() -> None:
            nonlocal runs
            runs += 1
            async with db.transaction() as conn:  # this part commits
                await conn.execute("UPDATE lockme SET n = n + 1 WHERE id = 1")
            async with db.transaction():
                raise asyncpg.DeadlockDetectedError("deadlock detected")

        with pytest.raises(asyncpg.DeadlockDetectedError):
            await db.retrying(op)
        assert runs == 1  # running it again would have added 1 to row 1 twice


async def test_retries_are_bounded_and_other_errors_are_not_retried() -> None:
    runs = 0

    async def conflict() -> None:
        nonlocal runs
        runs += 1
        raise asyncpg.SerializationError("could not serialize access")

    with pytest.raises(asyncpg.SerializationError):
        await postgresql.retrying(conflict, attempts=3, base_seconds=0.001)
    assert runs == 3

    runs = 0

    async def refused() -> None:
        nonlocal runs
        runs += 1
        raise asyncpg.UniqueViolationError("duplicate key")

    with pytest.raises(asyncpg.UniqueViolationError):
        await postgresql.retrying(refused, attempts=3, base_seconds=0.001)
    assert runs == 1


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
async def test_service_operations_are_retried_on_postgresql(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A deadlock inside /join's transaction (here injected at its first statement, after
    the tournament row is locked) is invisible to the player: the join is recorded once."""
    async with open_service(tmp_path / "t.sqlite3") as service:
        await service.create_tournament(organiser(), "Retry Open", 3)
        real = tournament_repo.get_tournament
        failures = {"left": 1}

        async def deadlocking(conn: Any, *args: Any, **kwargs: Any) -> Any:
            row = await real(conn, *args, **kwargs)
            if failures["left"] and not getattr(conn, "readonly", True):
                failures["left"] -= 1
                raise asyncpg.DeadlockDetectedError("deadlock detected")
            return row

        monkeypatch.setattr(tournament_repo, "get_tournament", deadlocking)
        joined = await service.join(member(101))
        assert failures["left"] == 0 and joined.user_id == 101
        players = await service.list_players(GUILD)
        assert [p.user_id for p in players] == [101]
