"""The ``rating-gap`` system's term: inside Burstein's tiers, pair for the largest expected gaps.

Burstein pairs the top of a score group against its bottom by rank. ``rating-gap`` keeps every
tier above the system term (repeats, colour bound, bye, score difference, colour) and replaces
the rank distance by a benefit that grows faster than the rating gap itself:

    pi(i, j) = |r_i - r_j| * (E(|r_i - r_j|) - 1/2),   E(d) = 1 / (1 + 10^(-d / 400))

(the gap times how much more than a coin toss the favourite's expected score is). Being convex
in the gap, it prefers one very unequal game and one even game less than two clearly unequal
ones, which is what sorts a field fastest: a game's result is likelier to be the "right" one
the larger the gap, and the convexity spreads that certainty over the boards instead of
spending it all on one. The figures that chose it are in docs/simulation.md.

Unrated players (rating 0) count at the rated players' mean; a field without ratings uses its
start order (a 10-point step per place), so the term still pairs the top against the bottom.
The engine passes the term as the system term of the weight model (``pi`` of
:class:`swiss.pairing.weights.RoundModel`), so every tier above it is Burstein's exactly.
"""

from __future__ import annotations

import numpy as np

#: Benefit units per rating point of the term (keeps its rounding below a hundredth of a point).
UNIT = 100
#: The largest field the term is built for: it is an n x n matrix of 64-bit benefits (128 MB).
MAX_PLAYERS = 4000


def gap_benefit(gap: np.ndarray) -> np.ndarray:
    """The integer benefit of pairs whose rating gap is ``gap`` (non-negative, any shape)."""
    d = np.abs(np.asarray(gap, dtype=np.float64))
    expected = 1.0 / (1.0 + np.power(10.0, -d / 400.0))
    return np.rint(d * (expected - 0.5) * UNIT).astype(np.int64)


def effective_ratings(ratings: np.ndarray, start: np.ndarray) -> np.ndarray:
    """The ratings the term uses: unrated players at the rated mean, and 10 points a place of
    the start order ``start`` (1 = first) when nobody is rated."""
    r = np.asarray(ratings, dtype=np.float64)
    rated = r > 0
    if not rated.any():
        return 2000.0 - 10.0 * np.asarray(start, dtype=np.float64)
    return np.where(rated, r, r[rated].mean())


def gap_matrix(ratings: np.ndarray, start: np.ndarray) -> np.ndarray:
    """The term of every pair, ``n x n`` int64, players in the order of ``ratings`` (and of
    their start numbers ``start``)."""
    if ratings.size > MAX_PLAYERS:
        raise ValueError(
            f"the rating-gap system pairs at most {MAX_PLAYERS} players a round "
            f"(got {ratings.size}); use burstein for larger events"
        )
    r = effective_ratings(ratings, start)
    return gap_benefit(r[:, None] - r[None, :])
