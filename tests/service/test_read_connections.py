"""Issue 13: read-only transactions neither wait for a write transaction in progress nor for
each other (SQLite: separate reading connections in WAL mode; PostgreSQL: the pool), and each
one is a consistent snapshot of what was committed when it began.

On SQLite before, one connection served everything behind one lock: every test here waited
forever (the guard below turns that into a failure). Both backends.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from service import TournamentService
from tests.service_helpers import Clock, open_database, organiser

pytestmark = pytest.mark.usefixtures("backend")

GUARD = 30.0  # seconds: only a deadlock gets anywhere near it


async def _name(db: object, tid: int) -> str:
    async with db.transaction(readonly=True) as conn, conn.execute(  # type: ignore[attr-defined]
        "SELECT name FROM tournaments WHERE id = ?", (tid,)
    ) as cur:
        row = await cur.fetchone()
    return str(row[0])


async def test_a_read_does_not_wait_for_a_write_in_progress(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "t.sqlite3")
    try:
        info = await TournamentService(db, clock=Clock()).create_tournament(
            organiser(), "Before", 3)
        async with db.transaction() as conn:
            await conn.execute("UPDATE tournaments SET name = ? WHERE id = ?",
                               ("After", info.id))
            # the write holds its transaction open; a read meanwhile sees the last commit
            assert await asyncio.wait_for(_name(db, info.id), GUARD) == "Before"
        assert await _name(db, info.id) == "After"
    finally:
        await db.close()


async def test_a_long_read_does_not_hold_up_the_other_reads(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "t.sqlite3")
    try:
        info = await TournamentService(db, clock=Clock()).create_tournament(
            organiser(), "Cup", 3)
        async with db.transaction(readonly=True) as long_read:
            async with long_read.execute("SELECT name FROM tournaments") as cur:
                await cur.fetchall()
            # another read, and a write, while this one is still open
            assert await asyncio.wait_for(_name(db, info.id), GUARD) == "Cup"

            async def rename() -> None:
                async with db.transaction() as conn:
                    await conn.execute("UPDATE tournaments SET name = ? WHERE id = ?",
                                       ("Renamed", info.id))

            await asyncio.wait_for(rename(), GUARD)
            # the long read is one snapshot: it still sees the name as it began
            async with long_read.execute("SELECT name FROM tournaments WHERE id = ?",
                                         (info.id,)) as cur:
                row = await cur.fetchone()
            assert row is not None and row[0] == "Cup"
        assert await _name(db, info.id) == "Renamed"
    finally:
        await db.close()
