"""The engine's pairing for the simulator's plain tournaments, from arrays.

:mod:`swiss.pairing.mwm` derives each player's state from the rounds (byes, withdrawals,
requested byes, forbidden pairs, explanations); that costs milliseconds per round for 32
players. A simulation plays millions of rounds of one plain case: everybody plays every round
(or has the pairing-allocated bye); no withdrawals, requested byes or forbidden pairs. For that
case this module keeps the players' state in arrays (scores, colour differences, colour
history, byes, who met whom how often) and pairs with the engine's own weight model
(:class:`swiss.pairing.weights.RoundModel`, built here from the arrays instead of the rounds)
and an exact matching of every allowed edge (32 players need no pricing):
:meth:`~swiss.pairing.weights.RoundModel.solve_small`, the compiled model and the O(n^3) dense
solver in one call, up to 128 vertices; :func:`swiss.pairing.exact.solve` (LEMON) above.
Only the ranking, score groups and colour rules are restated for
arrays; ``tests/swiss/test_sim_fastpair.py`` checks pairings and colours against
:func:`swiss.pairing.pair_round` round by round. ``None`` is returned when no pairing exists
(policy ``forbid``); the caller then asks the engine, which says why.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from swiss.model import Color
from swiss.pairing.exact import solve
from swiss.pairing.matching import max_weight_matching
from swiss.pairing.posterior import order_key, strength_estimates
from swiss.pairing.rating_gap import gap_matrix
from swiss.pairing.weights import RoundModel

WHITE, BLACK = 1, -1
FAST_SYSTEMS = ("dutch", "burstein", "monrad", "random", "random2", "posterior", "rating-gap")


@dataclass(slots=True)
class PlainState:
    """What the engine needs about ``n`` players indexed 0..n-1 (player id = index + 1).

    The index order is the initial (seeding) order. Scores are in integer units: a win is
    worth ``win`` and a draw ``draw`` (half points by default, chess; ``win=3, draw=1`` is
    match scoring 3/1/0). The pairing-allocated bye is worth a win. ``ratings`` (by index,
    0 = unrated) are the prior of the ``posterior`` system's strength estimates, and
    ``game_half_points`` what each scored over the board in half points (their evidence,
    whatever the scoring).
    """

    n: int
    win: int = 2
    draw: int = 1
    ratings: np.ndarray | None = None
    score2: np.ndarray = field(init=False)
    color_diff: np.ndarray = field(init=False)
    met: np.ndarray = field(init=False)  # how often each two players met
    colors: list[np.ndarray] = field(init=False)  # one int8 array per round: +1 W, -1 B, 0 none
    byes: np.ndarray = field(init=False)  # pairing-allocated byes received
    game_half_points: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.score2 = np.zeros(self.n, dtype=np.int64)
        self.color_diff = np.zeros(self.n, dtype=np.int64)
        self.met = np.zeros((self.n, self.n), dtype=np.int16)
        self.colors = []
        self.byes = np.zeros(self.n, dtype=np.int64)
        self.game_half_points = np.zeros(self.n, dtype=np.int64)

    def record_round(self, games: list[tuple[int, int, int]], bye: int | None = None) -> None:
        """Add a played round: ``(white index, black index, white's half points 0/1/2)``, and
        the index of the player who had the pairing-allocated bye (worth a win)."""
        row = np.zeros(self.n, dtype=np.int8)
        if bye is not None:
            self.score2[bye] += self.win
            self.byes[bye] += 1
        units = (0, self.draw, self.win)  # by white's half points
        for w, b, half_points in games:
            self.score2[w] += units[half_points]
            self.score2[b] += units[2 - half_points]
            self.game_half_points[w] += half_points
            self.game_half_points[b] += 2 - half_points
            self.color_diff[w] += 1
            self.color_diff[b] -= 1
            self.met[w, b] += 1
            self.met[b, w] += 1
            row[w], row[b] = WHITE, BLACK
        self.colors.append(row)


_TRIU: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _triu(n: int) -> tuple[np.ndarray, np.ndarray]:
    pair = _TRIU.get(n)
    if pair is None:
        pair = _TRIU[n] = np.triu_indices(n, 1)
    return pair


PlainPairing = tuple[list[tuple[int, int]], int | None]


def pair_plain(
    state: PlainState,
    round_number: int,
    system: str,
    *,
    beta: Fraction,
    policy: str,
    seed: int,
    initial_color: Color | None,
    pi: np.ndarray | None = None,
    score_tier: str = "lexicographic",
) -> PlainPairing | None:
    """The engine's pairing of the next round: ``(white, black)`` indices in board order, and
    the index of the player who gets the pairing-allocated bye (``None`` for an even field).

    ``pi`` (an n x n int64 matrix of benefits, by player index) replaces the system term, like
    the engine's ``pi_override``. Returns ``None`` when no pairing exists (policy ``forbid``;
    the caller then asks the engine, which raises the engine's error).
    """
    n = state.n
    if system == "rating-gap" and pi is None:
        if state.ratings is None:
            raise ValueError("the rating-gap system needs the players' ratings")
        pi = gap_matrix(state.ratings, np.arange(1, n + 1))
    if system == "posterior" and pi is None:
        # rank -> player: score, then the posterior strength estimate, then seed
        key = order_key(plain_estimates(state))
        order = np.lexsort((np.arange(n), -key, -state.score2))
    else:
        order = np.lexsort((np.arange(n), -state.score2))  # rank -> player: score, then seed
    s = state.score2[order]
    _group, size, pos = _score_groups(state, order, s)
    iu, iv = _triu(n)
    times = state.met[order[iu], order[iv]]  # rank pairs u < v: how often they met
    met_at = np.flatnonzero(times)
    model = RoundModel(
        ids=order + 1, score=s, color_diff=state.color_diff[order], group_size=size,
        group_pos=pos, byes=state.byes[order],
        met=dict(zip((iu[met_at] * n + iv[met_at]).tolist(), times[met_at].tolist(),
                     strict=True)),
        forbidden=set(), forbid=policy == "forbid", use_colors=True, beta=beta, system=system,
        seed=seed, round_number=round_number,
        pi=None if pi is None else pi[np.ix_(order, order)], score_tier=score_tier,
    )
    mate = model.solve_small()
    if mate is False:  # too large for the dense solver: every edge through LEMON
        parts = list(model.blocks())
        us = np.concatenate([p[0] for p in parts])
        vs = np.concatenate([p[1] for p in parts])
        solution = solve(model.n_vertices, us, vs, model.benefits(us, vs), model.multipliers,
                         duals=False)
        mate = None if solution is None else solution.mate
    if mate is None:
        return None
    mates = [(u, int(v)) for u, v in enumerate(mate.tolist()) if u < v]
    bye = None
    games = []
    for u, v in mates:
        if v == n:
            bye = int(order[u])
        else:
            games.append((u, v))
    games.sort(key=lambda uv: (-s[uv[0]], -s[uv[1]], uv[0]))  # board order
    if initial_color is None:
        initial_color = random.Random(f"colour:{seed}").choice((Color.WHITE, Color.BLACK))
    initial = WHITE if initial_color is Color.WHITE else BLACK
    pairs = [
        _colours(state, int(order[u]), int(order[v]), board, initial)
        for board, (u, v) in enumerate(games, start=1)
    ]
    return pairs, bye


def plain_estimates(state: PlainState, **options: float) -> np.ndarray:
    """:func:`swiss.pairing.posterior.strength_estimates` of the players, from the arrays
    (``options``: its keyword options, such as the prior's ``rated_sd``)."""
    if state.ratings is None:
        raise ValueError("the posterior system needs the players' ratings (PlainState.ratings)")
    iu, iv = _triu(state.n)
    games = state.met[iu, iv]
    played = np.flatnonzero(games)
    points = state.game_half_points / 2.0  # byes are worth points but carry no information
    return strength_estimates(state.ratings, iu[played], iv[played], games[played], points,
                              **options)


def _score_groups(
    state: PlainState, order: np.ndarray, s: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per rank: its score group, the group's size and the position inside it (0 = best).

    As the engine does, an odd field leaves the *presumptive* bye receiver (the lowest-ranked
    among those with the fewest byes) out of the sizes and positions, as the paper's graph
    does; he is placed after the rest of his group, and an emptied group counts as size 1.
    """
    n = state.n
    starts = np.r_[0, np.flatnonzero(np.diff(s)) + 1]
    sizes = np.diff(np.r_[starts, n])
    group = np.repeat(np.arange(sizes.size), sizes)
    pos = np.arange(n) - starts[group]
    size = sizes[group]
    if n % 2:
        byes = state.byes[order]
        presumptive = int(np.flatnonzero(byes == byes.min())[-1])
        g = group[presumptive]
        members = group == g
        later = members & (np.arange(n) > presumptive)
        pos = pos - later  # the others close the gap he leaves
        pos[presumptive] = sizes[g] - 1
        size = np.where(members, max(sizes[g] - 1, 1), size)
    return group, size, pos


def _colours(state: PlainState, hi: int, lo: int, board: int, initial: int) -> tuple[int, int]:
    """The engine's colour rule for ``hi`` (better ranked) and ``lo``: (white, black)."""
    cd_hi, cd_lo = int(state.color_diff[hi]), int(state.color_diff[lo])
    if cd_hi != cd_lo:
        return (hi, lo) if cd_hi < cd_lo else (lo, hi)
    for row in reversed(state.colors):  # the last round in which their colours differed
        c_hi, c_lo = row[hi], row[lo]
        if c_hi and c_lo and c_hi != c_lo:
            return (hi, lo) if c_hi == BLACK else (lo, hi)
    due = _due(state, hi)
    if due:
        return (hi, lo) if due == WHITE else (lo, hi)
    due = _due(state, lo)
    if due:
        return (lo, hi) if due == WHITE else (hi, lo)
    top = initial if board % 2 == 1 else -initial
    return (hi, lo) if top == WHITE else (lo, hi)


def _due(state: PlainState, player: int) -> int:
    cd = int(state.color_diff[player])
    if cd:
        return BLACK if cd > 0 else WHITE
    for row in reversed(state.colors):
        if row[player]:
            return -int(row[player])
    return 0


# -- the paper's literal weights (an analysis tool) ---------------------------------------------
PAPER_SCORE_FACTOR = 10_000
PAPER_COLOUR_FACTOR = 100
_PAPER_SCALE = 10**6  # the real-valued weights in integer micro-units for the matching


def pair_plain_paper(
    state: PlainState,
    system: str,
    *,
    beta: Fraction,
    rng: np.random.Generator,
) -> PlainPairing | None:
    """Pair as the paper's implementation literally does, for comparison with our engine.

    The paper packs its weight vector as ``10000 * (-|s_i - s_j|) + 100 * (-|cd_i + cd_j|) + pi``
    with real-valued pi (``|r_i - r_j|**1.01`` and so on) and deletes the edges with
    ``|cd_i + cd_j| >= 2 * beta``; equal colour differences get random colours. With 32
    players those factors are *not* lexicographic: a matching's colour total can reach
    16 * 4 * 100 = 6400 > 10000 * 0.5, and its pi total exceeds 100 (Burstein up to about
    16 * 31**1.01). Our engine packs exactly; this function shows what the difference does.
    An odd field gives the bye to the lowest-ranked player without one, as the paper does.
    Returns ``None`` when the hard colour rule leaves no perfect matching.
    """
    n = state.n
    order = np.lexsort((np.arange(n), -state.score2))
    bye = None
    if n % 2:
        eligible = [int(p) for p in order if state.byes[p] == 0]
        if not eligible:
            return None
        bye = eligible[-1]
        order = order[order != bye]
        n -= 1
    s = state.score2[order] / 2.0
    c = state.color_diff[order]
    iu, iv = _triu(n)
    csum = np.abs(c[iu] + c[iv])
    allowed = ~state.met[order[iu], order[iv]] & (csum * beta.denominator < 2 * beta.numerator)
    d = (iv - iu).astype(np.float64)
    starts = np.r_[0, np.flatnonzero(np.diff(state.score2[order])) + 1]
    sizes = np.diff(np.r_[starts, n])
    group = np.repeat(np.arange(sizes.size), sizes)
    same = group[iu] == group[iv]
    if system == "monrad":
        pi = -d
    elif system == "burstein":
        pi = d**1.01
    elif system == "dutch":
        g = np.where(same, sizes[group[iu]], 0)
        pi = -(np.abs(g / 2.0 - d) ** 1.01)
    elif system == "random":
        pi = rng.random(iu.size)
    elif system == "random2":
        pos = np.arange(n) - starts[group]
        top = 2 * pos < sizes[group]
        cross = same & (top[iu] != top[iv])
        u = rng.random(iu.size)
        pi = np.where(cross, u, -u)
    else:
        raise ValueError(f"the paper has no system {system!r}")
    weight = (-PAPER_SCORE_FACTOR * np.abs(s[iu] - s[iv]) - PAPER_COLOUR_FACTOR * csum + pi)
    keep = np.flatnonzero(allowed)
    if keep.size == 0:
        return None if n else ([], bye)
    scaled = np.rint(weight[keep] * _PAPER_SCALE).astype(np.int64)
    scaled = scaled - scaled.min() + 1  # positive; a constant per edge changes nothing
    edges = list(zip(iu[keep].tolist(), iv[keep].tolist(), scaled.tolist(), strict=True))
    mates = max_weight_matching(n, edges, "rustworkx")
    if len(mates) < n // 2:
        return None
    coins = rng.random(len(mates))
    out = []
    for (u, v), coin in zip(sorted(mates), coins, strict=True):
        a, b = int(order[u]), int(order[v])
        cd_a, cd_b = state.color_diff[a], state.color_diff[b]
        if cd_a != cd_b:
            out.append((a, b) if cd_a < cd_b else (b, a))
        else:
            out.append((a, b) if coin < 0.5 else (b, a))
    return out, bye
