"""The outbox claim on PostgreSQL: claims are serialised (a transaction-level advisory lock),
so a claim sees the rows another claim took and never takes the same rows, nor a later row of
their channel while the earlier one is still being claimed (with ``FOR UPDATE SKIP LOCKED``
alone, the second claim skipped the locked row as if it were not there and took the next row
of its channel, which could then be posted first). Under READ COMMITTED the ``IN
(subquery)`` is not evaluated again after a row-lock wait: without SKIP LOCKED both processes
got rows 1-3 when this was tried by hand with psql."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest

from storage import journal
from storage.shards import Shards
from tests.service_helpers import START, open_database

pytestmark = pytest.mark.usefixtures("backend")

SHARD_1 = (1 << 22) | 7  # a guild on shard 1 of 2; 1000 is on shard 0
LEASE = timedelta(seconds=60)


async def _claim_behind(path: Path, shards: Shards, limit: int,
                        rows: list[tuple[int, int]]) -> tuple[list[int], list[int], bool]:
    """Two processes' connections to one database with ``rows`` (guild, channel) queued:
    "a" claims ``limit`` rows in a transaction left open, "b" claims meanwhile; returns both
    claims' ids and whether b waited for a."""
    first, second = await open_database(path), await open_database(path)
    try:
        async with first.transaction() as conn:
            for guild, channel in rows:
                await journal.enqueue(conn, guild_id=guild, channel_id=channel,
                                      tournament_id=None, kind="pairings", payload={},
                                      now=START)

        async def claim_b() -> list[int]:
            async with second.transaction() as conn:
                got = await journal.claim(conn, claimant="b", now=START,
                                          lease_until=START + LEASE, limit=limit,
                                          shards=shards)
            return [r.id for r in got]

        async with first.transaction() as holding:
            got_a = await journal.claim(holding, claimant="a", now=START,
                                        lease_until=START + LEASE, limit=limit, shards=shards)
            b = asyncio.create_task(claim_b())
            await asyncio.sleep(0.5)
            waited = not b.done()
        return [r.id for r in got_a], await asyncio.wait_for(b, 10), waited
    finally:
        await first.close()
        await second.close()


async def test_a_second_claim_waits_for_the_first_and_takes_other_rows(
    tmp_path: Path, backend: str
) -> None:
    if backend != "postgresql":
        pytest.skip("SQLite has one writer at a time: claims are serialised by it")
    rows = [(SHARD_1 if n % 4 == 0 else 1000, 10 + n) for n in range(1, 9)]
    got_a, got_b, waited = await _claim_behind(tmp_path / "claim", Shards(2, frozenset({0})),
                                               3, rows)
    assert waited  # b's claim waited for a's transaction...
    assert got_a == [1, 2, 3]
    assert got_b == [5, 6, 7]  # ...and took other rows (4 and 8 are on the other shard)


async def test_a_claim_never_takes_a_channels_later_row_while_another_claims_the_earlier(
    tmp_path: Path, backend: str
) -> None:
    if backend != "postgresql":
        pytest.skip("SQLite has one writer at a time: claims are serialised by it")
    got_a, got_b, _ = await _claim_behind(tmp_path / "order", Shards(1, frozenset({0})), 1,
                                          [(1000, 10), (1000, 10), (1000, 20)])
    assert got_a == [1]
    assert got_b == [3]  # not 2: row 1 of its channel is a's
