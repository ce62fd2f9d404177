"""The outbox claim with leases (issue 17): several processes on one database each post a row
once; a dead process's lease expires; a channel keeps its order; shards split the guilds; the
background timers stay with the process of their guild's shard. On SQLite and on PostgreSQL
(where the claim takes its rows ``FOR UPDATE SKIP LOCKED``)."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from service import Shards, TournamentService, shard_of
from storage import journal
from tests.service_helpers import START, Clock, member, open_database, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")

LEASE = timedelta(seconds=30)
# Two guilds on different shards of two: Discord's formula uses the bits above 22.
GUILD_0 = 1000
GUILD_1 = (1 << 22) | 1000
TWO_SHARDS_0 = Shards(2, frozenset({0}))
TWO_SHARDS_1 = Shards(2, frozenset({1}))


async def _fill(db: Any, rows: list[tuple[int, int]]) -> list[int]:
    """Queue one announcement per (guild, channel); returns their ids."""
    ids = []
    async with db.transaction() as conn:
        for guild, channel in rows:
            ids.append(await journal.enqueue(conn, guild_id=guild, channel_id=channel,
                                             tournament_id=None, kind="pairings",
                                             payload={"n": len(ids)}, now=START))
    return ids


async def _claim(db: Any, who: str, *, at: timedelta = timedelta(0), limit: int = 50,
                 shards: Shards | None = None) -> list[int]:
    now = START + at
    async with db.transaction() as conn:
        rows = await journal.claim(conn, claimant=who, now=now, lease_until=now + LEASE,
                                   limit=limit, **({"shards": shards} if shards else {}))
    return [r.id for r in rows]


def test_shard_formula_is_discords() -> None:
    assert shard_of(GUILD_0, 2) == 0 and shard_of(GUILD_1, 2) == 1
    # Discord's documented example: guild 197038439483310086 is on shard 0 of 2
    # ((197038439483310086 >> 22) % 2 == 0) and 41771983423143937 on shard 1 of 2.
    assert shard_of(197038439483310086, 2) == 0
    assert shard_of(41771983423143937 << 0, 2) == (41771983423143937 >> 22) % 2
    with pytest.raises(ValueError):
        Shards(2, frozenset({2}))


async def test_two_connections_racing_claim_each_row_once(tmp_path: Path) -> None:
    """Two writers (two connections, each in its own thread: as two processes) claim and mark
    in a loop: every row is claimed by exactly one of them and delivered once."""
    path = tmp_path / "race.sqlite3"
    first, second = await open_database(path), await open_database(path)
    try:
        ids = await _fill(first, [(GUILD_0, 10 + i) for i in range(120)])
        claimed: dict[str, list[int]] = {"a": [], "b": [], "c": []}
        marked: list[int] = []

        async def worker(db: Any, who: str) -> None:
            while True:
                got = await _claim(db, who, limit=7)
                if not got:
                    return
                claimed[who] += got
                await asyncio.sleep(0.01)  # room for the other connection's busy handler
                for row_id in got:
                    async with db.transaction() as conn:
                        if await journal.mark_delivered(conn, row_id, START):
                            marked.append(row_id)

        await asyncio.gather(worker(first, "a"), worker(second, "b"), worker(first, "c"))
        assert sorted(claimed["a"] + claimed["b"] + claimed["c"]) == ids  # each row once
        assert claimed["b"] and (claimed["a"] or claimed["c"])  # both connections raced
        assert sorted(marked) == ids
    finally:
        await first.close()
        await second.close()


async def test_a_dead_claimants_lease_expires_and_the_row_is_claimed_again(
    tmp_path: Path,
) -> None:
    async with await open_database(tmp_path / "lease.sqlite3") as db:
        ids = await _fill(db, [(GUILD_0, 10), (GUILD_0, 11)])
        assert await _claim(db, "dead") == ids  # ... and the process is killed
        assert await _claim(db, "alive", at=timedelta(seconds=29)) == []  # still leased
        assert await _claim(db, "alive", at=timedelta(seconds=30)) == ids  # expired
        # the claim is the only one that counts: the dead one's late mark is harmless
        async with db.transaction() as conn:
            assert await journal.mark_delivered(conn, ids[0], START)
            assert not await journal.mark_delivered(conn, ids[0], START)
            row = await journal.get_outbox(conn, ids[0])
        assert row is not None and row.claimed_by is None and row.lease_until is None


async def test_released_rows_are_claimable_at_once_and_a_failure_ends_the_lease(
    tmp_path: Path,
) -> None:
    async with await open_database(tmp_path / "release.sqlite3") as db:
        ids = await _fill(db, [(GUILD_0, 10), (GUILD_0, 11), (GUILD_0, 12)])
        assert await _claim(db, "a") == ids
        async with db.transaction() as conn:
            assert await journal.release(conn, "a", [ids[0]]) == 1
            assert await journal.mark_failed(conn, ids[1], error="HTTP 500",
                                             retry_at=START + timedelta(seconds=5))
        assert await _claim(db, "b") == [ids[0]]  # released; ids[1] waits for its retry
        assert await _claim(db, "b", at=timedelta(seconds=5)) == [ids[0], ids[1]]


async def test_a_channel_waits_while_another_process_holds_its_earlier_row(
    tmp_path: Path,
) -> None:
    """Order per channel: process b must not post channel 10's second announcement while a
    (perhaps dead) process a holds the first one; other channels go ahead."""
    async with await open_database(tmp_path / "order.sqlite3") as db:
        first, second, other = await _fill(db, [(GUILD_0, 10), (GUILD_0, 10), (GUILD_0, 20)])
        assert await _claim(db, "a", limit=1) == [first]
        assert await _claim(db, "b") == [other]
        assert await _claim(db, "a") == [first, second]  # a itself goes on in order
        assert await _claim(db, "b", at=LEASE) == [first, second, other]  # a's expired


async def test_shards_split_the_guilds(tmp_path: Path) -> None:
    async with await open_database(tmp_path / "shards.sqlite3") as db:
        on_0, on_1 = await _fill(db, [(GUILD_0, 10), (GUILD_1, 20)])
        assert await _claim(db, "one", shards=TWO_SHARDS_1) == [on_1]
        assert await _claim(db, "zero", shards=TWO_SHARDS_0) == [on_0]


async def test_service_claim_release_roundtrip(tmp_path: Path) -> None:
    async with open_service(tmp_path / "svc.sqlite3") as service:
        ids = await _fill(service.db, [(GUILD_0, 10), (GUILD_1, 20)])
        # both processes run (a shard no live process serves would be served by p1 too)
        for name, shards in (("p1", TWO_SHARDS_0), ("p2", TWO_SHARDS_1)):
            await service.renew_announcement_leases(name, lease_seconds=60, shards=shards)
        got = await service.claim_announcements("p1", lease_seconds=60, shards=TWO_SHARDS_0)
        assert [a.id for a in got] == ids[:1]
        assert await service.claim_announcements("p2") == [
            a for a in await service.claim_announcements("p2") if a.id == ids[1]]
        assert await service.release_announcements("p1") == 1
        assert [a.id for a in await service.claim_announcements("p2")] == ids


async def _timed_tournament(service: TournamentService, guild: int) -> int:
    org = organiser(guild)
    info = await service.create_tournament(org, "Timed", 3, channel_id=guild + 5, seed=7,
                                           deadline_minutes=30, deadline_action="draw")
    for user in range(1, 5):
        await service.join(member(100 + user, guild), info.id)
    await service.start_tournament(org, info.id)
    return info.id


async def test_timers_fire_only_in_the_process_of_their_shard(tmp_path: Path) -> None:
    clock = Clock()
    async with open_service(tmp_path / "timers.sqlite3", clock) as service:
        on_0 = await _timed_tournament(service, GUILD_0)
        on_1 = await _timed_tournament(service, GUILD_1)
        clock.advance(minutes=31)
        run = await service.run_timers(shards=TWO_SHARDS_1)
        assert [line.split(" round")[0] for line in run.fired] == [f"tournament {on_1}"]
        run = await service.run_timers(shards=TWO_SHARDS_0)
        assert [line.split(" round")[0] for line in run.fired] == [f"tournament {on_0}"]
        assert (await service.run_timers()).fired == ()


async def test_auto_advance_and_checkin_passes_take_shards(tmp_path: Path) -> None:
    """The other background passes accept the shard filter too (nothing due here: they
    must simply run with it)."""
    async with open_service(tmp_path / "passes.sqlite3") as service:
        options: dict[str, Any] = {"shards": TWO_SHARDS_1}
        assert await service.run_auto_advances(**options) == []
        assert await service.run_checkin_reminders(**options) == []


async def test_a_big_payload_can_be_claimed_unparsed(tmp_path: Path) -> None:
    """``unparsed_from``: a payload of that much JSON or more comes back as its text (the
    delivery parses a big round's 600 kB in its render worker, not in the event loop); the
    smaller ones are parsed as always, and without the option every one is."""
    big = {"games": [{"board": b, "name": "x" * 40} for b in range(100)], "replaces": 3}
    async with open_service(tmp_path / "u.sqlite3") as service:
        async with service.db.transaction() as conn:
            for payload in (big, {"n": 1}):
                await journal.enqueue(conn, guild_id=GUILD_0, channel_id=10,
                                      tournament_id=None, kind="pairings", payload=payload,
                                      now=START)
        rows = await service.claim_announcements("a", unparsed_from=1000)
        assert [r.payload for r in rows] == [{}, {"n": 1}]
        assert rows[0].payload_text is not None and rows[1].payload_text is None
        assert json.loads(rows[0].payload_text) == big
        await service.release_announcements("a")
        again = await service.claim_announcements("b")
        assert [r.payload for r in again] == [big, {"n": 1}]
        assert all(r.payload_text is None for r in again)
