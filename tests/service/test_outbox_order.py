"""The outbox keeps each channel's order in the database, and the leases of a dead process are
taken back without waiting (on SQLite and PostgreSQL).

* a failed row keeps its channel's later rows waiting for whichever process claims next (a
  restart forgets everything it held in memory), until it is posted or given up;
* leases are renewed while a process runs, and expire when it stops renewing;
* a process whose lock is free is dead: its rows are free at once; a live one keeps them;
* a shard that no live process serves is served by the others.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from service import Shards
from service.outbox import GIVEN_UP
from storage import journal
from storage.presence import _usable
from storage.timefmt import to_text
from tests.service_helpers import START, Clock, open_service

pytestmark = pytest.mark.usefixtures("backend")

GUILD_0 = 1000
GUILD_1 = (1 << 22) | 1000
LEASE = 10.0


async def _fill(service: Any, rows: list[tuple[int, int]]) -> list[int]:
    ids = []
    async with service.db.transaction() as conn:
        for guild, channel in rows:
            ids.append(await journal.enqueue(conn, guild_id=guild, channel_id=channel,
                                             tournament_id=None, kind="pairings",
                                             payload={"n": len(ids)}, now=START))
    return ids


async def _claim(service: Any, who: str, **options: Any) -> list[int]:
    rows = await service.claim_announcements(who, lease_seconds=LEASE, **options)
    return [r.id for r in rows]


async def test_a_failed_row_holds_its_channel_back_for_the_next_claimant(
    tmp_path: Path,
) -> None:
    """pairings, results, standings of one channel: the pairings are refused (403) and wait
    to be retried; the process restarts meanwhile. The new process must not post the
    results and standings before the pairings; another channel is not held back."""
    clock = Clock()
    async with open_service(tmp_path / "order.sqlite3", clock) as service:
        pairings, results, standings, other = await _fill(
            service, [(GUILD_0, 10), (GUILD_0, 10), (GUILD_0, 10), (GUILD_0, 20)])
        assert await _claim(service, "before") == [pairings, results, standings, other]
        assert await service.mark_failed(pairings, "HTTP 403", retry_after_seconds=4)
        await service.release_announcements("before")  # as a SIGTERM does
        # the restarted process: only the other channel
        assert await _claim(service, "after") == [other]
        assert await service.mark_delivered(other)
        clock.advance(seconds=3)
        assert await _claim(service, "after") == []
        clock.advance(seconds=1)  # the retry is due: the channel goes on, in order
        assert await _claim(service, "after") == [pairings, results, standings]


async def test_a_second_failure_still_holds_the_channel_and_a_given_up_row_frees_it(
    tmp_path: Path,
) -> None:
    clock = Clock()
    async with open_service(tmp_path / "giveup.sqlite3", clock) as service:
        first, second = await _fill(service, [(GUILD_0, 10), (GUILD_0, 10)])
        assert await _claim(service, "a") == [first, second]
        assert await service.mark_failed(first, "HTTP 500", retry_after_seconds=2)
        clock.advance(seconds=LEASE + 1)  # a's lease on the second row is over, too
        assert await _claim(service, "b", limit=1) == [first]
        assert await service.mark_failed(first, "HTTP 500", retry_after_seconds=4)
        assert await _claim(service, "c") == []  # the failure did not make the second due
        assert await service.give_up_announcement(first, "the channel was deleted")
        row = (await service.announcements())[0]
        assert row.id == first and GIVEN_UP.year == 9999
        assert await _claim(service, "c") == [second]  # a given-up row holds nothing back


async def test_a_deferred_row_holds_its_channel_back(tmp_path: Path) -> None:
    async with open_service(tmp_path / "deferred.sqlite3") as service:
        first, second = await _fill(service, [(GUILD_0, 10), (GUILD_0, 10)])
        async with service.db.transaction() as conn:
            await conn.execute("UPDATE outbox SET deferred = ? WHERE id = ?", ("{}", first))
        assert await _claim(service, "a") == []
        async with service.db.transaction() as conn:
            assert await journal.fill_deferred(conn, first, {"n": 0})
        assert await _claim(service, "a") == [first, second]


async def test_renewed_leases_hold_and_expire_when_the_renewals_stop(tmp_path: Path) -> None:
    clock = Clock()
    async with open_service(tmp_path / "renew.sqlite3", clock) as service:
        ids = await _fill(service, [(GUILD_0, 10), (GUILD_0, 11)])
        assert await _claim(service, "a") == ids
        for _ in range(5):  # a long delivery: a renews every 3 s
            clock.advance(seconds=3)
            assert await service.renew_announcement_leases("a", lease_seconds=LEASE) == 2
            assert await _claim(service, "b") == []
        clock.advance(seconds=LEASE - 1)  # a stopped renewing (it died)
        assert await _claim(service, "b") == []
        clock.advance(seconds=1)
        assert await _claim(service, "b") == ids
        assert await service.renew_announcement_leases("a", lease_seconds=LEASE) == 0


async def test_a_dead_process_rows_are_taken_back_at_once_a_live_ones_are_kept(
    tmp_path: Path,
) -> None:
    """Three processes of the same shards (all): ``first`` claims and dies without
    releasing anything (its lock dropped, as by SIGKILL); ``twin`` runs alongside by
    mistake. The restarted ``after`` takes back first's rows at once, never twin's."""
    async with open_service(tmp_path / "dead.sqlite3") as service:
        a, b, c = await _fill(service, [(GUILD_0, 10), (GUILD_0, 10), (GUILD_0, 11)])
        first = await service.open_delivery_presence("all")
        twin = await service.open_delivery_presence("all")
        assert first.name != twin.name
        assert await _claim(service, first.name, limit=2) == [a, b]
        assert await _claim(service, twin.name) == [c]
        assert await service.free_dead_claims(twin) == []  # first is alive
        await first.close()  # killed: the lock goes with the process, the leases stay
        after = await service.open_delivery_presence("all")
        try:
            assert after.name not in (first.name, twin.name)
            assert await service.free_dead_claims(after) == [first.name]
            assert await _claim(service, after.name) == [a, b]  # c stays twin's
            assert await service.free_dead_claims(after) == []
            assert await _claim(service, twin.name) == [c]
        finally:
            await after.close()
            await twin.close()


async def test_a_shard_no_live_process_serves_is_served_by_the_others(tmp_path: Path) -> None:
    clock = Clock()
    zero, one = Shards(2, frozenset({0})), Shards(2, frozenset({1}))
    async with open_service(tmp_path / "orphan.sqlite3", clock) as service:
        on_0, on_1 = await _fill(service, [(GUILD_0, 10), (GUILD_1, 20)])
        await service.renew_announcement_leases("zero", lease_seconds=LEASE, shards=zero)
        await service.renew_announcement_leases("one", lease_seconds=LEASE, shards=one)
        assert await _claim(service, "zero", shards=zero) == [on_0]
        clock.advance(seconds=LEASE - 1)  # "one" is late, not gone
        await service.renew_announcement_leases("zero", lease_seconds=LEASE, shards=zero)
        assert await _claim(service, "zero", shards=zero) == [on_0]
        clock.advance(seconds=2)  # "one" has not renewed for a lease: its shard is served
        assert await _claim(service, "zero", shards=zero) == [on_0, on_1]
        # it comes back: its shard is its own again (once zero's lease ends)
        await service.release_announcements("zero", [on_1])
        await service.renew_announcement_leases("one", lease_seconds=LEASE, shards=one)
        assert await _claim(service, "zero", shards=zero) == [on_0]
        assert await _claim(service, "one", shards=one) == [on_1]
        # a clean stop leaves at once
        await service.leave_delivery("one")
        assert await _claim(service, "zero", shards=zero) == [on_0, on_1]



async def test_a_claimant_without_a_lock_is_left_to_its_lease(tmp_path: Path) -> None:
    """A name that holds no lock (an older version of the bot still running during an
    upgrade) cannot be tested: its rows wait for its lease, never taken while it may post."""
    clock = Clock()
    async with open_service(tmp_path / "old.sqlite3", clock) as service:
        ids = await _fill(service, [(GUILD_0, 10)])
        assert await _claim(service, "oldhost:1234:abcd") == ids
        me = await service.open_delivery_presence("all")
        try:
            assert await service.free_dead_claims(me) == []
            assert await _claim(service, me.name) == []
            clock.advance(seconds=LEASE)
            assert await _claim(service, me.name) == ids
        finally:
            await me.close()


async def test_a_lost_lock_connection_is_replaced_and_holds_the_lock_again(
    tmp_path: Path,
) -> None:
    async with open_service(tmp_path / "reconnect.sqlite3") as service:
        if service.db.dialect != "postgresql":
            pytest.skip("SQLite's lock is a file: no connection to lose")
        me = await service.open_delivery_presence("all")
        other = await service.open_delivery_presence("all")
        try:
            pid = me._raw.get_server_pid()  # type: ignore[attr-defined]
            async with service.db.transaction() as conn:  # the server ends our session
                await conn.execute("SELECT pg_terminate_backend(?)", (pid,))
            for _ in range(100):
                if not _usable(me._raw):  # type: ignore[attr-defined]
                    break
                await asyncio.sleep(0.05)
            assert await other.alive(me.name) is False  # meanwhile we look dead...
            assert await me.alive(other.name) is True  # ...until our next check
            assert await other.alive(me.name) is True
        finally:
            await me.close()
            await other.close()


# -- the invariant, over random histories (SQLite: the claim is the same SQL on both) --------

_STEPS = st.lists(st.one_of(
    st.tuples(st.just("queue"), st.integers(0, 1)),
    st.tuples(st.just("claim"), st.sampled_from("ab"), st.integers(1, 4)),
    st.tuples(st.just("deliver"), st.integers(0, 30)),
    st.tuples(st.just("fail"), st.integers(0, 30), st.integers(1, 20)),
    st.tuples(st.just("give up"), st.integers(0, 30)),
    st.tuples(st.just("release"), st.sampled_from("ab")),
    st.tuples(st.just("wait"), st.integers(1, 15)),
), max_size=40)


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=_STEPS)
# the restart of the issue: the first post of a channel refused, the process gone
@pytest.mark.slow
@example(steps=[("queue", 0), ("queue", 0), ("claim", "a", 4), ("fail", 0, 5),
                ("release", "a"), ("claim", "b", 4)])
def test_a_claimed_row_never_overtakes_an_earlier_row_of_its_channel(
    tmp_path: Path, steps: list[tuple[Any, ...]]
) -> None:
    """Whatever queues, claims (two processes), deliveries, failures, give-ups, releases and
    waits: a claimed row's earlier rows in its channel are delivered, given up, or claimed
    just before it in the same claim; and no row is claimed while another process's lease
    on it runs."""
    asyncio.run(_history(tmp_path / "history.sqlite3", steps))


async def _history(path: Path, steps: list[tuple[Any, ...]]) -> None:
    clock = Clock()
    async with open_service(path, clock) as service:
        async with service.db.transaction() as conn:  # the database serves every example
            await conn.execute("DELETE FROM outbox")
        ids: list[int] = []
        for step in steps:
            if step[0] == "queue":
                ids += await _fill(service, [(GUILD_0, 10 + step[1])])
            elif step[0] == "claim":
                leases = await _leases(service)
                got = await service.claim_announcements(step[1], limit=step[2],
                                                        lease_seconds=LEASE)
                for row in got:
                    holder, until = leases[row.id]
                    assert holder in (None, step[1]) or until <= to_text(clock()), row.id
                rows = {r.id: r for r in await service.announcements()}
                for row in got:
                    earlier = [e for e in rows.values()
                               if e.channel_id == row.channel_id and e.id < row.id]
                    for e in earlier:
                        done = e.id in [g.id for g in got if g.id < row.id]
                        state = await _state(service, e.id)
                        assert done or state in ("delivered", "given up"), (row.id, e.id)
            elif ids and step[0] in ("deliver", "fail", "give up"):
                row_id = ids[step[1] % len(ids)]
                if step[0] == "deliver":
                    await service.mark_delivered(row_id)
                elif step[0] == "fail":
                    await service.mark_failed(row_id, "HTTP 500",
                                              retry_after_seconds=step[2])
                else:
                    await service.give_up_announcement(row_id, "gone")
            elif step[0] == "release":
                await service.release_announcements(step[1])
            elif step[0] == "wait":
                clock.advance(seconds=step[1])


async def _leases(service: Any) -> dict[int, tuple[str | None, str | None]]:
    async with (service.db.transaction(readonly=True) as conn,
                conn.execute("SELECT id, claimed_by, lease_until FROM outbox") as cur):
        return {int(r[0]): (r[1], r[2]) for r in await cur.fetchall()}


async def _state(service: Any, row_id: int) -> str:
    async with service.db.transaction(readonly=True) as conn:
        row = await journal.get_outbox(conn, row_id)
    assert row is not None
    if row.delivered_at is not None:
        return "delivered"
    return "given up" if row.next_attempt_at >= GIVEN_UP else "pending"
