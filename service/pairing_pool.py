"""Pairing outside the event loop: a few worker processes, a time limit, a concurrency cap.

One pairing of a big event is seconds of pure CPU (issue 13: 1,000 players took 14.5 s on
the event loop and froze every guild). The service computes it here, between its two short
transactions (see ``service.rounds``), so the event loop keeps answering everyone:

* below ``PairingLimits.inline_below`` players the pairing runs in the event loop itself: it
  takes a few milliseconds, less than handing a snapshot to another process (docs/performance.md
  "The bot while it pairs" has the figures behind the threshold);
* above, it runs in a worker process (``forkserver`` context: a clean interpreter, no copy of
  the bot's sockets or threads). Each slot is a one-process ``ProcessPoolExecutor``, kept warm
  between pairings, so that a worker that overruns the time limit can be killed alone and its
  slot replaced;
* at most ``max_concurrent`` worker pairings at once per process; one more is refused at once
  (:class:`PairingBusy`) rather than queued: a queued 10,000-player pairing would hold the
  organiser's command for minutes without a word, a refusal says "try again in a minute".

The workers die with the bot, however it ends (``service.workers``), and run at a lower CPU
priority than the bot (``service.workers.WORKER_NICE``): a pairing is seconds of CPU, the
event loop's turns are milliseconds that every guild waits for. On a machine with as many
busy processes as cores (2 cores: the worker, the bot, the database, anything else)
the scheduler then gives the woken event loop (and aiosqlite's threads) the core at once
instead of a share of it; when the machine is otherwise idle the worker still gets a whole
core (docs/performance.md, "What held B's slow reports").
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

from service.pairing_timing import observed_run
from service.workers import kill_executor, worker_context, worker_initializer
from swiss.model import Tournament
from swiss.pairing import PairingConfig
from swiss.pairing.types import PairingResult
from swiss.trf.format import MAX_ID as TRF_MAX_ID

#: Below this many players a round is paired in the event loop (measured: 100 players pair
#: in ~50 ms mid-tournament, while a worker round trip costs ~20 ms plus the pickling).
DEFAULT_INLINE_BELOW = 100
#: The largest event there can be: a TRF file (FIDE's TRF-16 and TRF-2026 alike) numbers the
#: players with four-digit start numbers, and every event must stay exportable.
MAX_EVENT_PLAYERS = TRF_MAX_ID
DEFAULT_MAX_PLAYERS = MAX_EVENT_PLAYERS
DEFAULT_MAX_CONCURRENT = 2
#: Seconds a worker may take before it is killed: the issue's goal is 60 s for 10,000 players;
#: twice that leaves room for a loaded machine.
DEFAULT_TIME_LIMIT = 180.0
@dataclass(frozen=True, slots=True)
class PairingLimits:
    """The limits that protect every guild of one bot process (bot.settings reads them)."""

    max_players: int = DEFAULT_MAX_PLAYERS
    max_concurrent: int = DEFAULT_MAX_CONCURRENT
    time_limit: float = DEFAULT_TIME_LIMIT
    inline_below: int = DEFAULT_INLINE_BELOW


class PairingBusy(Exception):
    """Every worker slot is pairing another event."""

    def __init__(self, active: int) -> None:
        super().__init__(f"{active} pairing{'' if active == 1 else 's'} running")
        self.active = active


class PairingWorkerFailed(Exception):
    """The worker died or overran the time limit; ``reason`` is for the organiser.
    ``interrupted``: the bot stopped it because it is shutting down (:meth:`PairingPool.
    interrupt`), not because of the event: the same command after the restart will do."""

    def __init__(self, reason: str, *, interrupted: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.interrupted = interrupted


#: The reason a pairing stopped by :meth:`PairingPool.interrupt` gives.
INTERRUPTED = "the bot is restarting"

#: What a worker runs: the model and config in, the pairing and the /why facts out (both
#: picklable). The service passes ``service.explain.pair_and_explain``.
PairingJob = Callable[[Tournament, PairingConfig], tuple[PairingResult, dict[str, Any]]]
T = TypeVar("T")
#: What runs after the job, in the same place: (model, pairing, its facts, extra) -> what the
#: store needs.
Finisher = Callable[[Tournament, PairingResult, dict[str, Any], Any], T]


def _job_then(job: PairingJob, then: Finisher[T], model: Tournament, config: PairingConfig,
              extra: Any) -> T:
    """The worker's entry point for :meth:`PairingPool.run_then` (importable by name)."""
    result, facts = job(model, config)
    return then(model, result, facts, extra)


class _Slot:
    """One warm worker process (a one-worker executor, replaced when it must be killed)."""

    def __init__(self, context: Any) -> None:
        self._context = context
        self.executor: ProcessPoolExecutor | None = None
        self.busy = False
        self.interrupted = False  # killed by PairingPool.interrupt, not by a failure

    def get(self) -> ProcessPoolExecutor:
        if self.executor is None:
            # the worker dies with the bot and runs at a lower priority (service.workers)
            self.executor = ProcessPoolExecutor(max_workers=1, mp_context=self._context,
                                                initializer=worker_initializer)
        return self.executor

    def pids(self) -> list[int]:
        executor = self.executor
        processes = getattr(executor, "_processes", None) or {}
        return [p.pid for p in processes.values() if p.pid is not None]

    def kill(self) -> None:
        """Stop the worker now (the executor offers no way to cancel a running call)."""
        executor, self.executor = self.executor, None
        kill_executor(executor)


class PairingPool:
    """Runs pairings inline or in worker processes within :class:`PairingLimits`.

    ``job``, when given, replaces the job the service asks for (tests pass a slow one; it
    must be importable by name from a worker). Workers start on first use, or with
    :meth:`warm_up`.
    """

    def __init__(self, limits: PairingLimits | None = None, *, job: PairingJob | None = None,
                 start_method: str | None = None) -> None:
        self.limits = limits or PairingLimits()
        self.job: PairingJob | None = job
        context = worker_context(start_method)
        self._slots = [_Slot(context) for _ in range(max(1, self.limits.max_concurrent))]
        self._stopping = False  # interrupt() was called: no worker pairing starts any more

    @property
    def active(self) -> int:
        """Pairings running in workers now."""
        return sum(1 for s in self._slots if s.busy)

    def worker_pids(self) -> list[int]:
        """The worker processes alive now (tests kill one to see a pairing survive it)."""
        return [pid for s in self._slots for pid in s.pids()]

    def offloads(self, players: int) -> bool:
        """Whether a round of ``players`` players is paired in a worker process."""
        return players >= self.limits.inline_below

    def reserve(self) -> _Slot:
        """Take a free worker slot now (no await: callers reserve inside their transaction,
        before they mark the round as being paired). Raises :class:`PairingBusy`."""
        for slot in self._slots:
            if not slot.busy:
                slot.busy = True
                slot.interrupted = False
                return slot
        raise PairingBusy(self.active)

    @staticmethod
    def release(slot: _Slot | None) -> None:
        if slot is not None:
            slot.busy = False

    @observed_run
    async def run(self, slot: _Slot | None, job: PairingJob, model: Tournament,
                  config: PairingConfig) -> tuple[PairingResult, dict[str, Any]]:
        """Run ``job(model, config)``: in the worker of ``slot`` (reserved), or inline when
        it is None. Raises :class:`PairingWorkerFailed` when the worker dies or overruns the
        limit; the engine's own errors (``PairingError``) pass through."""
        job = self.job or job
        if slot is None:
            return job(model, config)
        return await self._in_worker(slot, job, model, config)  # type: ignore[no-any-return]

    @observed_run
    async def run_then(
        self, slot: _Slot | None, job: PairingJob, model: Tournament, config: PairingConfig,
        then: Finisher[T], extra: Any,
    ) -> T:
        """:meth:`run`, then ``then(model, result, facts, extra)`` in the same place (the
        worker builds what the store needs from the pairing: ``service.stored_round``), so
        that work leaves the event loop with the pairing. Returns only what ``then``
        returned (not the pairing and facts themselves: ``then`` keeps what is needed of
        them, and sending them back would cost the event loop their unpickling)."""
        job = self.job or job
        if slot is None:
            return _job_then(job, then, model, config, extra)
        return await self._in_worker(  # type: ignore[no-any-return]
            slot, _job_then, job, then, model, config, extra)

    async def _in_worker(self, slot: _Slot, fn: Callable[..., Any], *args: Any) -> Any:
        if self._stopping:
            raise PairingWorkerFailed(INTERRUPTED, interrupted=True)
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(slot.get(), fn, *args)
        except BrokenProcessPool:  # the previous worker died between two pairings
            slot.kill()
            future = loop.run_in_executor(slot.get(), fn, *args)
        limit = self.limits.time_limit
        try:
            return await asyncio.wait_for(future, timeout=limit)
        except TimeoutError:
            slot.kill()
            raise PairingWorkerFailed(
                f"the pairing took longer than the limit of {limit:g} seconds and was stopped"
            ) from None
        except BrokenProcessPool:
            slot.kill()
            if slot.interrupted:
                raise PairingWorkerFailed(INTERRUPTED, interrupted=True) from None
            raise PairingWorkerFailed("the pairing worker process stopped unexpectedly") from None
        except asyncio.CancelledError:
            slot.kill()  # nobody waits for it any more: do not let it run on
            task = asyncio.current_task()
            if slot.interrupted and task is not None and not task.cancelling():
                # interrupt() cancelled the job before the worker took it, not our caller
                raise PairingWorkerFailed(INTERRUPTED, interrupted=True) from None
            raise

    async def off_loop(self, players: int, fn: Callable[..., T], *args: Any,
                       **kwargs: Any) -> T:
        """``fn(*args, **kwargs)``, in a thread when the event has ``players`` players or
        more (the same threshold as the pairing's), else here: the standings of a big event
        (tiebreaks over thousands of players: a second of pure Python at 3,000), its TRF or
        JSON export. A thread, not a worker process: the inputs (the whole event) would
        cost the event loop their pickling, and the results theirs unpickling, as much as
        the work itself; a thread shares them, and the interpreter hands the event loop
        its turn every few milliseconds (``sys.getswitchinterval``), so every guild is
        still answered. Call it outside any transaction: a transaction held while it
        computes would hold the database for everyone."""
        if players < self.limits.inline_below:
            return fn(*args, **kwargs)
        return await asyncio.to_thread(fn, *args, **kwargs)

    async def warm_up(self) -> None:
        """Start every worker now (the bot calls this at start-up, so that the first big
        pairing does not also pay for starting a process and importing the engine)."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(s.get(), os.getpid)
                               for s in self._slots if not s.busy))

    def interrupt(self) -> int:
        """The bot is stopping: kill the workers that are pairing now, so that their commands
        end at once with :class:`PairingWorkerFailed` (``interrupted``) and answer their
        organiser before the bot goes, instead of being cut off mid-wait; no worker pairing
        starts after this until :meth:`close`. Returns how many pairings were interrupted."""
        self._stopping = True
        busy = [slot for slot in self._slots if slot.busy and slot.executor is not None]
        for slot in busy:
            slot.interrupted = True
            slot.kill()
        return len(busy)

    def close(self) -> None:
        """Stop every worker (the bot's shutdown). The pool is as new afterwards: a later
        pairing starts a worker again."""
        for slot in self._slots:
            slot.kill()
        self._stopping = False
