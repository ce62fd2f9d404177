"""``advise``: simulate the event with every pairing system and recommend one (organisers).

The simulation (:mod:`swiss.sim.advisor`) is CPU-bound for seconds, so it runs in a worker
*process* (:func:`run_in_worker`, the one place that knows how), never on the event loop: the
bot keeps answering while it runs. The time is bounded (``advice_seconds``, default
:data:`service.limits.ADVICE_SECONDS`), and a guild runs one advice at a time; a second request
meanwhile is refused politely.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import multiprocessing
import statistics
import threading
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from i18n import lazy
from service.base import Context, TournamentRef, find_tournament, part
from service.errors import ConflictError, InvalidInputError
from service.limits import ADVICE_SECONDS, ADVICE_STARTUP_SECONDS, MAX_ADVICE_PLAYERS
from service.model import settings_of
from service.operation import operation
from service.permissions import require_organiser
from service.views import Actor
from service.workers import die_with_bot, kill_executor
from storage import players as player_repo
from swiss.model import Scoring

if TYPE_CHECKING:
    from swiss.sim.advisor import Advice, AdviceRequest

SIM_EXTRA = "pip install 'swissbot[sim]'"
# Ratings describe the field when at least this share of the players has one.
RATED_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class AdviceView:
    """The advice for one tournament (the simulator's :class:`~swiss.sim.advisor.Advice`)."""

    tournament_id: int
    tournament_name: str
    advice: Advice


@part
class Advisor:
    """The advisor as a service operation."""

    ctx: Context
    #: The advisor's time budget. Tests lower it, or fix the events per system instead
    #: (``advice_tournaments``: deterministic, the budget is then not used).
    advice_seconds: float = ADVICE_SECONDS
    advice_tournaments: int | None = None
    #: The guilds whose advice is being computed now: one at a time per guild.
    advising: set[int] = field(default_factory=set, init=False)

    @operation
    async def advise(self, actor: Actor, tournament: TournamentRef = None) -> AdviceView:
        """Simulate the tournament's own event (its players, rounds, scoring and system) with
        every pairing system and return the advice: the table and the recommendation.

        Organisers only; one read transaction, then the simulation in a worker process (about
        ``advice_seconds``), one at a time per guild (:class:`ConflictError` otherwise).
        """
        require_organiser(actor, lazy("ask the pairing advisor"))
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            players = [p for p in await player_repo.list_players(conn, t.id)
                       if p.status in ("registered", "active")]
        settings = settings_of(t)
        n, rounds = len(players), settings.rounds
        if n < 2 or rounds >= n:
            raise InvalidInputError(
                f"'{t.name}' has {n} player{'s' if n != 1 else ''} for {rounds} rounds: the "
                "advisor needs more players than rounds. Ask again when more have joined."
            )
        if n > MAX_ADVICE_PLAYERS:
            raise InvalidInputError(
                f"'{t.name}' has {n} players: the advisor simulates events of up to "
                f"{MAX_ADVICE_PLAYERS} players in its {self.advice_seconds:g} seconds. Use "
                "`swissbot advise` on a computer for bigger fields."
            )
        request = advice_request(
            players=n, rounds=rounds, scoring=settings.scoring, system=settings.system,
            ratings=[p.rating for p in players if p.rating], seed=t.seed or 1,
            policy=settings.rematches,
            seconds=self.advice_seconds, tournaments=self.advice_tournaments,
        )
        busy = self.advising
        if actor.guild_id in busy:
            raise ConflictError(
                "The advisor is already simulating an event of this server; its answer "
                "comes in a few seconds. Ask again after it."
            )
        busy.add(actor.guild_id)
        try:
            advice = await run_in_worker(
                _advise_in_worker, request,
                timeout=self.advice_seconds + ADVICE_STARTUP_SECONDS,
            )
        except ImportError:
            raise ConflictError(
                "The advisor needs the simulator, which is not installed on the bot's host: "
                f"its operator can add it with {SIM_EXTRA}."
            ) from None
        except TimeoutError:
            raise ConflictError(
                "The advisor did not finish in time (the bot is busy). Try again later."
            ) from None
        finally:
            busy.discard(actor.guild_id)
        return AdviceView(t.id, t.name, advice)


def advice_request(
    *, players: int, rounds: int, scoring: str, system: str, ratings: list[int], seed: int,
    seconds: float, tournaments: int | None = None, policy: str = "avoid",
) -> AdviceRequest:
    """The advisor's request for an event: its size, scoring and system, and its field.

    When at least half of the players are rated, the true strengths are drawn from a normal
    distribution with the ratings' mean and spread (truncated to ±2 SD); otherwise the
    simulator's default field (uniform 1400-2200).
    """
    from swiss.sim.advisor import AdviceRequest
    from swiss.sim.strengths import UNIFORM_DEFAULT, StrengthDistribution

    strengths = UNIFORM_DEFAULT
    if len(ratings) >= max(2, RATED_SHARE * players):
        mean, sd = statistics.fmean(ratings), statistics.pstdev(ratings)
        if sd >= 1:
            low = max(0.0, mean - 2 * sd)
            strengths = StrengthDistribution("normal", low, mean + 2 * sd, mean, sd)
    match = Scoring.preset(scoring) == Scoring.match_points()
    return AdviceRequest(
        players=players, rounds=rounds, scoring="match" if match else "chess",
        strengths=strengths, seed=seed, seconds=seconds, tournaments=tournaments,
        beta=Fraction(2), current=system, policy=policy,
    )


def _advise_in_worker(request: AdviceRequest) -> Advice:
    """The worker process's job (top level, so that it can be pickled)."""
    from swiss.sim.advisor import advise

    return advise(request)


# -- the worker process ------------------------------------------------------------------------
# One small function runs CPU-bound work in a worker process: another pool (the pairing one,
# service.pairing_pool) could take the work here without touching the operation.
_POOL: concurrent.futures.ProcessPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


async def run_in_worker(fn: Any, *args: Any, timeout: float) -> Any:
    """``fn(*args)`` in a worker process, awaited without blocking the event loop.

    One long-lived process (started with ``spawn``: forking a process that runs an event loop
    and database threads is unsafe), created on first use and again if it died. Raises
    :class:`TimeoutError` after ``timeout`` seconds (the work itself is time-bounded, so the
    process comes free soon after).
    """
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = concurrent.futures.ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=die_with_bot)  # never outlives a killed bot
            # Let go of it before the interpreter tears its modules down: an executor
            # collected after that prints an ignored AttributeError at exit.
            atexit.register(stop_workers)
        pool = _POOL
    loop = asyncio.get_running_loop()
    try:
        return await asyncio.wait_for(loop.run_in_executor(pool, fn, *args), timeout)
    except concurrent.futures.process.BrokenProcessPool:
        with _POOL_LOCK:
            if _POOL is pool:
                _POOL = None
        raise ConflictError("The advisor's worker process stopped; ask again.") from None


def stop_workers() -> None:
    """Stop the worker process (the bot closes, the interpreter exits). A simulation still
    running is killed with it: the interpreter's exit would otherwise wait for it (up to
    ``ADVICE_SECONDS``), and its answer has nobody to go to."""
    global _POOL
    with _POOL_LOCK:
        pool, _POOL = _POOL, None
    kill_executor(pool)
