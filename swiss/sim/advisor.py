"""The advisor: which pairing system suits an event of N players and R rounds?

It simulates the event with every system the engine knows (:data:`swiss.pairing.SYSTEMS`, so a
system added there is advised on without a change here) and measures, per system, each with
its 95 % interval:

* **ranking accuracy**: the mean normalised Kendall tau between the final ranking and the true
  strength order (:data:`~swiss.sim.advice_rules.TAU_MEANING` says it in an organiser's words),
  and its paired difference from the reference system on the same fields;
* **best player wins**: the share of events won by the truly strongest player;
* **clear winner**: the share of events whose winner is alone on the top score (no tiebreak
  decides first place);
* **floats per round**: games between players on different scores, per round;
* **colour balance**: the mean |whites - blacks| of a player after the last round (1 is the
  least possible after an odd number of rounds, 0 after an even one);
* **rematches**: games per event between two players who had met before (only forced ones).

The decisions (which system, whether the rounds find a clear winner, the tiebreak order) and
their rules are in :mod:`swiss.sim.advice_rules`: a difference is called only when it is
significant on the same fields *and* larger than a practical threshold; otherwise the answer
is "no clear difference: use the reference" (the event's system, or the default ``dutch``).

Determinism: tournament ``k`` of a system is fully determined by the request and its seed
(:func:`swiss.sim.runner.play_tournament`), so the advice depends only on how many events
each system played. With ``tournaments`` set, every system plays exactly that many; otherwise
a time budget decides the counts. The systems of the simulator's fast path take turns first,
in batches sized to take about the same CPU time each; the slower systems (played through the
whole engine every round) start only once every fast system has :data:`MIN_TOURNAMENTS`
events, so a slow one cannot starve the others. The clock and the batch runner are
parameters, so a caller can run the batches in worker processes (:func:`play_batch` is a
picklable top-level function).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from swiss.model import Result, Scoring
from swiss.pairing import SYSTEMS, PairingConfig, PairingError
from swiss.sim.advice_rules import (
    CLEAR_WINNER,
    TAU_MEANING,
    TAU_THRESHOLD,
    Comparison,
    Figure,
    RoundsCheck,
    choose,
    figure,
    rounds_advice,
    tiebreak_advice,
    too_few_rounds,
)
from swiss.sim.fastpair import FAST_SYSTEMS
from swiss.sim.measures import kendall_tau
from swiss.sim.outcomes import EloLogistic, Milvang, OutcomeModel
from swiss.sim.runner import SimulationConfig, play_tournament
from swiss.sim.strengths import UNIFORM_DEFAULT, StrengthDistribution

#: A system needs this many simulated events to be compared (and recommended); the intervals
#: of so few are wide (Student's t), so only large differences are called.
MIN_TOURNAMENTS = 5
#: The share of the time budget spent on the comparison; the rest checks R+1 and R+2 rounds.
MAIN_SHARE = 0.75
#: A time-budgeted run stops a system at this many events (tiny events would otherwise run
#: into the hundreds of thousands; the interval of tau is then about ±0.003 already).
MAX_EVENTS = 5000
#: The rounds added when the event's own number finds no clear winner.
EXTRA_ROUNDS = (1, 2)
SCORINGS = ("chess", "match")
#: The reference when the event has no system of its own: the engine's default.
DEFAULT_SYSTEM = PairingConfig().system


@dataclass(frozen=True, slots=True)
class AdviceRequest:
    """What the organiser knows about his event, and how long the advisor may take.

    ``draw_rate``: the share of drawn games between equal players (the Elo model with that
    share, :class:`swiss.sim.outcomes.EloLogistic`); ``None`` means Milvang's model for chess
    (draws rise with the level, about a third of the games) and no draws for match scoring.
    ``tournaments`` fixes the number of simulated events per system (``seconds`` is then
    ignored); ``systems`` defaults to every system of the engine; ``current`` is the event's
    own system, the reference another one must clearly beat (else the engine's default,
    ``dutch``); ``policy`` is its
    rematch rule (``avoid`` or ``forbid``, as :class:`swiss.pairing.PairingConfig`).
    """

    players: int
    rounds: int
    scoring: str = "chess"
    draw_rate: float | None = None
    strengths: StrengthDistribution = UNIFORM_DEFAULT
    seed: int = 1
    seconds: float = 10.0
    tournaments: int | None = None
    systems: tuple[str, ...] | None = None
    beta: Fraction = Fraction(2)
    current: str | None = None
    policy: str = "avoid"

    def __post_init__(self) -> None:
        if self.players < 2:
            raise ValueError("the advisor needs at least 2 players")
        if not 1 <= self.rounds < self.players:
            raise ValueError(
                f"rounds must be between 1 and players - 1 = {self.players - 1} "
                f"(got {self.rounds})"
            )
        if self.scoring not in SCORINGS:
            raise ValueError("scoring must be 'chess' or 'match'")
        if self.policy not in ("avoid", "forbid"):
            raise ValueError("the rematch policy must be 'avoid' or 'forbid'")
        if self.draw_rate is not None and not 0.0 <= self.draw_rate < 1.0:
            raise ValueError("the draw rate must be at least 0 and below 1")
        if not self.seconds > 0:
            raise ValueError("the time budget must be positive")
        if self.tournaments is not None and self.tournaments < 1:
            raise ValueError("the number of tournaments must be at least 1")
        for system in self.systems or ():
            if system not in SYSTEMS:
                raise ValueError(f"unknown pairing system {system!r}")

    @property
    def reference(self) -> str:
        """The system a recommendation must clearly beat: the event's own, else the default."""
        return self.current or DEFAULT_SYSTEM

    @property
    def system_names(self) -> tuple[str, ...]:
        """The systems to compare: the request's, else every system the engine knows."""
        return self.systems if self.systems else tuple(SYSTEMS)

    def model(self) -> OutcomeModel:
        """The outcome model: Milvang for chess without a draw rate, else the Elo curve."""
        if self.draw_rate is None:
            return Milvang() if self.scoring == "chess" else EloLogistic(0.0)
        return EloLogistic(self.draw_rate)

    def config(self, rounds: int | None = None) -> SimulationConfig:
        """The simulator's configuration for this event (with ``rounds`` instead, if given)."""
        return SimulationConfig(
            players=self.players,
            rounds=self.rounds if rounds is None else rounds,
            strengths=self.strengths,
            model=self.model(),
            beta=self.beta,
            policy=self.policy,
            seed=self.seed,
            strength_difference=False,  # not shown; it costs a matching per round
            scoring=self.scoring,
        )


# -- one batch of simulated events (the unit of work, picklable) --------------------------------
@dataclass(frozen=True, slots=True)
class Sample:
    """What the advisor keeps of one simulated event."""

    index: int
    tau: float
    strongest_wins: bool
    sole_winner: bool
    floats: int
    colour: int  # sum over players of |whites - blacks| after the last round
    rematches: int
    tau_by_rating: float = math.nan  # the same event, equal points ranked by rating


@dataclass(frozen=True, slots=True)
class Batch:
    """Events ``start .. stop - 1`` of ``system`` under ``config``."""

    config: SimulationConfig
    system: str
    start: int
    stop: int


@dataclass(frozen=True, slots=True)
class BatchResult:
    """The samples of a batch, the CPU seconds it took, and the pairing error that stopped it."""

    batch: Batch
    samples: tuple[Sample, ...]
    seconds: float
    error: str | None = None


def play_batch(batch: Batch) -> BatchResult:
    """Play and measure a batch of events (a top-level function: worker processes run it).

    The time is the process's CPU time: what an event costs, whatever else the machine runs.
    """
    began = time.process_time()
    samples = []
    try:
        for k in range(batch.start, batch.stop):
            samples.append(sample(batch.config, batch.system, k))
    except PairingError as exc:
        return BatchResult(batch, tuple(samples), time.process_time() - began, str(exc))
    return BatchResult(batch, tuple(samples), time.process_time() - began)


def sample(config: SimulationConfig, system: str, index: int) -> Sample:
    """Play event ``index`` of ``system`` and keep the advisor's measures."""
    played = play_tournament(config, system, index)
    t = played.tournament
    ranking = played.ranking
    points: dict[int, Fraction] = {p.id: Fraction(0) for p in t.players}
    met: set[frozenset[int]] = set()
    rematches = 0
    for rnd in t.rounds:
        for game in rnd.games:
            white, black = _points(t.scoring, game.result)
            points[game.white] += white
            points[game.black] += black
            pair = frozenset((game.white, game.black))
            rematches += pair in met
            met.add(pair)
        for bye in rnd.byes:
            points[bye.player] += t.scoring.for_bye(bye.kind)
    top = points[ranking[0]]
    m = played.measures
    truth = sorted(played.strengths, key=lambda pid: -played.strengths[pid])
    by_rating = sorted(points, key=lambda pid: (-points[pid], t.player(pid).seed))
    return Sample(
        index=index,
        tau=m.kendall_tau,
        strongest_wins=m.winner_is_strongest,
        sole_winner=len(ranking) < 2 or points[ranking[1]] < top,
        floats=m.float_pairs,
        colour=m.acd[-1],
        rematches=rematches,
        tau_by_rating=kendall_tau(by_rating, truth),
    )


def _points(scoring: Scoring, result: Result) -> tuple[Fraction, Fraction]:
    """White's and Black's points for a played game (the simulator plays no forfeits)."""
    if result is Result.WHITE_WINS:
        return scoring.win, scoring.loss
    if result is Result.BLACK_WINS:
        return scoring.loss, scoring.win
    return scoring.draw, scoring.draw


BatchRunner = Callable[[Sequence[Batch]], Iterable[BatchResult]]


def run_here(batches: Sequence[Batch]) -> Iterable[BatchResult]:
    """Run batches one after the other in this process (the default runner; lazily, so that
    the advisor can stop between two batches when its time is up)."""
    return map(play_batch, batches)


# -- the result --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SystemAdvice:
    """One row of the table: a system's measures over its simulated events."""

    system: str
    tournaments: int
    tau: Figure
    strongest_wins: Figure
    sole_winner: Figure
    floats_per_round: Figure
    colour: Figure  # mean |whites - blacks| per player after the last round
    rematches: Figure  # per event
    versus: Figure | None = None  # tau minus the reference's, on the same fields
    note: str = ""  # why the system is not compared ("too slow", "could not pair")

    @property
    def comparable(self) -> bool:
        """Enough events and no pairing failure: the system may be recommended."""
        return not self.note and self.tournaments >= MIN_TOURNAMENTS


@dataclass(frozen=True, slots=True)
class Advice:
    """The table (best ranking first), the recommendation and its sentences."""

    request: AdviceRequest
    systems: tuple[SystemAdvice, ...]
    recommended: str | None
    sentence: str
    rounds_sentence: str | None = None
    rounds_checks: tuple[RoundsCheck, ...] = ()
    reference: str = DEFAULT_SYSTEM
    comparisons: tuple[Comparison, ...] = ()
    tiebreak_sentence: str | None = None
    elapsed: float = field(default=0.0, compare=False)  # seconds; not part of the advice

    def row(self, system: str) -> SystemAdvice:
        return next(s for s in self.systems if s.system == system)


# -- the advisor -------------------------------------------------------------------------------
def advise(
    request: AdviceRequest,
    *,
    runner: BatchRunner = run_here,
    clock: Callable[[], float] = time.monotonic,
    jobs: int = 1,
) -> Advice:
    """Simulate every system for the request's event and recommend one (module docstring)."""
    began = clock()
    names = request.system_names
    config = request.config()
    if request.tournaments is not None:
        played = _fixed(config, names, request.tournaments, runner, jobs)
    else:
        budget = request.seconds * MAIN_SHARE
        played = _budgeted(config, names, budget, runner, clock, jobs, request.reference)
    ok = [name for name in names if _usable(*played[name])]
    reference, label = request.reference, _label(request)
    if reference not in names or played[reference][1].startswith("could not pair"):
        # not simulated, or it cannot pair this event: the first system that could
        reference, label = (ok[0] if ok else reference), "the first system compared"
    comparisons = tuple(_compare(a, played[a][0], b, played[b][0], request.rounds)
                        for a, b in itertools.permutations(ok, 2))
    rows = tuple(sorted(
        (_row(request, name, *played[name], reference, comparisons) for name in names),
        key=lambda r: (not r.comparable, -_or(r.tau.mean, -2.0), r.system),
    ))
    if reference not in ok:
        return Advice(request, rows, reference if ok or reference in names else None, (
            f"Too few events could be simulated in the time given to compare the systems: "
            f"use {reference} ({label}); allow more seconds (or fewer systems) for a "
            "comparison."), reference=reference, elapsed=clock() - began)
    recommended, sentence = choose(ok, reference, comparisons, label=label)
    best = next(r for r in rows if r.system == recommended)
    tiebreak = tiebreak_advice(recommended, figure(
        [s.tau_by_rating - s.tau for s in played[recommended][0]]))
    checks: tuple[RoundsCheck, ...] = ()
    rounds_sentence = None
    if too_few_rounds(best.sole_winner):
        remaining = request.seconds - (clock() - began)
        checks = _check_rounds(request, recommended, runner, clock, jobs, remaining)
        rounds_sentence = rounds_advice(request.players, request.rounds, best.sole_winner,
                                        checks, request.rounds + 1 < request.players)
    return Advice(request, rows, recommended, sentence, rounds_sentence, checks, reference,
                  comparisons, tiebreak, elapsed=clock() - began)


Played = tuple[list[Sample], str]  # samples in index order, and the note


def _label(request: AdviceRequest) -> str:
    return "the event's system" if request.current else "the default"


def _usable(samples: list[Sample], note: str) -> bool:
    return not note and len(samples) >= MIN_TOURNAMENTS


def _compare(a: str, first: list[Sample], b: str, second: list[Sample],
             rounds: int) -> Comparison:
    """``a`` minus ``b``, event by event over the events both played."""
    theirs = {s.index: s for s in second}
    pairs = [(s, theirs[s.index]) for s in first if s.index in theirs]
    return Comparison(a, b, len(pairs), figure([x.tau - y.tau for x, y in pairs]),
                      figure([(x.floats - y.floats) / rounds for x, y in pairs]))


def _fixed(
    config: SimulationConfig, names: Sequence[str], count: int, runner: BatchRunner, jobs: int
) -> dict[str, Played]:
    """Exactly ``count`` events per system, in chunks so that ``jobs`` workers share them."""
    size = max(1, math.ceil(count / max(1, jobs)))
    batches = [Batch(config, name, start, min(count, start + size))
               for name in names for start in range(0, count, size)]
    samples: dict[str, list[Sample]] = {name: [] for name in names}
    errors: dict[str, str] = {}
    for result in runner(batches):
        samples[result.batch.system].extend(result.samples)
        if result.error and result.batch.system not in errors:
            errors[result.batch.system] = result.error
    return {name: _sorted(samples[name], _failed(errors.get(name))) for name in names}


def _budgeted(
    config: SimulationConfig,
    names: Sequence[str],
    budget: float,
    runner: BatchRunner,
    clock: Callable[[], float],
    jobs: int,
    reference: str | None = None,
) -> dict[str, Played]:
    """Round-robin in batches until ``budget`` seconds are spent.

    Every turn gives each active system one batch sized to take about ``slice_`` CPU seconds
    (from its measured cost per event; the first batch is one event), so every system gets
    about the same time and a slow one plays fewer events. The fast path's systems go first;
    the others join once each fast one has :data:`MIN_TOURNAMENTS` events (or none is left).
    The turn stops between two batches when the budget is spent. A system that can no longer
    be clearly better than ``reference`` (the upper end of its paired difference is below the
    threshold) stops there: the time goes to the comparisons still open. A system that has not
    reached :data:`MIN_TOURNAMENTS` events in the end is shown and marked, never compared.
    """
    began = clock()
    slice_ = max(budget / (10 * max(1, len(names))), 0.02)  # a turn takes about budget / 10
    samples: dict[str, list[Sample]] = {name: [] for name in names}
    notes: dict[str, str] = {}
    rate: dict[str, float] = {}  # CPU seconds per event in the latest batch
    active = [n for n in names if n in FAST_SYSTEMS]
    waiting = [n for n in names if n not in FAST_SYSTEMS]
    out_of_time = False
    while (active or waiting) and not out_of_time:
        if waiting and all(len(samples[n]) >= MIN_TOURNAMENTS or n not in active
                           for n in names if n in FAST_SYSTEMS):
            active += waiting
            waiting = []
        if not active:
            break
        for result in runner(_turn(config, active, samples, rate, slice_, jobs)):
            name = result.batch.system
            samples[name].extend(result.samples)
            if result.samples:
                rate[name] = result.seconds / len(result.samples)
            if result.error:
                notes[name] = _failed(result.error)
            if clock() - began > budget:
                out_of_time = True
                break
        for name in list(active):
            if (name in notes or len(samples[name]) >= MAX_EVENTS
                    or _settled(name, reference, samples, config.rounds)):
                active.remove(name)
    for name in names:
        k = len(samples[name])
        if name not in notes and k < MIN_TOURNAMENTS:
            notes[name] = (f"not compared: {k} event{'s' if k != 1 else ''} in the time given "
                           f"(at least {MIN_TOURNAMENTS} needed; allow more seconds)")
    return {name: _sorted(samples[name], notes.get(name, "")) for name in names}


def _settled(name: str, reference: str | None, samples: dict[str, list[Sample]],
             rounds: int) -> bool:
    """Whether ``name`` can no longer be clearly better than ``reference``."""
    if reference is None or name == reference or reference not in samples:
        return False
    mine, theirs = samples[name], samples[reference]
    if min(len(mine), len(theirs)) < MIN_TOURNAMENTS:
        return False
    return _compare(name, mine, reference, theirs, rounds).tau.high < TAU_THRESHOLD


def _turn(config: SimulationConfig, active: Sequence[str], samples: dict[str, list[Sample]],
          rate: dict[str, float], slice_: float, jobs: int) -> list[Batch]:
    """One batch per active system (split into ``jobs`` parts), cheapest systems first."""
    batches = []
    parts = max(1, math.ceil(jobs / len(active)))  # keep every worker busy
    for name in sorted(active, key=lambda n: (rate.get(n, 0.0), active.index(n))):
        done = len(samples[name])
        if not done:
            batches.append(Batch(config, name, 0, 1))
            continue
        size = max(parts, int(slice_ * parts / max(rate.get(name, 0.0), 1e-6)))
        size = min(size, MAX_EVENTS - done)
        step = math.ceil(size / parts)
        batches += [Batch(config, name, start, min(done + size, start + step))
                    for start in range(done, done + size, step)]
    return batches


def _sorted(samples: list[Sample], note: str) -> Played:
    """The samples in index order, cut at the first gap (a stopped turn of worker processes
    may have lost a batch in the middle): always events 0..k-1, as a fixed count would be."""
    ordered = sorted(samples, key=lambda s: s.index)
    k = next((i for i, s in enumerate(ordered) if s.index != i), len(ordered))
    return ordered[:k], note


def _failed(error: str | None) -> str:
    return "" if error is None else f"could not pair: {error}"


def _row(request: AdviceRequest, system: str, samples: list[Sample], note: str,
         reference: str, comparisons: Sequence[Comparison]) -> SystemAdvice:
    k = len(samples)
    nan = Figure(math.nan, math.nan)
    if k == 0:
        return SystemAdvice(system, 0, nan, nan, nan, nan, nan, nan, None, note or "no events")
    if k < MIN_TOURNAMENTS and not note:
        note = f"only {k} events, too few to compare (at least {MIN_TOURNAMENTS})"
    versus = next((c.tau for c in comparisons if c.first == system and c.second == reference),
                  None)
    return SystemAdvice(
        system=system,
        tournaments=k,
        tau=figure([s.tau for s in samples]),
        strongest_wins=figure([float(s.strongest_wins) for s in samples]),
        sole_winner=figure([float(s.sole_winner) for s in samples]),
        floats_per_round=figure([s.floats / request.rounds for s in samples]),
        colour=figure([s.colour / request.players for s in samples]),
        rematches=figure([float(s.rematches) for s in samples]),
        versus=versus,
        note=note,
    )


def _or(value: float, default: float) -> float:
    return default if math.isnan(value) else value


def _check_rounds(
    request: AdviceRequest,
    system: str,
    runner: BatchRunner,
    clock: Callable[[], float],
    jobs: int,
    seconds: float,
) -> tuple[RoundsCheck, ...]:
    """Simulate ``system`` with R+1 and R+2 rounds (while fewer than the players)."""
    extra = [request.rounds + k for k in EXTRA_ROUNDS if request.rounds + k < request.players]
    checks: list[RoundsCheck] = []
    for i, rounds in enumerate(extra):
        config = request.config(rounds)
        if request.tournaments is not None:
            played = _fixed(config, [system], request.tournaments, runner, jobs)
        else:
            budget = max(seconds, 0.0) / (len(extra) - i)
            began = clock()
            played = _budgeted(config, [system], budget, runner, clock, jobs)
            seconds -= clock() - began
        samples, note = played[system]
        if note or not samples:
            break
        checks.append(RoundsCheck(rounds, len(samples),
                                  figure([float(s.sole_winner) for s in samples]),
                                  figure([float(s.strongest_wins) for s in samples])))
        if not too_few_rounds(checks[-1].sole_winner):
            break
    return tuple(checks)


# -- a text table (the CLI prints it; the bot shows it in a code block) -------------------------
def table_header(advice: Advice) -> tuple[str, ...]:
    return ("system", "events", "tau (95%)", f"vs {advice.reference}", "best wins",
            "clear win", "floats/rd", "colour", "rematch")


def table_rows(advice: Advice) -> list[tuple[str, ...]]:
    """The table's cells, best ranking first; a system not compared says why in a note."""
    rows = []
    for r in advice.systems:
        if r.tournaments == 0:
            rows.append((r.system, "0", *["-"] * 7))
            continue
        rows.append((
            r.system + ("*" if r.system == advice.request.current else ""),
            str(r.tournaments),
            r.tau.text(),
            "-" if r.versus is None else r.versus.text(sign=True),
            r.strongest_wins.text(percent=True),
            r.sole_winner.text(percent=True),
            r.floats_per_round.text(2),
            r.colour.text(2),
            r.rematches.text(2),
        ))
    return rows


def format_table(advice: Advice) -> str:
    """The table as aligned plain text (names left, numbers right); without the rematch column
    when no system had a rematch (it keeps the table within a Discord field)."""
    header = table_header(advice)
    rows = [header, *table_rows(advice)]
    if all(r.tournaments == 0 or r.rematches.mean == 0 for r in advice.systems):
        rows = [row[:-1] for row in rows]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                  for i, (c, w) in enumerate(zip(row, widths, strict=True))).rstrip()
        for row in rows
    )


def notes(advice: Advice) -> list[str]:
    """One line per system that was not compared, saying why."""
    return [f"{r.system}: {r.note}" for r in advice.systems if r.note]


def describe(advice: Advice) -> str:
    """One line saying what was simulated, in plain words."""
    q = advice.request
    return (f"{q.players} players, {q.rounds} rounds, {q.scoring} scoring, "
            f"{q.model().plain()}, {q.strengths.plain()}, seed {q.seed}")


__all__ = [
    "CLEAR_WINNER",
    "MIN_TOURNAMENTS",
    "TAU_MEANING",
    "Advice",
    "AdviceRequest",
    "Batch",
    "BatchResult",
    "RoundsCheck",
    "Sample",
    "SystemAdvice",
    "advise",
    "describe",
    "format_table",
    "notes",
    "play_batch",
]
