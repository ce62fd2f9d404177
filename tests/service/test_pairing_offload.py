"""Issue 13 part 2: a big event's work leaves the event loop, with the same results.

* The round paired in a worker is stored from what the worker built (``service.stored_round``):
  it must be exactly the round and the announcement read back from the database.
* The store checks the tournament's revision (migration 0013) instead of reading the whole
  event again: every write a pairing depends on must refuse a stale store, and writes it does
  not depend on must not.
* Standings, crosstable and exports of a big event are computed in a thread after the read
  transaction: the same output as inline, and the event loop keeps running meanwhile.

Every test runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from service import TournamentService
from service import results as results_module
from service.errors import RoundChangedError
from service.pairing_pool import PairingLimits, PairingPool
from service.present import round_payload, round_view
from storage import pairing_runs as run_repo
from storage import tournaments as tournament_repo
from tests.pairing_jobs import slow_pairing
from tests.service_helpers import GUILD, Clock, member, open_database, organiser

pytestmark = pytest.mark.usefixtures("backend")

ORG = organiser()
INLINE = PairingLimits(inline_below=1_000_000)  # everything in the event loop, as before
OFFLOADED = PairingLimits(inline_below=0)  # everything in a worker or a thread


@asynccontextmanager
async def pooled(path: Path, job: object = None) -> AsyncIterator[TournamentService]:
    """A service whose every pairing runs in a worker process (``job`` if given) and whose
    every standings or export is computed in a thread."""
    db = await open_database(path)
    pool = PairingPool(OFFLOADED, job=job)  # type: ignore[arg-type]
    try:
        yield TournamentService(db, clock=Clock(), pairing=pool)
    finally:
        pool.close()
        await db.close()


async def _running(service: TournamentService, players: int = 9, **settings: Any) -> int:
    """Round 1 paired (in the event loop) and, unless told, every game of it decided."""
    info = await service.create_tournament(ORG, "Cup", 5, seed=3, **settings)
    for uid in range(1, players + 1):
        await service.join(member(GUILD + uid), rating=1500 + 37 * uid % 400)
    pool, service.pairing = service.pairing, PairingPool(INLINE)
    try:
        view = await service.start_tournament(ORG)
    finally:
        service.pairing = pool
    for index, game in enumerate(view.games):
        await service.set_result(ORG, 1, f"#{game.white.number}",
                                 ("win", "draw", "loss")[index % 3])
    return info.id


async def _wait_for_marker(service: TournamentService, tid: int) -> None:
    for _ in range(400):
        async with service.db.transaction(readonly=True) as conn:
            if await run_repo.get_run(conn, tid) is not None:
                return
        await asyncio.sleep(0.025)
    raise AssertionError("the round was never marked as being paired")


async def _rounds(service: TournamentService, tid: int) -> int:
    async with service.db.transaction(readonly=True) as conn:
        cur = await conn.execute("SELECT COUNT(*) FROM rounds WHERE tournament_id = ?", (tid,))
        row = await cur.fetchone()
    return int(row[0])


@pytest.mark.slow
async def test_the_round_built_in_the_worker_is_the_round_read_back(tmp_path: Path) -> None:
    async with pooled(tmp_path / "t.sqlite3") as service:
        tid = await _running(service, players=9, deadline_minutes=90)  # a bye, a deadline
        view = await service.pair_next_round(ORG, round_number=2)
        async with service.db.transaction(readonly=True) as conn:
            t = await tournament_repo.get_tournament(conn, tid)
            assert t is not None
            stored = await round_view(conn, t, 2)
        assert view == stored
        assert len(view.games) == 4 and len(view.byes) == 1 and view.deadline is not None
        pairings = [a for a in await service.announcements(tid) if a.kind == "pairings"][-1]
        payload = dict(pairings.payload)
        assert payload.pop("replaces") is not None  # the progress line becomes this post
        payload.pop("tournament")
        payload.pop("language")  # the server's language when it was queued (None: Discord's)
        assert payload == round_payload(stored)


WRITES: dict[str, Callable[[TournamentService], Awaitable[object]]] = {
    "a forbidden pair": lambda s: s.forbid_pair(ORG, "#1", "#2"),
    "a bye for the round": lambda s: s.request_bye(ORG, 2, kind="half", player="#3"),
    "a rating": lambda s: s.set_rating(ORG, "#4", 2100),
    "a late join": lambda s: s.join(member(GUILD + 50), rating=1400),
    "the tournament's name": lambda s: s.edit_tournament(ORG, name="Renamed Cup"),
}


@pytest.mark.slow
@pytest.mark.parametrize("write", sorted(WRITES))
async def test_a_write_the_pairing_depends_on_refuses_the_stale_store(
    tmp_path: Path, write: str
) -> None:
    async with pooled(tmp_path / "t.sqlite3", job=slow_pairing) as service:
        tid = await _running(service)
        task = asyncio.create_task(service.pair_next_round(ORG, round_number=2))
        await _wait_for_marker(service, tid)
        await WRITES[write](service)
        with pytest.raises(RoundChangedError, match="changed while round 2 was being paired"):
            await task
        assert await _rounds(service, tid) == 1


@pytest.mark.slow
async def test_writes_the_pairing_does_not_depend_on_let_it_be_stored(tmp_path: Path) -> None:
    async with pooled(tmp_path / "t.sqlite3", job=slow_pairing) as service:
        tid = await _running(service)
        task = asyncio.create_task(service.pair_next_round(ORG, round_number=2))
        await _wait_for_marker(service, tid)
        await service.web_link(ORG)  # the live page's token
        await service.edit_tournament(ORG, deadline_minutes=45)  # applies to this round
        view = await task
        assert view.number == 2 and view.deadline is not None
        assert await _rounds(service, tid) == 2


async def test_the_revision_counts_what_a_pairing_is_computed_from(tmp_path: Path) -> None:
    async with pooled(tmp_path / "t.sqlite3") as service:
        tid = await _running(service)

        async def revision() -> int:
            async with service.db.transaction(readonly=True) as conn:
                return await tournament_repo.revision(conn, tid)

        before = await revision()
        await service.forbid_pair(ORG, "#1", "#2")
        assert await revision() > before
        before = await revision()
        await service.set_result(ORG, 1, "#1", "draw")  # a correction of round 1
        assert await revision() > before
        before = await revision()
        for note in await service.pending_announcements(50):
            await service.mark_delivered(note.id)
        await service.web_link(ORG)
        assert await revision() == before


async def test_big_standings_are_the_same_and_leave_the_event_loop_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with pooled(tmp_path / "t.sqlite3") as service:
        await _running(service)
        service.pairing.limits = INLINE
        inline = await service.standings(GUILD)
        service.pairing.limits = OFFLOADED
        assert await service.standings(GUILD) == inline
        assert await service.standings(GUILD, round_number=1) == await _inline(
            service, service.standings(GUILD, round_number=1))

        # While the table is computed (made slow here: a big event's second of CPU), another
        # coroutine keeps running; in the event loop it could not run at all.
        real = results_module.standings_view
        computing = threading.Event()
        where: list[bool] = []

        def slow_standings(*args: Any, **kwargs: Any) -> Any:
            where.append(threading.current_thread() is threading.main_thread())
            computing.set()
            try:
                time.sleep(0.5)
                return real(*args, **kwargs)
            finally:
                computing.clear()

        monkeypatch.setattr(results_module, "standings_view", slow_standings)
        ticks = 0
        done = False

        async def ticker() -> None:
            nonlocal ticks
            while not done:
                if computing.is_set():
                    ticks += 1
                await asyncio.sleep(0.01)

        counting = asyncio.create_task(ticker())
        assert await service.standings(GUILD) == inline
        done = True
        await counting
        assert where == [False]  # not the event loop's thread
        assert ticks >= 3  # 0 when computed in the event loop (50 if nothing else ran)


async def _inline(service: TournamentService, call: Awaitable[Any]) -> Any:
    limits, service.pairing.limits = service.pairing.limits, INLINE
    try:
        return await call
    finally:
        service.pairing.limits = limits


async def test_big_exports_and_the_crosstable_are_the_same_off_the_event_loop(
    tmp_path: Path,
) -> None:
    async with pooled(tmp_path / "t.sqlite3") as service:
        await _running(service)
        for fmt, table in (("trf", None), ("json", "standings"), ("json", "all"),
                           ("csv", "standings"), ("csv", "games"), ("csv", "crosstable")):
            offloaded = await service.export(GUILD, fmt, table=table)
            assert offloaded == await _inline(service, service.export(GUILD, fmt, table=table))
        assert await service.crosstable(GUILD) == await _inline(service,
                                                                service.crosstable(GUILD))


async def test_the_spliced_json_of_a_big_round_is_json_dumps_of_it(tmp_path: Path) -> None:
    """The store writes the pairings announcement by splicing the game ids into the boards'
    JSON built in the worker (``StoredRound.encoder``): exactly ``json.dumps`` of the body."""
    import json

    from service.model import load_snapshot, pairing_config
    from service.pairing_runs import _seating
    from service.stored_round import stored_round
    from swiss.pairing import pair_round

    async with pooled(tmp_path / "t.sqlite3") as service:
        tid = await _running(service, players=9)
        async with service.db.transaction(readonly=True) as conn:
            t = await tournament_repo.get_tournament(conn, tid)
            assert t is not None
            snapshot = await load_snapshot(conn, t)
    result = pair_round(snapshot.tournament, pairing_config(t))
    stored = stored_round(snapshot.tournament, result, {}, _seating(t, 2, snapshot))
    ids = [1000 + 7 * k for k in range(len(stored.games))]
    _, payload = stored.finish(ids, Clock()(), None)
    encode = stored.encoder(ids)
    assert encode is not None
    for body in ({"tournament": {"id": tid, "name": t.name}, **payload, "replaces": 3},
                 {"tournament": {"name": "\u0000games4\u0000"}, **payload}):
        assert encode(body) == json.dumps(body, default=str)


@pytest.mark.slow
@pytest.mark.parametrize("write_between", [False, True])
async def test_the_snapshot_read_first_is_used_only_if_nothing_changed_since(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write_between: bool
) -> None:
    """A big event's snapshot is read before step 1, on a reading connection: step 1 pairs
    from it only when the revision is still the one read with it; after a write in between
    it reads the snapshot again itself (else the store, comparing with step 1's revision,
    would accept a pairing of the stale snapshot)."""
    from service import pairing_runs

    reads: list[int] = []
    load = pairing_runs.load_snapshot

    async def counted(conn: Any, t: Any) -> Any:
        reads.append(t.id)
        return await load(conn, t)

    async with pooled(tmp_path / "t.sqlite3") as service:
        await _running(service)
        early = pairing_runs.PairingRuns._early_snapshot

        async def then_write(self: Any, actor: Any, ref: Any) -> Any:
            found = await early(self, actor, ref)
            assert found is not None  # a big event (every event is, here)
            if write_between:
                await service.set_rating(ORG, "#4", 2100)
            return found

        monkeypatch.setattr(pairing_runs.PairingRuns, "_early_snapshot", then_write)
        monkeypatch.setattr(pairing_runs, "load_snapshot", counted)
        view = await service.pair_next_round(ORG, round_number=2)
        assert view.number == 2
        assert len(reads) == (1 if write_between else 0)
