"""The outbox claim on PostgreSQL (issue 17): while one process's claim transaction still holds
its rows, a second process claims other rows at once (``FOR UPDATE SKIP LOCKED``) instead of
waiting for those row locks and then claiming the same rows again (under READ COMMITTED the
``IN (subquery)`` is not evaluated again after a lock wait: without SKIP LOCKED both processes
got rows 1-3 when this was tried by hand with psql)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from storage import journal
from storage.shards import Shards
from tests.service_helpers import START, open_database

pytestmark = pytest.mark.usefixtures("backend")

SHARD_1 = (1 << 22) | 7  # a guild on shard 1 of 2; 1000 is on shard 0
LEASE = timedelta(seconds=60)


async def test_a_second_claim_skips_the_rows_another_claim_holds(
    tmp_path: Path, backend: str
) -> None:
    if backend != "postgresql":
        pytest.skip("SQLite has one writer at a time: there is no row lock to skip")
    first = await open_database(tmp_path / "claim")
    second = await open_database(tmp_path / "claim")
    try:
        async with first.transaction() as conn:
            for n in range(1, 9):
                await journal.enqueue(conn, guild_id=SHARD_1 if n % 4 == 0 else 1000,
                                      channel_id=10 + n, tournament_id=None, kind="pairings",
                                      payload={}, now=START)
        shard_0 = Shards(2, frozenset({0}))
        async with first.transaction() as holding:  # still open: its row locks are held
            got_a = await journal.claim(holding, claimant="a", now=START,
                                        lease_until=START + LEASE, limit=3, shards=shard_0)
            async with second.transaction() as conn:
                # A lock wait is an error here, not a delay (SKIP LOCKED never waits).
                await conn.execute("SET LOCAL lock_timeout = '2s'")
                got_b = await journal.claim(conn, claimant="b", now=START,
                                            lease_until=START + LEASE, limit=3, shards=shard_0)
        assert [r.id for r in got_a] == [1, 2, 3]
        assert [r.id for r in got_b] == [5, 6, 7]  # 4 and 8 are on the other shard
        async with first.transaction(readonly=True) as conn:
            rows = await journal.list_outbox(conn)
        assert [(r.id, r.claimed_by) for r in rows if r.claimed_by] == \
            [(1, "a"), (2, "a"), (3, "a"), (5, "b"), (6, "b"), (7, "b")]
    finally:
        await first.close()
        await second.close()
