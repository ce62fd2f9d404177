"""Issue 13 part 2-3: a round paired between two short transactions, in a worker process.

The worker tests use a real process pool (forkserver) with slow pairing jobs
(tests/pairing_jobs.py), so that the test can act while a round is being paired.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path

import pytest

from service import TournamentService
from service.base import find_tournament
from service.errors import (
    PairingBusyError,
    PairingFailedError,
    PairingInProgressError,
    RoundChangedError,
    TooManyPlayersError,
)
from service.pairing_pool import PairingLimits, PairingPool
from storage import journal
from storage import pairing_runs as run_repo
from tests.pairing_jobs import endless_pairing, slow_pairing
from tests.service_helpers import GUILD, OTHER_GUILD, Clock, member, open_database, organiser

ORG = organiser()


@asynccontextmanager
async def pooled(path: Path, job: object = slow_pairing, **limits: object
                 ) -> AsyncIterator[TournamentService]:
    """A service whose every pairing (inline_below=0) runs ``job`` in a worker process, on
    the backend in force (SQLite unless the test module asks for both)."""
    db = await open_database(path)
    pool = PairingPool(PairingLimits(**{"inline_below": 0, **limits}),  # type: ignore[arg-type]
                       job=job)  # type: ignore[arg-type]
    try:
        yield TournamentService(db, clock=Clock(), pairing=pool)
    finally:
        pool.close()
        await db.close()


async def _running(service: TournamentService, guild: int = GUILD, players: int = 8) -> int:
    """A tournament with round 1 paired (inline: the pool is swapped in afterwards)."""
    org = organiser(guild)
    info = await service.create_tournament(org, f"Cup {guild}", 5, seed=3)
    for uid in range(1, players + 1):
        await service.join(member(guild + uid, guild), rating=1500 + uid)
    pool, service.pairing = service.pairing, PairingPool()
    try:
        await service.start_tournament(org)
    finally:
        service.pairing = pool
    return info.id


async def _finish_round(service: TournamentService, guild: int = GUILD) -> None:
    for game in (await service.pairings(guild)).games:
        await service.set_result(organiser(guild), game.round, game.white.user_id, "draw")


async def _marker(service: TournamentService, tid: int) -> run_repo.PairingRunRow | None:
    async with service.db.transaction(readonly=True) as conn:
        return await run_repo.get_run(conn, tid)


async def _wait_for_marker(service: TournamentService, tid: int) -> run_repo.PairingRunRow:
    for _ in range(400):
        run = await _marker(service, tid)
        if run is not None:
            return run
        await asyncio.sleep(0.025)
    raise AssertionError("the round was never marked as being paired")


async def _round_numbers(service: TournamentService, tid: int) -> list[int]:
    async with service.db.transaction(readonly=True) as conn:
        cur = await conn.execute("SELECT number FROM rounds WHERE tournament_id = ? "
                                 "ORDER BY number", (tid,))
        return [row[0] for row in await cur.fetchall()]


async def _actions(service: TournamentService, tid: int) -> list[str]:
    async with service.db.transaction(readonly=True) as conn:
        return [a.action for a in await journal.list_audit(conn, tid)]


@pytest.mark.slow
async def test_while_a_round_is_paired_commands_are_refused_then_it_is_stored(
    tmp_path: Path,
) -> None:
    async with pooled(tmp_path / "t.sqlite3") as service:
        tid = await _running(service)
        await _finish_round(service)
        task = asyncio.create_task(service.pair_next_round(ORG, round_number=2))
        run = await _wait_for_marker(service, tid)
        assert (run.round_number, run.players) == (2, 8)
        with pytest.raises(PairingInProgressError,
                           match=r"^Round 2 of 'Cup 1000' is being paired \(8 players"):
            await service.pair_next_round(ORG, round_number=2)
        with pytest.raises(PairingInProgressError, match="your report was not recorded"):
            await service.report_result(member(GUILD + 1), "win")
        with pytest.raises(PairingInProgressError, match="the result was not set"):
            await service.set_result(ORG, 1, GUILD + 1, "loss")
        with pytest.raises(PairingInProgressError, match="no round was undone"):
            await service.undo_round(ORG)
        assert await service.pairing_state(GUILD) == "Round 2 is being paired (8 players)"
        view = await task
        assert view.number == 2 and len(view.games) == 4
        assert await _marker(service, tid) is None
        assert await service.pairing_state(GUILD) is None
        # the progress line, then the pairings that replace it
        posts = [a for a in await service.announcements(tid)
                 if a.kind in ("pairing_progress", "pairings")]
        progress, pairings = posts[-2:]
        assert progress.kind == "pairing_progress" and progress.payload["players"] == 8
        assert pairings.kind == "pairings" and pairings.payload["replaces"] == progress.id


@pytest.mark.slow
async def test_a_change_during_the_pairing_refuses_the_stale_result(tmp_path: Path) -> None:
    async with pooled(tmp_path / "t.sqlite3") as service:
        tid = await _running(service)
        await _finish_round(service)
        task = asyncio.create_task(service.pair_next_round(ORG))
        await _wait_for_marker(service, tid)
        await service.join(member(GUILD + 50), rating=1400)  # a late join: a new player
        with pytest.raises(RoundChangedError, match="changed while round 2 was being paired"):
            await task
        assert await _round_numbers(service, tid) == [1]
        assert await _marker(service, tid) is None
        assert "round.pairing_failed" in await _actions(service, tid)
        # and the next try pairs the new player too
        view = await service.pair_next_round(ORG)
        assert len(view.games) * 2 + len(view.byes) == 9


async def test_a_killed_worker_leaves_the_tournament_unchanged(tmp_path: Path) -> None:
    async with pooled(tmp_path / "t.sqlite3", job=endless_pairing) as service:
        tid = await _running(service)  # round 1 stays open: force closes it
        before = await service.pairings(GUILD)
        task = asyncio.create_task(service.pair_next_round(ORG, force=True))
        await _wait_for_marker(service, tid)
        for _ in range(400):  # the worker process starts on first use
            if service.pairing.worker_pids():
                break
            await asyncio.sleep(0.025)
        [pid] = service.pairing.worker_pids()
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(PairingFailedError, match="worker process stopped unexpectedly"):
            await task
        assert await _round_numbers(service, tid) == [1]
        assert await service.pairings(GUILD) == before  # the forced close did not happen
        assert await _marker(service, tid) is None
        assert (await _actions(service, tid))[-1] == "round.pairing_failed"
        failed = (await service.announcements(tid))[-1]
        assert failed.kind == "pairing_failed" and "stopped unexpectedly" in failed.payload["error"]
        assert failed.payload["replaces"] == (await service.announcements(tid))[-2].id


async def test_a_pairing_past_the_time_limit_is_stopped(tmp_path: Path) -> None:
    async with pooled(tmp_path / "t.sqlite3", job=endless_pairing, time_limit=1.0) as service:
        tid = await _running(service)
        await _finish_round(service)
        with pytest.raises(PairingFailedError,
                           match="took longer than the limit of 1 seconds and was stopped"):
            await service.pair_next_round(ORG)
        assert await _round_numbers(service, tid) == [1]
        assert await _marker(service, tid) is None
        assert service.pairing.worker_pids() == []  # killed, not left running


@pytest.mark.slow
async def test_more_concurrent_pairings_than_the_limit_are_refused(tmp_path: Path) -> None:
    async with pooled(tmp_path / "t.sqlite3", max_concurrent=1) as service:
        first = await _running(service, GUILD)
        second = await _running(service, OTHER_GUILD)
        await _finish_round(service, GUILD)
        await _finish_round(service, OTHER_GUILD)
        task = asyncio.create_task(service.pair_next_round(ORG))
        await _wait_for_marker(service, first)
        with pytest.raises(PairingBusyError, match=r"The bot is pairing 1 other big event "
                           "right now and pairs at most 1 at once: round 2 of 'Cup 2000' was "
                           "not paired. Try again in a minute."):
            await service.pair_next_round(organiser(OTHER_GUILD))
        assert await _marker(service, second) is None  # refused before marking anything
        await task
        assert (await service.pair_next_round(organiser(OTHER_GUILD))).number == 2


async def test_registration_beyond_the_largest_event_is_refused(tmp_path: Path) -> None:
    async with pooled(tmp_path / "t.sqlite3", max_players=3) as service:
        await service.create_tournament(ORG, "Small", 3)
        for uid in (1, 2, 3):
            await service.join(member(uid))
        with pytest.raises(TooManyPlayersError,
                           match=r"^'Small' has 3 players and this bot accepts at most 3 in "
                           r"one event, so Player4 was not registered\.$"):
            await service.join(member(4))
        with pytest.raises(TooManyPlayersError, match="at most 3"):
            await service.add_player(ORG, "Guest")
        await service.leave(member(3))
        with pytest.raises(TooManyPlayersError, match="so the 2 players were not imported"):
            await service.import_players(ORG, "name,rating\nAnn,1500\nBob,1600\n")
        await service.import_players(ORG, "name,rating\nAnn,1500\n")  # exactly the limit


@pytest.mark.slow
async def test_a_stale_marker_from_a_dead_run_is_cleared_at_start_up(tmp_path: Path) -> None:
    async with pooled(tmp_path / "t.sqlite3") as service:
        tid = await _running(service)
        await _finish_round(service)
        now = service.now()
        async with service.db.transaction() as conn:  # what a killed bot leaves behind
            progress = await service.announcer.announce(
                conn, (await find_tournament(conn, GUILD, None)), "pairing_progress",
                {"round": 2, "players": 8})
            await run_repo.claim_run(conn, tournament_id=tid, round_number=2, players=8,
                                     token="dead", owner="elsewhere:1", now=now,
                                     expires_at=now + timedelta(minutes=5))
            await run_repo.set_progress(conn, tid, "dead", progress)
        with pytest.raises(PairingInProgressError):
            await service.pair_next_round(ORG)
        assert await service.recover_pairings() == []  # another host's, not expired yet
        service._clock.advance(minutes=6)  # type: ignore[attr-defined]
        assert await service.recover_pairings() == [tid]
        assert await _marker(service, tid) is None
        failed = (await service.announcements(tid))[-1]
        assert failed.kind == "pairing_failed" and failed.payload["replaces"] == progress
        assert "was interrupted by a restart of the bot" in failed.payload["error"]
        assert (await service.pair_next_round(ORG)).number == 2


async def test_a_marker_of_a_dead_process_on_this_host_is_cleared_at_once(
    tmp_path: Path,
) -> None:
    import socket

    async with pooled(tmp_path / "t.sqlite3") as service:
        tid = await _running(service)
        now = service.now()
        dead = os.getpid()  # at start-up, this process is pairing nothing yet
        async with service.db.transaction() as conn:
            await run_repo.claim_run(conn, tournament_id=tid, round_number=2, players=8,
                                     token="dead", owner=f"{socket.gethostname()}:{dead}",
                                     now=now, expires_at=now + timedelta(minutes=5))
        assert await service.recover_pairings() == [tid]
        assert await _marker(service, tid) is None


@pytest.mark.slow
async def test_an_expired_marker_does_not_block_the_next_pairing(tmp_path: Path) -> None:
    async with pooled(tmp_path / "t.sqlite3") as service:
        tid = await _running(service)
        await _finish_round(service)
        now = service.now()
        async with service.db.transaction() as conn:
            await run_repo.claim_run(conn, tournament_id=tid, round_number=2, players=8,
                                     token="dead", owner="elsewhere:1", now=now,
                                     expires_at=now + timedelta(seconds=1))
        service._clock.advance(seconds=2)  # type: ignore[attr-defined]
        assert (await service.pair_next_round(ORG)).number == 2
        assert await _marker(service, tid) is None


async def test_workers_are_started_early_only_for_a_big_open_event(tmp_path: Path) -> None:
    async with pooled(tmp_path / "t.sqlite3", inline_below=5) as service:
        assert not await service.needs_pairing_workers()
        await service.create_tournament(ORG, "Small", 3)
        await service.import_players(ORG, "name,rating\nA,1\nB,2\nC,3\nD,4\n")
        assert not await service.needs_pairing_workers()
        await service.add_player(ORG, "E")
        assert await service.needs_pairing_workers()


async def test_pairing_workers_run_at_a_lower_cpu_priority_than_the_bot() -> None:
    """A pairing is seconds of CPU; the event loop's turns are what every guild waits for:
    on a busy machine the scheduler must prefer the bot (docs/performance.md)."""
    from service.workers import WORKER_NICE

    pool = PairingPool(PairingLimits(max_concurrent=2))
    try:
        await pool.warm_up()
        pids = pool.worker_pids()
        assert len(pids) == 2
        ours = os.getpriority(os.PRIO_PROCESS, 0)
        for pid in pids:
            assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, ours + WORKER_NICE)
    finally:
        pool.close()
