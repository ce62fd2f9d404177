"""The advisor: which pairing system suits an event of N players and R rounds?

It simulates the event with every system the engine knows (:data:`swiss.pairing.SYSTEMS`, so a
system added there is advised on without a change here) and measures, per system:

* **ranking accuracy**: the mean normalised Kendall tau between the final ranking and the true
  strength order, with its 95 % interval (mean ± 1.96 s/√k);
* **best player wins**: the share of events won by the truly strongest player;
* **clear winner**: the share of events whose winner is alone on the top score (no tiebreak
  decides first place);
* **floats per round**: games between players on different scores, per round;
* **colour balance**: the mean |whites − blacks| of a player after the last round (1 is the
  least possible after an odd number of rounds, 0 after an even one);
* **rematches**: games per event between two players who had met before (only forced ones:
  every system avoids them while any other pairing exists).

The recommendation (:func:`recommend`): the system with the best mean tau, unless another
system's tau interval overlaps it (the difference is within the noise) and that system is
*better on the fairness measures*: no worse on floats, colours and rematches and strictly
better on at least one. Then the best-ranking such system is recommended instead, and the
sentence says why. Systems with fewer than :data:`MIN_TOURNAMENTS` simulated events (too slow
for the time budget) or that failed to pair are shown but not recommended.

"Too few rounds" (:data:`CLEAR_WINNER`): an event finds a clear winner when, in at least half
of the simulated events with the recommended system, one player is alone on the top score.
When R rounds miss that, the advisor simulates R+1 and R+2 rounds with that system and says
"R rounds are too few for N players to find a clear winner; R+k would" for the smallest k
that reaches it (or that even R+2 would not).

Determinism: tournament ``k`` of a system is fully determined by the request and its seed
(:func:`swiss.sim.runner.play_tournament`), so the advice depends only on how many events
each system played. With ``tournaments`` set, every system plays exactly that many (tests,
reproducible runs); otherwise a time budget decides the counts: the systems take turns in
batches sized to take about the same time each, so a slow system plays fewer events. The
clock and the batch runner are parameters, so a caller can run the batches in worker
processes (:func:`play_batch` is a picklable top-level function).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from swiss.model import Result, Scoring
from swiss.pairing import SYSTEMS, PairingError
from swiss.sim.measures import mean_ci95
from swiss.sim.outcomes import EloLogistic, Milvang, OutcomeModel
from swiss.sim.runner import SimulationConfig, play_tournament
from swiss.sim.strengths import UNIFORM_DEFAULT, StrengthDistribution

#: A system needs this many simulated events to be compared (and recommended).
MIN_TOURNAMENTS = 10
#: The share of simulated events with a sole winner that counts as "finds a clear winner".
CLEAR_WINNER = 0.5
#: The share of the time budget spent on the comparison; the rest checks R+1 and R+2 rounds.
MAIN_SHARE = 0.75
#: A time-budgeted run stops a system at this many events (tiny events would otherwise run
#: into the hundreds of thousands; the interval of tau is then about ±0.003 already).
MAX_EVENTS = 5000
#: The rounds added when the event's own number finds no clear winner.
EXTRA_ROUNDS = (1, 2)
SCORINGS = ("chess", "match")


@dataclass(frozen=True, slots=True)
class AdviceRequest:
    """What the organiser knows about his event, and how long the advisor may take.

    ``draw_rate``: the share of drawn games between equal players (the Elo model with that
    share, :class:`swiss.sim.outcomes.EloLogistic`); ``None`` means Milvang's model for chess
    (draws rise with the level, about a third of the games) and no draws for match scoring.
    ``tournaments`` fixes the number of simulated events per system (``seconds`` is then
    ignored); ``systems`` defaults to every system of the engine; ``current`` is the event's
    own system, named in the recommendation when another one is better; ``policy`` is its
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


@dataclass(frozen=True, slots=True)
class Batch:
    """Events ``start .. stop - 1`` of ``system`` under ``config``."""

    config: SimulationConfig
    system: str
    start: int
    stop: int


@dataclass(frozen=True, slots=True)
class BatchResult:
    """The samples of a batch, the seconds it took, and the pairing error that stopped it."""

    batch: Batch
    samples: tuple[Sample, ...]
    seconds: float
    error: str | None = None


def play_batch(batch: Batch) -> BatchResult:
    """Play and measure a batch of events (a top-level function: worker processes run it)."""
    began = time.perf_counter()
    samples = []
    try:
        for k in range(batch.start, batch.stop):
            samples.append(sample(batch.config, batch.system, k))
    except PairingError as exc:
        return BatchResult(batch, tuple(samples), time.perf_counter() - began, str(exc))
    return BatchResult(batch, tuple(samples), time.perf_counter() - began)


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
    return Sample(
        index=index,
        tau=m.kendall_tau,
        strongest_wins=m.winner_is_strongest,
        sole_winner=len(ranking) < 2 or points[ranking[1]] < top,
        floats=m.float_pairs,
        colour=m.acd[-1],
        rematches=rematches,
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
    """Run batches one after the other in this process (the default runner)."""
    return map(play_batch, batches)


# -- the result --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SystemAdvice:
    """One row of the table: a system's measures over its simulated events."""

    system: str
    tournaments: int
    tau: float
    tau_half: float  # half-width of the 95 % interval (nan with fewer than two events)
    strongest_wins: float
    sole_winner: float
    floats_per_round: float
    colour: float  # mean |whites - blacks| per player after the last round
    rematches: float  # per event
    note: str = ""  # why the system is not compared ("too slow", "could not pair")

    @property
    def comparable(self) -> bool:
        """Enough events and no pairing failure: the system may be recommended."""
        return not self.note and self.tournaments >= MIN_TOURNAMENTS


@dataclass(frozen=True, slots=True)
class RoundsCheck:
    """The recommended system with more rounds: how often a clear winner emerges."""

    rounds: int
    tournaments: int
    sole_winner: float
    strongest_wins: float


@dataclass(frozen=True, slots=True)
class Advice:
    """The table (best ranking first), the recommendation and the rounds sentence."""

    request: AdviceRequest
    systems: tuple[SystemAdvice, ...]
    recommended: str | None
    sentence: str
    rounds_sentence: str | None = None
    rounds_checks: tuple[RoundsCheck, ...] = ()
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
        played = _budgeted(config, names, budget, runner, clock, jobs)
    rows = tuple(sorted(
        (_row(request, name, *played[name]) for name in names),
        key=lambda r: (not r.comparable, -_or(r.tau, -2.0), r.system),
    ))
    recommended, sentence = recommend(rows, current=request.current)
    checks: tuple[RoundsCheck, ...] = ()
    rounds_sentence = None
    if recommended is not None:
        best = next(r for r in rows if r.system == recommended)
        if best.sole_winner < CLEAR_WINNER:
            remaining = request.seconds - (clock() - began)
            checks = _check_rounds(request, recommended, runner, clock, jobs, remaining)
            rounds_sentence = rounds_advice(request, best, checks)
    return Advice(request, rows, recommended, sentence, rounds_sentence, checks,
                  elapsed=clock() - began)


Played = tuple[list[Sample], str]  # samples in index order, and the note


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
) -> dict[str, Played]:
    """Round-robin in batches until ``budget`` seconds are spent.

    Every turn gives each active system one batch sized to take about ``slice_`` seconds
    (from its measured time per event; the first batch is one event), so every system gets
    about the same time and a slow one plays fewer events. A system whose events are so slow
    that its share of the budget cannot buy :data:`MIN_TOURNAMENTS` of them is stopped and
    marked too slow. That is judged on its latest batch, and after the first batch only when
    one event alone took the whole share: a process's first event pays one-off costs
    (imports, caches) that say nothing about the system.
    """
    began = clock()
    share = budget * max(1, jobs) / max(1, len(names))  # worker-seconds per system
    slice_ = max(budget / (10 * max(1, len(names))), 0.02)  # a turn takes about budget / 10
    samples: dict[str, list[Sample]] = {name: [] for name in names}
    notes: dict[str, str] = {}
    rate: dict[str, float] = {}  # seconds per event in the latest batch
    active = list(names)
    first = True
    while active:
        batches = []
        parts = max(1, math.ceil(jobs / len(active)))  # keep every worker busy
        for name in active:
            done = len(samples[name])
            if not done:
                batches.append(Batch(config, name, 0, 1))
                continue
            size = max(parts, int(slice_ * parts / max(rate.get(name, 0.0), 1e-6)))
            size = min(size, MAX_EVENTS - done)
            step = math.ceil(size / parts)
            batches += [Batch(config, name, start, min(done + size, start + step))
                        for start in range(done, done + size, step)]
        wave_began = clock()
        for result in runner(batches):
            name = result.batch.system
            samples[name].extend(result.samples)
            if result.samples:
                rate[name] = result.seconds / len(result.samples)
            if result.error:
                notes[name] = _failed(result.error)
        for name in list(active):
            if name not in notes and name in rate:
                needed = rate[name] * (1 if first else MIN_TOURNAMENTS)
                if needed > share:
                    notes[name] = f"too slow for the time budget ({rate[name]:.2f} s per event)"
            if name in notes or len(samples[name]) >= MAX_EVENTS:
                active.remove(name)
        first = False
        now = clock()
        wave = now - wave_began
        if now - began + wave > budget:  # the next turn would overrun the budget
            break
    return {name: _sorted(samples[name], notes.get(name, "")) for name in names}


def _sorted(samples: list[Sample], note: str) -> Played:
    return sorted(samples, key=lambda s: s.index), note


def _failed(error: str | None) -> str:
    return "" if error is None else f"could not pair: {error}"


def _row(request: AdviceRequest, system: str, samples: list[Sample], note: str) -> SystemAdvice:
    k = len(samples)
    if k == 0:
        nan = math.nan
        return SystemAdvice(system, 0, nan, nan, nan, nan, nan, nan, nan, note or "no events")
    tau, half = mean_ci95([s.tau for s in samples])
    if k < MIN_TOURNAMENTS and not note:
        note = f"only {k} events, too few to compare (at least {MIN_TOURNAMENTS})"
    return SystemAdvice(
        system=system,
        tournaments=k,
        tau=tau,
        tau_half=half,
        strongest_wins=sum(s.strongest_wins for s in samples) / k,
        sole_winner=sum(s.sole_winner for s in samples) / k,
        floats_per_round=sum(s.floats for s in samples) / k / request.rounds,
        colour=sum(s.colour for s in samples) / k / request.players,
        rematches=sum(s.rematches for s in samples) / k,
        note=note,
    )


def _or(value: float, default: float) -> float:
    return default if math.isnan(value) else value


def overlaps(a: SystemAdvice, b: SystemAdvice) -> bool:
    """Whether the 95 % intervals of the two systems' mean tau overlap."""
    return abs(a.tau - b.tau) <= _or(a.tau_half, 0.0) + _or(b.tau_half, 0.0)


def fairer(a: SystemAdvice, b: SystemAdvice) -> bool:
    """``a`` is no worse than ``b`` on floats, colours and rematches, and better on one."""
    mine = (a.floats_per_round, a.colour, a.rematches)
    theirs = (b.floats_per_round, b.colour, b.rematches)
    eps = 1e-9
    return (all(x <= y + eps for x, y in zip(mine, theirs, strict=True))
            and any(x < y - eps for x, y in zip(mine, theirs, strict=True)))


def recommend(
    rows: Sequence[SystemAdvice], *, current: str | None = None
) -> tuple[str | None, str]:
    """The recommended system and the sentence (the rule is in the module docstring)."""
    comparable = [r for r in rows if r.comparable]
    if not comparable:
        return None, ("No system could be simulated often enough in the time given; "
                      "allow more seconds or fewer players.")
    # Equal means (rare, but possible with few events): the first name alphabetically.
    top = max(sorted(comparable, key=lambda r: r.system), key=lambda r: r.tau)
    fairer_rivals = [r for r in comparable
                     if r is not top and overlaps(r, top) and fairer(r, top)]
    if fairer_rivals:
        pick = max(fairer_rivals, key=lambda r: r.tau)
        sentence = (
            f"Use {pick.system}: it ranks as well as {top.system} within the noise "
            f"(tau {pick.tau:.3f} against {top.tau:.3f}) and is fairer "
            f"({_fairness(pick, top)})"
        )
    else:
        pick = top
        runner_up = max((r for r in comparable if r is not top), key=lambda r: r.tau,
                        default=None)
        if runner_up is None:
            sentence = f"Use {pick.system}: it is the only system simulated (tau {pick.tau:.3f})"
        elif overlaps(pick, runner_up):
            sentence = (
                f"Use {pick.system}: it ranks best (tau {pick.tau:.3f}, {runner_up.system} "
                f"{runner_up.tau:.3f} is within the noise but no fairer)"
            )
        else:
            sentence = (
                f"Use {pick.system}: it ranks the players best (tau {pick.tau:.3f} ± "
                f"{_or(pick.tau_half, 0.0):.3f}, next {runner_up.system} {runner_up.tau:.3f})"
            )
    if current and current != pick.system:
        own = next((r for r in rows if r.system == current), None)
        if own is not None and not math.isnan(own.tau):
            sentence += f"; the event now uses {current} (tau {own.tau:.3f})"
    return pick.system, sentence + "."


def _fairness(a: SystemAdvice, b: SystemAdvice) -> str:
    parts = []
    if a.floats_per_round < b.floats_per_round:
        parts.append(f"{a.floats_per_round:.2f} floats per round against "
                     f"{b.floats_per_round:.2f}")
    if a.colour < b.colour:
        parts.append(f"colour difference {a.colour:.2f} against {b.colour:.2f}")
    if a.rematches < b.rematches:
        parts.append(f"{a.rematches:.2f} rematches against {b.rematches:.2f}")
    return ", ".join(parts)


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
    checks = []
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
        k = len(samples)
        checks.append(RoundsCheck(rounds, k, sum(s.sole_winner for s in samples) / k,
                                  sum(s.strongest_wins for s in samples) / k))
        if checks[-1].sole_winner >= CLEAR_WINNER:
            break
    return tuple(checks)


def rounds_advice(
    request: AdviceRequest, best: SystemAdvice, checks: Sequence[RoundsCheck]
) -> str:
    """The "too few rounds" sentence, from the clear-winner shares at R, R+1, R+2."""
    n, r = request.players, request.rounds
    head = (f"{r} round{'s are' if r != 1 else ' is'} too few for {n} players to find a clear "
            f"winner (a sole winner in {best.sole_winner:.0%} of the simulated events)")
    enough = next((c for c in checks if c.sole_winner >= CLEAR_WINNER), None)
    if enough is not None:
        return (f"{head}; {enough.rounds} would ({enough.sole_winner:.0%}, and the strongest "
                f"player wins {enough.strongest_wins:.0%} against {best.strongest_wins:.0%}).")
    if checks:
        last = checks[-1]
        return f"{head}; even {last.rounds} would not ({last.sole_winner:.0%})."
    return f"{head}; there are not enough players for more rounds."


# -- a text table (the CLI prints it; the bot shows it in a code block) -------------------------
TABLE_HEADER = ("system", "events", "tau (95%)", "best wins", "clear win", "floats/rd",
                "colour", "rematch")


def table_rows(advice: Advice) -> list[tuple[str, ...]]:
    """The table's cells, best ranking first; a system not compared says why in a note."""
    rows = []
    for r in advice.systems:
        if r.tournaments == 0:
            rows.append((r.system, "0", "-", "-", "-", "-", "-", "-"))
            continue
        half = "" if math.isnan(r.tau_half) else f"±{r.tau_half:.3f}"
        rows.append((
            r.system + ("*" if r.system == advice.request.current else ""),
            str(r.tournaments),
            f"{r.tau:.3f}{half}",
            f"{r.strongest_wins:.0%}",
            f"{r.sole_winner:.0%}",
            f"{r.floats_per_round:.2f}",
            f"{r.colour:.2f}",
            f"{r.rematches:.2f}",
        ))
    return rows


def format_table(advice: Advice) -> str:
    """The table as aligned plain text (names left, numbers right)."""
    rows = [TABLE_HEADER, *table_rows(advice)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(TABLE_HEADER))]
    return "\n".join(
        "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                  for i, (c, w) in enumerate(zip(row, widths, strict=True))).rstrip()
        for row in rows
    )


def notes(advice: Advice) -> list[str]:
    """One line per system that was not compared, saying why."""
    return [f"{r.system}: {r.note}" for r in advice.systems if r.note]


def describe(advice: Advice) -> str:
    """One line saying what was simulated."""
    q = advice.request
    model = q.model().describe()
    return (f"{q.players} players, {q.rounds} rounds, {q.scoring} scoring, outcomes {model}, "
            f"strengths {q.strengths.describe()}, seed {q.seed}")


__all__ = [
    "CLEAR_WINNER",
    "MIN_TOURNAMENTS",
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
    "overlaps",
    "play_batch",
    "recommend",
    "rounds_advice",
]
