"""A posterior estimate of each player's strength: the ratings as a prior plus the results so far.

The ``posterior`` system (:mod:`swiss.pairing.mwm`) orders each score group by this estimate
instead of the initial rating. The model is the Elo / Bradley-Terry one: player ``a`` scores
against ``b`` with expectation ``p = 1 / (1 + 10**(-(x_a - x_b) / 400))`` (a draw counts as half
a win, as in Elo), and each strength ``x`` has a normal prior centred on the player's rating,
with standard deviation :data:`RATED_SD` (Glicko's rating deviation of an established, active
player is about 50; 60 is where the estimate came closest to the true strengths in the
simulator, docs/simulation.md) or
:data:`UNRATED_SD` (Glicko's deviation of an unrated player, 350) for players without a rating,
who are centred on the mean rating of the rated players (or :data:`UNRATED_MEAN`).

The estimate is the maximum a posteriori point, found by Newton's method (the log posterior is
strictly concave, so it has exactly one maximum) whose linear systems are solved by conjugate
gradients over the games (the Hessian is the prior's diagonal plus a weighted graph Laplacian
of who played whom), so the cost grows with the number of games, not with the square of the
field. Deterministic: a fixed sequence of numpy operations on the inputs, with fixed iteration
limits and tolerances. Forfeits, byes and pending games carry no information and are left out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from swiss.model import Result, Tournament

RATED_SD = 60.0
UNRATED_SD = 350.0
UNRATED_MEAN = 1500.0
_K = math.log(10) / 400  # the Elo logistic curve on the natural-log scale
_NEWTON_STEPS = 25
_NEWTON_TOLERANCE = 1e-4  # rating points: far below any difference that changes an order
_CG_STEPS = 200


def strength_estimates(
    ratings: Sequence[int] | np.ndarray,
    first: np.ndarray,
    second: np.ndarray,
    games: np.ndarray,
    points: np.ndarray,
    *,
    rated_sd: float = RATED_SD,
    unrated_sd: float = UNRATED_SD,
) -> np.ndarray:
    """The MAP strengths (rating points) of players ``0..n-1`` given their ratings and games.

    ``ratings[i]`` is player ``i``'s rating, 0 for unrated. The games are given per pair of
    players: ``first[e]`` and ``second[e]`` met ``games[e]`` times (over the board), and
    ``points[i]`` is what player ``i`` scored in all his games (1 a win, 0.5 a draw), so the
    pairs need not be unique or ordered. Returns a float64 array of length ``n``.
    """
    rating = np.asarray(ratings, dtype=np.float64)
    n = rating.size
    rated = rating > 0
    mean = np.where(rated, rating, rating[rated].mean() if rated.any() else UNRATED_MEAN)
    precision = np.where(rated, 1.0 / rated_sd**2, 1.0 / unrated_sd**2)
    a = np.asarray(first, dtype=np.int64)
    b = np.asarray(second, dtype=np.int64)
    c = np.asarray(games, dtype=np.float64)
    won = np.asarray(points, dtype=np.float64)
    x = mean.copy()
    if a.size == 0:
        return x
    for _ in range(_NEWTON_STEPS):
        p = 1.0 / (1.0 + np.exp(-_K * (x[a] - x[b])))  # a's expected score against b
        expected = np.bincount(a, c * p, n) + np.bincount(b, c * (1.0 - p), n)
        # The gradient of the log posterior, and the Hessian of its negative as an operator.
        gradient = _K * (won - expected) - precision * (x - mean)
        coupling = c * _K * _K * p * (1.0 - p)
        step = _conjugate_gradient(precision, a, b, coupling, gradient)
        x = x + step
        if float(np.abs(step).max()) < _NEWTON_TOLERANCE:
            break
    return x


def _conjugate_gradient(
    diagonal: np.ndarray, a: np.ndarray, b: np.ndarray, w: np.ndarray, rhs: np.ndarray
) -> np.ndarray:
    """Solve ``(diag(diagonal) + L) s = rhs``, ``L`` the Laplacian of edges ``(a, b)`` with
    weights ``w``: symmetric positive definite, so conjugate gradients converge; Jacobi
    preconditioned because the degrees differ (byes, late entries, unrated players)."""
    n = diagonal.size
    degree = np.bincount(a, w, n) + np.bincount(b, w, n)
    inverse = 1.0 / (diagonal + degree)

    def apply(v: np.ndarray) -> np.ndarray:
        flow = w * (v[a] - v[b])
        return diagonal * v + np.bincount(a, flow, n) - np.bincount(b, flow, n)

    s = np.zeros(n)
    r = rhs.copy()
    z = inverse * r
    d = z.copy()
    rz = float(r @ z)
    limit = 1e-20 * max(float(rhs @ rhs), 1e-300)
    for _ in range(_CG_STEPS):
        if float(r @ r) <= limit:
            break
        q = apply(d)
        alpha = rz / float(d @ q)
        s += alpha * d
        r -= alpha * q
        z = inverse * r
        rz_next = float(r @ z)
        d = z + (rz_next / rz) * d
        rz = rz_next
    return s


def order_key(estimates: np.ndarray) -> np.ndarray:
    """The estimates as integers in 1/1000 rating points, for sorting: rounding first keeps
    the order independent of the last bits of floating point (ties then go to the seed)."""
    return np.rint(np.asarray(estimates) * 1000).astype(np.int64)


def tournament_estimates(tournament: Tournament) -> dict[int, float]:
    """:func:`strength_estimates` of every player of ``tournament`` from its played games."""
    ids = [p.id for p in tournament.players]
    index = {pid: i for i, pid in enumerate(ids)}
    first: list[int] = []
    second: list[int] = []
    points = np.zeros(len(ids))
    for rnd in tournament.rounds:
        for game in rnd.games:
            score = _WHITE_SCORE.get(game.result)
            w, b = index.get(game.white), index.get(game.black)
            if score is None or w is None or b is None:
                continue  # forfeits and pending games say nothing about strength
            first.append(w)
            second.append(b)
            points[w] += score
            points[b] += 1.0 - score
    ones = np.ones(len(first))
    estimates = strength_estimates(
        [p.rating for p in tournament.players], np.array(first, dtype=np.int64),
        np.array(second, dtype=np.int64), ones, points,
    )
    return dict(zip(ids, estimates.tolist(), strict=True))


_WHITE_SCORE = {Result.WHITE_WINS: 1.0, Result.DRAW: 0.5, Result.BLACK_WINS: 0.0}
