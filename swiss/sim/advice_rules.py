"""The advisor's statistics and rules: figures with 95 % intervals, paired differences on the
same simulated fields, and the decisions (which system, are the rounds enough, which tiebreak
order) with the sentences that state them.

Every system plays the same fields: event ``k`` of every system has the same players with the
same true strengths and ratings (:func:`swiss.sim.runner.play_tournament`). So two systems are
compared event by event (a paired difference), which cancels the field's luck and needs far
fewer events than comparing two separate means.

**The decision.** A system is *clearly better* than another when the paired difference of
Kendall tau is significant (its 95 % interval lies above 0) **and** at least
:data:`TAU_THRESHOLD` (0.01: one more pair of players in 200 in the right order), the smallest
difference an organiser would notice over a few events. The advisor starts from the reference
system: the event's own system, or the engine's default (``dutch``). It recommends another
only if some system is clearly better than the reference, and then the first system in the
engine's order that is as good as those (none of them is clearly better than it, and it is
ahead of the reference by the threshold at least), so that noise among equals does not change
the answer. Otherwise it says "no clear difference: use the reference". Small differences and
noise therefore never change the answer, and the seed does not either unless a difference sits
right at the threshold.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

#: The smallest difference of mean Kendall tau the advisor calls a difference.
TAU_THRESHOLD = 0.01
#: The smallest difference of floats per round called a difference (one float in 10 rounds).
FLOAT_THRESHOLD = 0.1
#: The share of simulated events with a sole winner that counts as "finds a clear winner".
CLEAR_WINNER = 0.5
#: What Kendall tau means, in the organiser's words (printed under the table).
TAU_MEANING = (
    "tau: how well the final standings match the players' true strengths (1: exactly, "
    "0: no better than chance); 0.01 more puts one more pair of players in 200 in the "
    "right order."
)

# Student's t 97.5 % quantiles for 1..30 degrees of freedom (small samples: the normal 1.96
# would understate the interval of 5 or 10 events); above 30, the normal quantile.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
         2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
         2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


@dataclass(frozen=True, slots=True)
class Figure:
    """A mean and the half-width of its 95 % interval (``nan`` with fewer than 2 values)."""

    mean: float
    half: float

    @property
    def low(self) -> float:
        return self.mean - (0.0 if math.isnan(self.half) else self.half)

    @property
    def high(self) -> float:
        return self.mean + (0.0 if math.isnan(self.half) else self.half)

    def above(self, threshold: float) -> bool:
        """Significantly above 0 and at least ``threshold`` (needs an interval)."""
        return not math.isnan(self.half) and self.low > 0 and self.mean >= threshold

    def text(self, digits: int = 3, sign: bool = False, percent: bool = False) -> str:
        """``0.615±0.008``, ``+0.023±0.005`` or ``25±3%``."""
        if math.isnan(self.mean):
            return "-"
        scale, unit = (100.0, "%") if percent else (1.0, "")
        form = f"{'+' if sign else ''}.{0 if percent else digits}f"
        head = format(self.mean * scale, form)
        if math.isnan(self.half):
            return head + unit
        return f"{head}±{format(self.half * scale, f'.{0 if percent else digits}f')}{unit}"


def figure(values: Sequence[float] | np.ndarray) -> Figure:
    """The mean of ``values`` with its 95 % interval (Student's t for small samples)."""
    arr = np.asarray(values, dtype=np.float64)
    if arr.size == 0:
        return Figure(math.nan, math.nan)
    mean = float(arr.mean())
    if arr.size < 2:
        return Figure(mean, math.nan)
    df = arr.size - 1
    t = _T975[df - 1] if df <= len(_T975) else 1.959963984540054
    return Figure(mean, t * float(arr.std(ddof=1)) / math.sqrt(arr.size))


@dataclass(frozen=True, slots=True)
class Comparison:
    """``first`` minus ``second`` over the events both played (the same fields)."""

    first: str
    second: str
    events: int
    tau: Figure
    floats_per_round: Figure

    @property
    def clearly_better(self) -> bool:
        return self.tau.above(TAU_THRESHOLD)


def clearly_better(comparisons: Sequence[Comparison], a: str, b: str) -> bool:
    return any(c.first == a and c.second == b and c.clearly_better for c in comparisons)


def find(comparisons: Sequence[Comparison], a: str, b: str) -> Comparison | None:
    return next((c for c in comparisons if c.first == a and c.second == b), None)


def choose(
    names: Sequence[str], reference: str, comparisons: Sequence[Comparison], *, label: str
) -> tuple[str, str]:
    """The recommended system among ``names`` (the comparable systems, in the engine's order)
    and the sentence (the rule is in the module docstring). ``label`` says what the reference
    is ("the default", "the event's system")."""
    better = [s for s in names if s != reference and clearly_better(comparisons, s, reference)]
    if not better:
        return reference, (
            f"No clear difference: use {reference} ({label}). No system ranks the players "
            f"better than {reference} by {TAU_THRESHOLD} tau or more with 95 % confidence "
            "in these simulations."
        )
    # The systems as good as the clearly better ones: none of those is clearly better than
    # them, and they are ahead of the reference by the threshold at least. The first of them
    # in the engine's order is recommended, so noise among equals does not change the answer.
    unbeaten = [s for s in names if s != reference
                and not any(clearly_better(comparisons, t, s) for t in better)
                and _ahead(comparisons, s, reference)]
    pick = unbeaten[0] if unbeaten else better[0]
    versus = find(comparisons, pick, reference)
    assert versus is not None
    if pick in better:
        sentence = (f"Use {pick}: it ranks the players better than {reference} ({label}) by "
                    f"{versus.tau.text(sign=True)} tau on the same simulated fields")
    else:
        best = max(better, key=lambda b: _tau_over(comparisons, b, reference))
        over = find(comparisons, best, reference)
        assert over is not None
        sentence = (f"Use {pick}: {best} ranks the players clearly better than {reference} "
                    f"({label}), by {over.tau.text(sign=True)} tau on the same simulated "
                    f"fields, and {pick} ranks as well as {best} (no clear difference; "
                    f"{pick} {versus.tau.text(sign=True)} over {reference})")
    alike = [s for s in unbeaten if s != pick and s in better]
    if alike:
        sentence += f"; {', '.join(alike)} rank{'s' if len(alike) == 1 else ''} about as well"
    floats = versus.floats_per_round
    if floats.above(FLOAT_THRESHOLD) or Figure(-floats.mean, floats.half).above(FLOAT_THRESHOLD):
        more = "more" if floats.mean > 0 else "fewer"
        sentence += (f"; it floats {more} players to other score groups "
                     f"({floats.text(2, sign=True)} per round)")
    return pick, sentence + "."


def _ahead(comparisons: Sequence[Comparison], a: str, b: str) -> bool:
    return _tau_over(comparisons, a, b) >= TAU_THRESHOLD


def _tau_over(comparisons: Sequence[Comparison], a: str, b: str) -> float:
    c = find(comparisons, a, b)
    return -math.inf if c is None else c.tau.mean


@dataclass(frozen=True, slots=True)
class RoundsCheck:
    """The recommended system with more rounds: how often a clear winner emerges."""

    rounds: int
    tournaments: int
    sole_winner: Figure
    strongest_wins: Figure


def too_few_rounds(sole_winner: Figure) -> bool:
    """A sole winner in clearly fewer than half of the events (the interval below 50 %)."""
    return not math.isnan(sole_winner.half) and sole_winner.high < CLEAR_WINNER


def rounds_advice(players: int, rounds: int, sole_winner: Figure,
                  checks: Sequence[RoundsCheck], more_possible: bool = True) -> str:
    """The "too few rounds" sentence, from the clear-winner shares at R, R+1, R+2."""
    head = (f"{rounds} round{'s are' if rounds != 1 else ' is'} too few for {players} players "
            f"to find a clear winner (one player alone on the top score in "
            f"{sole_winner.text(percent=True)} of the simulated events)")
    enough = next((c for c in checks if not too_few_rounds(c.sole_winner)), None)
    if enough is not None:
        verb = "would" if enough.sole_winner.low >= CLEAR_WINNER else "might"
        return (f"{head}; {enough.rounds} rounds {verb} ({enough.sole_winner.text(percent=True)}"
                f", and the strongest player wins {enough.strongest_wins.text(percent=True)}).")
    if checks:
        last = checks[-1]
        return (f"{head}; even {last.rounds} would not "
                f"({last.sole_winner.text(percent=True)}).")
    if more_possible:
        return f"{head}; more rounds could not be simulated in the time given."
    return f"{head}; there are not enough players for more rounds."


def tiebreak_advice(system: str, gain: Figure) -> str:
    """Whether ranking equal scores by rating beats the FIDE tiebreaks here, plainly."""
    head = (f"Tiebreaks: with {system}, ranking players on equal points by rating instead of "
            f"by the FIDE tiebreaks changes tau by {gain.text(sign=True)}")
    if gain.above(TAU_THRESHOLD):
        return (f"{head}: the standings follow true strength more closely. An event not bound "
                "by FIDE rules may rank ties by rating; a FIDE-rated event must keep the "
                "tiebreaks of FIDE C.07.")
    return f"{head}: no clear gain; keep the FIDE tiebreaks (C.07)."
