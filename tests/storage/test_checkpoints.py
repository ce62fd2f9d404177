"""SQLite's WAL checkpoints run on a connection of their own after the commits, not inside
the COMMIT that crosses 1,000 pages with the write lock held (storage/checkpoints.py,
issue 13)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from storage import checkpoints
from storage.db import Database, connect_sqlite

BIG_WRITE = 1_200  # rows of 4 kB: past SQLite's automatic checkpoint of 1,000 pages
GUARD = 30.0  # seconds


async def _write_big(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE IF NOT EXISTS blob (data TEXT)")
        await conn.executemany("INSERT INTO blob (data) VALUES (?)",
                               [("x" * 4000,) for _ in range(BIG_WRITE)])


async def test_the_commit_that_crosses_1000_pages_does_not_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    db = await connect_sqlite(path)
    try:
        size = path.stat().st_size
        await _write_big(db)
        # the pages are in the log only: the COMMIT did not copy them into the file
        assert path.stat().st_size == size
        assert db.checkpointer is not None
        busy, logged, copied = await db.checkpointer.checkpoint()
        assert (busy, copied) == (0, logged) and logged > BIG_WRITE
        assert path.stat().st_size > size + BIG_WRITE * 4000
    finally:
        await db.close()


async def test_a_burst_of_commits_is_checkpointed_soon_after(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checkpoints, "DELAY", 0.01)
    path = tmp_path / "c.sqlite3"
    db = await connect_sqlite(path)
    try:
        assert db.checkpointer is not None
        size = path.stat().st_size
        await _write_big(db)
        async with asyncio.timeout(GUARD):  # the background checkpoint, nothing else, runs
            while db.checkpointer.checkpoints < 1:
                await asyncio.sleep(0.01)
        assert path.stat().st_size > size + BIG_WRITE * 4000
        async with db.transaction(readonly=True) as conn, conn.execute(
                "SELECT COUNT(*) FROM blob") as cur:
            assert (await cur.fetchone())[0] == BIG_WRITE
    finally:
        await db.close()


async def test_what_was_committed_survives_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    db = await connect_sqlite(path)
    await _write_big(db)
    await db.close()  # no checkpoint ran before: the last connection's close does it
    assert not Path(str(path) + "-wal").exists() or Path(str(path) + "-wal").stat().st_size == 0
    again = await connect_sqlite(path)
    try:
        async with again.transaction(readonly=True) as conn, conn.execute(
                "SELECT COUNT(*) FROM blob") as cur:
            assert (await cur.fetchone())[0] == BIG_WRITE
    finally:
        await again.close()
