"""Issue 13: a big event's standings announcements are computed after the commit, off the
event loop, and stored by a second short transaction (``service.deferred``, migration 0014).

* The announcements are exactly the ones the inline path writes (round standings, final
  standings, a corrected result's standings, ``/tournament finish``).
* A process that stops between the two steps leaves the row deferred: it is not posted, the
  later rows of its channel wait behind it, and the recovery completes it, once.
* A row whose round was undone meanwhile is dropped, not posted.
* The table is computed in a thread: the event loop keeps running meanwhile.

Every test runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from service import TournamentService
from service import deferred as deferred_module
from service.pairing_pool import PairingLimits, PairingPool
from service.present import standings_payload
from storage import journal
from tests.service_helpers import GUILD, Clock, member, open_database, organiser

pytestmark = pytest.mark.usefixtures("backend")

ORG = organiser()
INLINE = PairingLimits(inline_below=1_000_000)  # standings in the transaction, as before
DEFERRED = PairingLimits(inline_below=0)  # every event counts as big


@asynccontextmanager
async def serving(path: Path) -> AsyncIterator[TournamentService]:
    """Pairings inline (small events: quick, no worker process); the limits of the standings
    are switched by the test with :func:`big`."""
    db = await open_database(path)
    try:
        yield TournamentService(db, clock=Clock(), pairing=PairingPool(INLINE))
    finally:
        await db.close()


async def big(service: TournamentService, call: Any) -> Any:
    """``call`` with every event counted as big (its standings deferred)."""
    service.pairing.limits = DEFERRED
    try:
        return await call
    finally:
        service.pairing.limits = INLINE


async def _decide(service: TournamentService, number: int, view: Any, *,
                  deferred: bool) -> None:
    for index, game in enumerate(view.games):
        call = service.set_result(ORG, number, f"#{game.white.number}",
                                  ("win", "draw", "loss")[index % 3])
        await (big(service, call) if deferred else call)


async def _event(service: TournamentService, *, deferred: bool) -> int:
    """A 2-round event played to its end (round standings, final standings), then a result
    of round 1 corrected (its standings), each computed as ``deferred`` says."""
    info = await service.create_tournament(ORG, "Cup", 2, seed=5)
    for uid in range(1, 8):
        await service.join(member(GUILD + uid), rating=1500 + 53 * uid % 400)
    view = await service.start_tournament(ORG)
    await _decide(service, 1, view, deferred=deferred)
    view = await service.pair_next_round(ORG, round_number=2)
    await _decide(service, 2, view, deferred=deferred)
    first = (await service.pairings(GUILD, round_number=1)).games[0]
    call = service.set_result(ORG, 1, f"#{first.white.number}", "loss")
    await (big(service, call) if deferred else call)
    return info.id


def _shown(announcements: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(a.kind, a.payload) for a in announcements]


async def _deferred_rows(service: TournamentService) -> list[int]:
    async with service.db.transaction(readonly=True) as conn:
        return await journal.deferred_ids(conn)


@pytest.mark.slow
async def test_deferred_standings_are_the_inline_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    filled: list[int] = []
    fill = journal.fill_deferred

    async def counting(conn: Any, outbox_id: int, payload: dict[str, Any]) -> bool:
        filled.append(outbox_id)
        return await fill(conn, outbox_id, payload)

    monkeypatch.setattr(journal, "fill_deferred", counting)
    async with serving(tmp_path / "inline.sqlite3") as service:
        tid = await _event(service, deferred=False)
        inline = _shown(await service.announcements(tid))
    assert filled == []
    async with serving(tmp_path / "deferred.sqlite3") as service:
        tid = await _event(service, deferred=True)
        later = _shown(await service.announcements(tid))
        assert await _deferred_rows(service) == []
    kinds = [kind for kind, _ in later]
    assert {"standings", "final_standings", "result_corrected"} <= set(kinds)
    assert len(filled) == 3  # the three went through the second transaction
    assert later == inline
    corrected = next(p for k, p in later if k == "result_corrected")
    assert corrected["standings"]["rows"]  # the table is in place


async def test_finish_returns_and_announces_the_inline_table(tmp_path: Path) -> None:
    tables = []
    for deferred in (False, True):
        async with serving(tmp_path / f"finish-{deferred}.sqlite3") as service:
            info = await service.create_tournament(ORG, "Cup", 3, seed=2)
            for uid in range(1, 7):
                await service.join(member(GUILD + uid), rating=1400 + 31 * uid % 300)
            view = await service.start_tournament(ORG)
            await _decide(service, 1, view, deferred=False)
            call = service.finish_tournament(ORG, round_number=1)
            table = await (big(service, call) if deferred else call)
            final = [a.payload for a in await service.announcements(info.id)
                     if a.kind == "final_standings"]
            assert len(final) == 1
            payload = {k: v for k, v in final[0].items()
                       if k not in ("tournament", "pictures", "language")}
            assert payload == standings_payload(table)
            tables.append((table, _shown(await service.announcements(info.id))))
    assert tables[0] == tables[1]


async def _crash_after_commit(monkeypatch: pytest.MonkeyPatch,
                              service: TournamentService) -> None:
    """The process stops after the operation's commit, before the second step."""
    async def stopped(ids: list[int]) -> None:
        return None

    monkeypatch.setattr(service.ctx, "complete_deferred", stopped)


async def test_a_stop_between_the_steps_is_completed_once_by_the_recovery(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "t.sqlite3"
    async with serving(path) as service:
        info = await service.create_tournament(ORG, "Cup", 3, seed=4, channel_id=777)
        for uid in range(1, 7):
            await service.join(member(GUILD + uid), rating=1450 + 29 * uid % 300)
        view = await service.start_tournament(ORG)
        with monkeypatch.context() as patched:
            await _crash_after_commit(patched, service)
            await _decide(service, 1, view, deferred=True)
        [waiting] = await _deferred_rows(service)
        # not posted, and what comes after it in the channel waits behind it
        await service.pair_next_round(ORG, round_number=2)
        due = await service.claim_announcements("me", limit=500)
        assert all(a.id < waiting for a in due)
        assert waiting not in {a.id for a in await service.pending_announcements(500)}
        for a in due:
            await service.mark_delivered(a.id)
        assert await service.claim_announcements("me", limit=500) == []
    # restarted: two processes recover at once; the row is completed exactly once
    async with serving(path) as first, serving(path) as second:
        done = await asyncio.gather(first.complete_announcements(),
                                    second.complete_announcements())
        assert sorted(done) == [0, 1]
        assert await first.complete_announcements() == 0
        assert await _deferred_rows(first) == []
        stored = next(a for a in await first.announcements(info.id) if a.id == waiting)
        assert stored.kind == "standings"
        expected = standings_payload(await first.standings(GUILD, round_number=1))
        assert {k: v for k, v in stored.payload.items()
                if k not in ("tournament", "pictures", "language")} == expected
        due = await first.claim_announcements("me", limit=500)
        assert [a.id for a in due][:1] == [waiting]  # first, then the pairings behind it
        assert "pairings" in [a.kind for a in due]


async def test_standings_of_an_undone_round_are_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with serving(tmp_path / "t.sqlite3") as service:
        info = await service.create_tournament(ORG, "Cup", 3, seed=4, channel_id=777)
        for uid in range(1, 7):
            await service.join(member(GUILD + uid), rating=1450 + 29 * uid % 300)
        view = await service.start_tournament(ORG)
        with monkeypatch.context() as patched:
            await _crash_after_commit(patched, service)
            await _decide(service, 1, view, deferred=True)
        [waiting] = await _deferred_rows(service)
        await service.undo_round(ORG, round_number=1, force=True)
        assert await service.complete_announcements() == 0
        assert await _deferred_rows(service) == []
        row = next(a for a in await service.announcements(info.id) if a.id == waiting)
        assert "rows" not in row.payload and "no longer complete" in (row.last_error or "")
        due = await service.claim_announcements("me", limit=500)
        assert waiting not in [a.id for a in due]
        assert "round_undone" in [a.kind for a in due]  # the channel moved on


async def test_a_big_table_is_computed_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = deferred_module.standings_view
    computing = threading.Event()
    where: list[bool] = []

    def slow_standings(*args: Any, **kwargs: Any) -> Any:
        where.append(threading.current_thread() is threading.main_thread())
        computing.set()
        try:
            time.sleep(0.5)  # a big event's second of CPU, shortened
            return real(*args, **kwargs)
        finally:
            computing.clear()

    async with serving(tmp_path / "t.sqlite3") as service:
        await service.create_tournament(ORG, "Cup", 3, seed=4)
        for uid in range(1, 7):
            await service.join(member(GUILD + uid), rating=1450 + 29 * uid % 300)
        view = await service.start_tournament(ORG)
        *first, last = view.games
        for index, game in enumerate(first):
            await service.set_result(ORG, 1, f"#{game.white.number}", ("win", "draw")[index % 2])
        monkeypatch.setattr(deferred_module, "standings_view", slow_standings)
        ticks = 0
        done = False

        async def ticker() -> None:
            nonlocal ticks
            while not done:
                if computing.is_set():
                    ticks += 1
                await asyncio.sleep(0.01)

        counting = asyncio.create_task(ticker())
        await big(service, service.set_result(ORG, 1, f"#{last.white.number}", "win"))
        done = True
        await counting
    assert where == [False]  # computed, once, outside the event loop's thread
    assert ticks >= 3  # 0 when computed in the event loop (50 if nothing else ran)
