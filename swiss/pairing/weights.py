"""The lexicographic weight model of :mod:`swiss.pairing.mwm`, vectorised over arrays of edges.

:class:`RoundModel` holds what the weights of one round depend on, per vertex (rank order: the
vertex ``i`` is the ``i``-th player of the standings; the bye vertex, if any, is ``n``), and
computes the components of any set of edges ``(us, vs)`` with numpy, without building the
graph. The components, their order, names and signs are those documented in
:mod:`swiss.pairing.mwm` (repeat tiers, colour bound, bye rank, score difference, colour
term, the system's terms, the seeded tie-break).

Packing (:attr:`RoundModel.multipliers`): every perfect matching has the same number of edges
``P``, so component ``c`` only needs a multiplier larger than the largest possible difference
of the lower components' totals between two perfect matchings. Each component carries such a
bound (its *span*): ``P * high`` in general, but ``high`` for the bye rank (one bye edge per
matching), ``P`` for 0/1 components and ``n**2 / 4`` for Burstein's rank distance. The weights
stay exact integers, usually below 2**120 (the solver's fast 128-bit path) and always below
:data:`MAX_WEIGHT_BITS` bits, else :class:`~swiss.pairing.matching.WeightOverflowError`.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from swiss.pairing.matching import MAX_WEIGHT_BITS, WeightOverflowError

if TYPE_CHECKING:
    from swiss.model import Tournament
    from swiss.pairing.exact import Solution
    from swiss.pairing.types import PairingConfig

RANDOM_BITS = 20
TIEBREAK_BITS = 16
_MASK64 = (1 << 64) - 1
_BLOCK_PAIRS = 1 << 21  # pairs per block when the whole graph is scanned (memory bound)
# The systems' codes in the compiled model (blossom.cpp, model_benefits): all of them.
_NATIVE_SYSTEMS = ("monrad", "burstein", "dutch", "random", "random2", "override")
RUN = 32  # players per run of consecutive ranks when pricing skips pairs of runs by bounds
# The random systems' candidates: each player's partners with the largest random terms in its
# score group (their optimum sits on high draws that no position in the standings predicts).
# 10 rather than 8: with 8, Random's round 1 at 10,000 players left one violated pair for a
# second solve and pass (0.1 CPU s); 10 certifies at the first pass and costs ~10 % more edges
# in the first solve; round 7 at 1,000 and 3,000 players: the same.
RANDOM_PARTNERS = 10
# The compiled pricing pass runs on this many threads (the machines have 2 cores; the result is
# the same for any count) once a round has PARALLEL_FROM players: below, a pass takes a few
# milliseconds and a thread would cost more than it saves.
PRICING_THREADS = max(1, min(2, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                             else os.cpu_count() or 1))
PARALLEL_FROM = 1000
_SMALL_VERTICES = 128  # the dense solver's limit (swiss.pairing.exact.SMALL_VERTICES)


# Systems that share another system's weight terms and differ only in the order of the
# players: ``posterior`` is Burstein's terms over ranks by score, then posterior strength.
_SAME_TERMS = {"posterior": "burstein"}


def terms_of(system: str) -> str:
    """The system whose weight terms ``system`` uses (itself for all but ``posterior``)."""
    return _SAME_TERMS.get(system, system)


# The lexicographic score tier's span stays below 2**SCORE_COST_BITS (its costs are int64 in
# the compiled model, and every bit here is a bit of every packed weight): 40 bits hold the
# whole table up to about 100 players and keep a 1,000-player round within the solver's fast
# 128-bit range; larger rounds are exact on their smallest differences only (see below).
SCORE_COST_BITS = 40


def score_costs(
    score: np.ndarray, pairs: int, tier: str = "lexicographic"
) -> tuple[np.ndarray, int]:
    """The score tier's cost of a pair by its score difference ``d`` (``costs[d]``, integer
    units of :class:`RoundModel`), and the tier's span (the largest total of a perfect
    matching), for players with scores ``score`` and ``pairs`` pairs a matching.

    ``paper``: ``costs[d] = d``, the paper's sum of score differences. ``lexicographic``: fewer
    pairs at the largest difference first, then at the next, as the FIDE criteria do; a sum
    would let one 1.5-point float tie a 1-point and a 0.5-point one. Exact mixed-radix costs:
    level ``d`` costs one more than the most all smaller levels can add up to, each level
    ``e`` holding at most ``bound(e) = min(pairs, sum over s of min(|G_s|, |G_s+e|))`` pairs
    (``G_s`` the players on score ``s``). Where the whole table needs more than
    :data:`SCORE_COST_BITS` bits (large rounds), it is exact up to the largest level ``K``
    that fits, and above ``K`` it counts first the pairs beyond ``K`` (fewer is better: one
    such pair outweighs any number of smaller differences, two outweigh one), then the sum
    of their excess over ``K``. The floats of large rounds are nearly all small differences,
    which stay exactly lexicographic, and no system term can trade one long float for two.
    (In the largest rounds, where even the count does not fit, pairs beyond ``K`` compare by
    their excess alone; where not even ``K = 1`` fits, by the sum.)
    """
    values, counts = np.unique(score.astype(np.int64), return_counts=True)
    top = int(values[-1] - values[0]) if values.size else 0
    linear = np.arange(top + 1, dtype=np.int64)
    if tier == "paper" or top <= 1:
        return linear, pairs * top
    by_score = dict(zip(values.tolist(), counts.tolist(), strict=True))
    bounds = [0] + [
        min(pairs, sum(min(c, by_score.get(v + e, 0)) for v, c in by_score.items()))
        for e in range(1, top + 1)
    ]
    limit = 1 << SCORE_COST_BITS
    # levels 1..exact lexicographic; above, the count of pairs first (if it fits), then excess
    choices = [(k, True) for k in range(top, 0, -1)] + [(k, False) for k in range(top, 0, -1)]
    for exact, count_first in choices:
        costs = [0]
        total = 0  # the most the levels so far can add up to
        for d in range(1, exact + 1):
            costs.append(max(costs[-1] + 1, total + 1))
            total += costs[d] * bounds[d]
        below = total + 1  # a unit of excess outweighs every pair up to "exact"
        excess = sum((d - exact) * bounds[d] for d in range(exact + 1, top + 1))
        # a pair beyond "exact" outweighs all the excess
        beyond = below * (excess + 1) if count_first else 0
        for d in range(exact + 1, top + 1):
            costs.append(beyond + (d - exact) * below)
            total += costs[d] * bounds[d]
        if total < limit:
            return np.array(costs, dtype=np.int64), total
    return linear, pairs * top


_TRIU: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _triu(n: int) -> tuple[np.ndarray, np.ndarray]:
    pair = _TRIU.get(n)
    if pair is None:
        iu, iv = np.triu_indices(n, 1)
        pair = _TRIU[n] = (iu.astype(np.int64), iv.astype(np.int64))
        if len(_TRIU) > 64:  # a cache for the simulator's repeated sizes, not for every size
            _TRIU.clear()
    return pair


def _i64(a: np.ndarray) -> bytes:
    return np.ascontiguousarray(a, dtype="<i8").tobytes()


def _pair_hashes(base: int, a: np.ndarray, b: np.ndarray, ka: int, kb: int) -> np.ndarray:
    """splitmix64's finaliser over ``base + min(a, b) * ka + max(a, b) * kb`` (uint64,
    wrapping modulo 2**64 like ``& _MASK64`` on Python ints): the tie-break's and the random
    systems' seeded hash of an unordered pair, vectorised."""
    lo = np.minimum(a, b).astype(np.uint64)
    hi = np.maximum(a, b).astype(np.uint64)
    with np.errstate(over="ignore"):
        x = np.uint64(base) + lo * np.uint64(ka) + hi * np.uint64(kb)
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def tiebreak_hash(seed: int, round_number: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The engine's seeded 16-bit pair hash (splitmix64 of the unordered pair), vectorised.

    Player ids ``a`` and ``b``; the bye uses id 0. Independent of PYTHONHASHSEED.
    """
    x = _pair_hashes(_seed_word(seed, round_number), a, b, 0x94D049BB133111EB,
                     0x2545F4914F6CDD1D)
    return (x >> np.uint64(64 - TIEBREAK_BITS)).astype(np.int64)


# The random systems' draws: a counter-based hash of the round's seed word and the pair of
# player ids (splitmix64's finaliser, other multipliers than the tie-break's, the seed word
# xored with _DRAW_SALT), mapped onto 1 .. 2**RANDOM_BITS - 1 by a multiply and shift. Any
# pair's draw is made on demand, so nothing of the round grows with the square of the players;
# the compiled model (blossom.cpp, pair_draw) makes the same.
_DRAW_SALT = 0xD1B54A32D192ED03
_DRAW_LO, _DRAW_HI = 0xA24BAED4963EE407, 0x9FB21C651E98DF25
_DRAW_RANGE = (1 << RANDOM_BITS) - 1


def _seed_word(seed: int, round_number: int) -> int:
    return (seed * 0x9E3779B97F4A7C15 + round_number * 0xBF58476D1CE4E5B9) & _MASK64


def pair_draws(seed: int, round_number: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The random systems' draw (``1 .. 2**RANDOM_BITS - 1``) of each unordered pair of player
    ids ``a[i]``, ``b[i]``, vectorised; :func:`pair_draw` for one pair."""
    x = _pair_hashes(_seed_word(seed, round_number) ^ _DRAW_SALT, a, b, _DRAW_LO, _DRAW_HI)
    return (((x >> np.uint64(32)) * np.uint64(_DRAW_RANGE)) >> np.uint64(32)).astype(np.int64) + 1


def pair_draw(seed: int, round_number: int, a: int, b: int) -> int:
    """:func:`pair_draws` of one pair, in Python integers (the dense reference's draw)."""
    lo, hi = (a, b) if a < b else (b, a)
    x = ((_seed_word(seed, round_number) ^ _DRAW_SALT) + lo * _DRAW_LO + hi * _DRAW_HI) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    x ^= x >> 31
    return (((x >> 32) * _DRAW_RANGE) >> 32) + 1


class RoundModel:
    """Per-vertex data of one round and the weight components of any edges, vectorised.

    ``entrants`` are the players in rank order (see :func:`swiss.pairing.mwm.pairing_graph`);
    ``pi`` (optional, ``n x n`` by vertex, non-negative) replaces the system term.
    """

    def __init__(
        self,
        *,
        ids: np.ndarray,
        score: np.ndarray,
        color_diff: np.ndarray,
        group_size: np.ndarray,
        group_pos: np.ndarray,
        byes: np.ndarray,
        met: dict[int, int],
        forbidden: set[int],
        forbid: bool,
        use_colors: bool,
        beta: Fraction,
        system: str,
        seed: int,
        round_number: int,
        pi: np.ndarray | None = None,
        score_tier: str = "lexicographic",
    ) -> None:
        """Per vertex in rank order: player ids, scores in integer units, colour differences,
        score-group sizes and positions, byes had (unplayed wins); ``met`` maps the key
        ``u * n + v`` (``u < v``) of pairs that met to how often, ``forbidden`` holds the keys
        of pairs that must never meet; ``score_tier`` is :func:`score_costs`'s ``tier``."""
        n = int(ids.size)
        self.n = n
        self.has_bye = n % 2 == 1
        self.n_vertices = n + (1 if self.has_bye else 0)
        self.pairs = self.n_vertices // 2
        self.forbid = forbid
        self.colors = use_colors
        # |cd_i + cd_j| is an integer, so ">= 2*beta" is ">= ceil(2*beta)" (exact)
        self.bound = math.ceil(2 * beta)
        self.system = "override" if pi is not None else terms_of(system)
        self.seed = seed
        self.round_number = round_number
        self.pi = pi
        self.ids = ids.astype(np.int64)
        self.score = score.astype(np.int64)
        self.cd = color_diff.astype(np.int64)
        self.gsize = group_size.astype(np.int64)
        self.gpos = group_pos.astype(np.int64)
        self.byes = byes.astype(np.int64)
        self.score_cost, self.score_span = score_costs(self.score, self.pairs, score_tier)
        met = {key: times for key, times in met.items() if times and key not in forbidden}
        keys = sorted(met)
        self.met_keys = np.array(keys, dtype=np.int64)
        self.met_times = np.array([met[k] for k in keys], dtype=np.int64)
        # Under "forbid" the colour bound is absolute: those pairs are not edges either.
        self.hard_colours = forbid and use_colors
        # Pairs that are not edges of the graph at all (no weight, no random draw); those
        # beyond a hard colour bound are counted separately (they can be most of the graph).
        excluded = set(forbidden) | (set(met) if forbid else set())
        if self.hard_colours and excluded:
            keys_arr = np.array(sorted(excluded), dtype=np.int64)
            over = np.abs(self.cd[keys_arr // n] + self.cd[keys_arr % n]) >= self.bound
            excluded -= set(keys_arr[over].tolist())
        self.excluded_keys = np.array(sorted(excluded), dtype=np.int64)
        multiplicities = set() if forbid else set(met.values())
        if self.has_bye and not forbid:
            multiplicities |= set(np.unique(self.byes[self.byes > 0]).tolist())
        # Every multiplicity from the highest down to 1 gets a tier, as in the engine.
        self.tiers = list(range(max(multiplicities, default=0), 0, -1))
        self._table: tuple[bytes, np.ndarray, np.ndarray] | None = None  # random_draws
        self._define_components()

    @classmethod
    def for_tournament(
        cls,
        tournament: Tournament,
        config: PairingConfig,
        entrants: Sequence,  # list[mwm._Entrant], in rank order
        seed: int,
        round_number: int,
        pi: np.ndarray | None = None,
    ) -> RoundModel:
        """The model of the next round of ``tournament`` (see :func:`swiss.pairing.mwm`)."""
        n = len(entrants)
        index = {e.player.id: i for i, e in enumerate(entrants)}
        met: dict[int, int] = {}
        for i, e in enumerate(entrants):
            for other, times in e.state.opponents.items():
                j = index.get(other)
                if j is not None and i < j and times:
                    met[i * n + j] = times
        forbidden = set()
        for pair in tournament.forbidden_pairs:
            a, b = sorted(pair)
            i, j = index.get(a), index.get(b)
            if i is not None and j is not None:
                forbidden.add(min(i, j) * n + max(i, j))

        def column(values: list[int]) -> np.ndarray:
            return np.array(values, dtype=np.int64)

        return cls(
            ids=column([e.player.id for e in entrants]),
            score=column([e.score_units for e in entrants]),
            color_diff=column([e.color_diff for e in entrants]),
            group_size=column([e.group_size for e in entrants]),
            group_pos=column([e.group_pos for e in entrants]),
            byes=column([e.state.unplayed_wins for e in entrants]),
            met=met,
            forbidden=forbidden,
            forbid=config.policy == "forbid",
            use_colors=tournament.use_colors,
            beta=config.beta,
            system=config.system,
            seed=seed,
            round_number=round_number,
            pi=pi,
            score_tier=config.score_tier,
        )

    # -- the components ----------------------------------------------------------------------
    def _define_components(self) -> None:
        n, pairs = self.n, self.pairs
        names: list[str] = []
        signs: list[int] = []
        highs: list[int] = []
        spans: list[int] = []

        def add(name: str, sign: int, high: int, span: int | None = None) -> None:
            names.append(name)
            signs.append(sign)
            highs.append(int(high))
            spans.append(int(min(span, pairs * high) if span is not None else pairs * high))

        for k in self.tiers:
            add(f"repeat x{k}", -1, 1)
        if self.colors:
            add("colour bound", -1, 1)
        if self.has_bye:
            add("bye rank", -1, max(n - 1, 0), max(n - 1, 0))
        add("score difference", -1, int(self.score_cost[-1]), self.score_span)
        if self.colors:
            add("colour", -1, 2 * int(np.abs(self.cd).max()) if n else 0)
        last = max(n - 1, 0)
        system = self.system
        if system == "monrad":
            add("rank distance", -1, last)
        elif system == "burstein":
            add("rank distance", +1, last, n * n // 4)
            add("rank distance squared", +1, last * last)
        elif system == "dutch":
            off = max(int(self.gsize.max()) if n else 0, 2 * last)
            add("distance from half group", -1, off)
            add("its square", -1, off * off)
        elif system == "random":
            add("random", +1, (1 << RANDOM_BITS) - 1)
        elif system == "random2":
            add("random", +1, (1 << (RANDOM_BITS + 1)) - 1)
        elif system == "override":
            assert self.pi is not None
            add("override", +1, int(self.pi.max()) if self.pi.size else 0)
        else:
            raise ValueError(f"system {system!r} is not a maximum-weight-matching system")
        add("tie-break", +1, (1 << TIEBREAK_BITS) - 1)
        self.names, self.signs, self.highs, self.spans = names, signs, highs, spans
        multipliers = [0] * len(names)
        m = 1
        for c in range(len(names) - 1, -1, -1):
            multipliers[c] = m
            m *= spans[c] + 1
        self.multipliers = multipliers
        self.max_weight = sum(h * mult for h, mult in zip(highs, multipliers, strict=True))
        if self.max_weight.bit_length() > MAX_WEIGHT_BITS:
            raise WeightOverflowError(
                f"the packed weights of this round need {self.max_weight.bit_length()} bits; "
                f"the exact matching handles at most {MAX_WEIGHT_BITS} bits "
                f"({len(names)} components for {n} players)"
            )

    def raw(self, us: np.ndarray, vs: np.ndarray) -> list[np.ndarray]:
        """The raw component values (costs positive, lower is better) of edges ``us < vs``."""
        n = self.n
        bye = vs == n
        if not bye.any():  # most blocks: no bye edge, so no masking (a third of the time)
            return self._raw_players(us, vs)
        vv = np.where(bye, 0, vs)  # a harmless index for the bye edges' player-pair terms
        player = ~bye
        out: list[np.ndarray] = []
        if self.tiers:
            mult = self.times_met(us, vv)
            mult = np.where(bye, self.byes[us], mult)
            out += [(mult == k).astype(np.int64) for k in self.tiers]
        csum = np.abs(self.cd[us] + self.cd[vv])
        if self.colors:
            out.append(np.where(player, csum >= self.bound, 0).astype(np.int64))
        if self.has_bye:
            out.append(np.where(bye, n - 1 - us, 0))
        out.append(np.where(player, self.score_cost[np.abs(self.score[us] - self.score[vv])], 0))
        if self.colors:
            out.append(np.where(player, csum, 0))
        for values in self._system(us, vv):
            out.append(np.where(player, values, 0))
        other = np.where(bye, 0, self.ids[vv])
        out.append(tiebreak_hash(self.seed, self.round_number, self.ids[us], other))
        return out

    def _raw_players(self, us: np.ndarray, vs: np.ndarray) -> list[np.ndarray]:
        """:meth:`raw` for player pairs only (no bye edge among them)."""
        out: list[np.ndarray] = []
        if self.tiers:
            mult = self.times_met(us, vs)
            out += [(mult == k).astype(np.int64) for k in self.tiers]
        csum = np.abs(self.cd[us] + self.cd[vs])
        if self.colors:
            out.append((csum >= self.bound).astype(np.int64))
        if self.has_bye:
            out.append(np.zeros(us.size, dtype=np.int64))
        out.append(self.score_cost[np.abs(self.score[us] - self.score[vs])])
        if self.colors:
            out.append(csum)
        out += self._system(us, vs)
        out.append(tiebreak_hash(self.seed, self.round_number, self.ids[us], self.ids[vs]))
        return out

    def benefits(self, us: np.ndarray, vs: np.ndarray) -> np.ndarray:
        """The components as non-negative benefits, shape ``(components, edges)``, int64."""
        raw = self.raw(us, vs)
        out = np.empty((len(raw), us.size), dtype=np.int64)
        for c, values in enumerate(raw):
            out[c] = values if self.signs[c] > 0 else self.highs[c] - values
        return out

    def weight(self, benefits: np.ndarray) -> list[int]:
        """Exact packed weights (Python ints) of edges given by their benefit columns."""
        total = [0] * benefits.shape[1]
        for c, mult in enumerate(self.multipliers):
            column = benefits[c].tolist()
            total = [t + b * mult for t, b in zip(total, column, strict=True)]
        return total

    def times_met(self, us: np.ndarray, vs: np.ndarray) -> np.ndarray:
        """How often each pair of vertices met before (0 for forbidden pairs)."""
        if not self.met_keys.size:
            return np.zeros(us.size, dtype=np.int64)
        keys = us * self.n + vs
        pos = np.searchsorted(self.met_keys, keys)
        pos = np.minimum(pos, self.met_keys.size - 1)
        return np.where(self.met_keys[pos] == keys, self.met_times[pos], 0)

    def _system(self, us: np.ndarray, vs: np.ndarray) -> list[np.ndarray]:
        system = self.system
        if system == "override":
            assert self.pi is not None
            return [self.pi[us, vs].astype(np.int64)]
        d = np.abs(vs - us).astype(np.int64)
        if system == "monrad":
            return [d]
        if system == "burstein":
            return [d, d * d]
        same = self.score[us] == self.score[vs]
        if system == "dutch":
            g = np.where(same, self.gsize[us], 0)
            off = np.abs(g - 2 * d)
            return [off, off * off]
        values = self._random(us, vs)
        if system == "random2":
            top = 2 * self.gpos < self.gsize
            values = values + np.where(same & (top[us] != top[vs]), 1 << RANDOM_BITS, 0)
        return [values]

    def _random(self, us: np.ndarray, vs: np.ndarray) -> np.ndarray:
        """The random systems' draw of each pair (:func:`pair_draws` of their ids)."""
        return pair_draws(self.seed, self.round_number, self.ids[us], self.ids[vs])

    def random_draws(self) -> tuple[bytes, np.ndarray, np.ndarray]:
        """What the random systems' pricing and candidates need of the draws (:func:`pair_draws`),
        made in compiled code in one walk over the pairs, a row at a time (nothing of the
        square of the players is stored): per player ``u`` and run ``j`` of :data:`RUN` ranks
        the largest draw of the pairs ``(u, v > u)``, ``v`` in run ``j`` (int32 bytes: the
        compiled pass's bound of a row); the largest draw of each pair of runs (in
        ``np.triu_indices`` order, for the pricing bounds); and, shape ``(2, edges)``, each
        player's :data:`RANDOM_PARTNERS` partners in its score group with the largest random
        term (candidate edges, see :mod:`swiss.pairing.sparse`)."""
        if self._table is None:
            from swiss.pairing import _blossom  # type: ignore[attr-defined]

            segmax, runmax, pu, pv = _blossom.random_table(
                (*self._spec_base(), b"", b"", RUN, b""), RUN, RANDOM_PARTNERS,
                PRICING_THREADS if self.n >= PARALLEL_FROM else 1,
            )
            partners = np.vstack([np.frombuffer(pu or b"", dtype="<i8"),
                                  np.frombuffer(pv or b"", dtype="<i8")]).astype(np.int64)
            self._table = (segmax, np.frombuffer(runmax, dtype=np.int64), partners)
        return self._table

    # -- the edges ---------------------------------------------------------------------------
    def allowed(self, us: np.ndarray, vs: np.ndarray) -> np.ndarray:
        """Which edges ``(us, vs)`` (``us < vs``) are in the graph of allowed pairings."""
        n = self.n
        ok = np.ones(us.size, dtype=bool)
        bye = vs == n
        if self.excluded_keys.size:
            keys = us * n + np.where(bye, 0, vs)
            pos = np.minimum(np.searchsorted(self.excluded_keys, keys), self.excluded_keys.size - 1)
            ok &= ~((self.excluded_keys[pos] == keys) & ~bye)
        if self.forbid and self.has_bye:
            ok &= ~(bye & (self.byes[us] > 0))
        if self.hard_colours:
            vv = np.where(bye, 0, vs)
            ok &= bye | (np.abs(self.cd[us] + self.cd[vv]) < self.bound)
        return ok

    def blocks(self, solution: Solution | None = None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Every allowed edge of the full graph that may violate ``solution``'s duals.

        Without a solution: every allowed edge, a block of rows at a time (bye edges first).
        With one, the players are cut into runs of :data:`RUN` consecutive ranks, and a pair of
        runs is skipped when an exact upper bound of its edges' weights (per component, the
        best value any pair of the two runs can reach) shows that no edge between them can
        violate the duals: ``min y(run 1) + min y(run 2) >= 4 * bound`` (blossom terms only
        add to the left side). The bound check is itself one call of the exact pricing.
        """
        if solution is not None and self.n > 2 * RUN:
            yield from self._pruned_blocks(solution)
            return
        n = self.n
        if self.has_bye:
            us = np.arange(n, dtype=np.int64)
            vs = np.full(n, n, dtype=np.int64)
            keep = self.allowed(us, vs)
            yield us[keep], vs[keep]
        if n * (n - 1) // 2 <= _BLOCK_PAIRS:  # one block: the cached upper triangle
            us, vs = _triu(n)
            keep = self.allowed(us, vs)
            yield us[keep], vs[keep]
            return
        start = 0
        while start < n - 1:
            rows = 1
            while start + rows < n - 1 and (rows + 1) * (n - start) <= _BLOCK_PAIRS:
                rows += 1
            us_list, vs_list = [], []
            for u in range(start, start + rows):
                us_list.append(np.full(n - u - 1, u, dtype=np.int64))
                vs_list.append(np.arange(u + 1, n, dtype=np.int64))
            us = np.concatenate(us_list)
            vs = np.concatenate(vs_list)
            keep = self.allowed(us, vs)
            yield us[keep], vs[keep]
            start += rows

    def _pruned_blocks(self, solution: Solution) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        if self.has_bye:
            yield self._bye_edges()
        ri, rj, starts, ends, _ub = self._run_pairs(solution)
        batch_u: list[np.ndarray] = []
        batch_v: list[np.ndarray] = []
        size = 0
        for i, j in zip(ri.tolist(), rj.tolist(), strict=True):
            a = np.arange(starts[i], ends[i], dtype=np.int64)
            b = np.arange(starts[j], ends[j], dtype=np.int64)
            us = np.repeat(a, b.size)
            vs = np.tile(b, a.size)
            if i == j:
                upper = us < vs
                us, vs = us[upper], vs[upper]
            batch_u.append(us)
            batch_v.append(vs)
            size += us.size
            if size >= _BLOCK_PAIRS:
                yield self._allowed_only(batch_u, batch_v)
                batch_u, batch_v, size = [], [], 0
        if batch_u:
            yield self._allowed_only(batch_u, batch_v)

    def _bye_edges(self) -> tuple[np.ndarray, np.ndarray]:
        n = self.n
        us = np.arange(n, dtype=np.int64)
        vs = np.full(n, n, dtype=np.int64)
        keep = self.allowed(us, vs)
        return us[keep], vs[keep]

    # -- the compiled pricing pass -----------------------------------------------------------
    @property
    def native(self) -> bool:
        """Whether :meth:`price_pass` can price in compiled code (every system)."""
        return self.system in _NATIVE_SYSTEMS

    def _spec_base(self) -> tuple:
        """The per-vertex arrays and flags of :meth:`native_spec`, without the draws and the
        override matrix."""
        spec = getattr(self, "_base", None)
        if spec is None:
            n = self.n
            rows = np.arange(n + 1, dtype=np.int64) * n
            met_off = np.searchsorted(self.met_keys, rows).astype(np.int64)
            exc_off = np.searchsorted(self.excluded_keys, rows).astype(np.int64)
            base = (self.seed * 0x9E3779B97F4A7C15 + self.round_number * 0xBF58476D1CE4E5B9) \
                & _MASK64
            spec = self._base = (
                n, self.n_vertices, _NATIVE_SYSTEMS.index(self.system), self.colors,
                self.hard_colours, self.has_bye, self.bound, base,
                _i64(self.score), _i64(self.cd), _i64(self.gsize), _i64(self.ids),
                _i64(self.met_keys), _i64(self.met_times), _i64(met_off),
                _i64(self.excluded_keys), _i64(exc_off),
                _i64(np.array(self.tiers, dtype=np.int64)), _i64(np.array(self.highs, np.int64)),
                _i64(self.gpos),
            )
        return spec

    def native_spec(self) -> tuple:
        """The per-vertex arrays and flags the compiled restatement of :meth:`_raw_players`
        reads (``swiss/pairing/_native/blossom.cpp``, ``model_benefits``): with the random
        systems' row maxima of the draws (:meth:`random_draws`; the draws themselves are made
        there, ``pair_draw``), the override matrix and the score tier's costs by score
        difference (:func:`score_costs`)."""
        spec = getattr(self, "_spec", None)
        if spec is None:
            segmax = b""
            if self.system in ("random", "random2"):
                segmax = self.random_draws()[0]
            pi = _i64(self.pi) if self.system == "override" else b""
            spec = self._spec = (*self._spec_base(), b"", segmax, RUN, pi,
                                 _i64(self.score_cost))
        return spec

    def solve_small(self) -> np.ndarray | bool | None:
        """The mates of a maximum weight perfect matching of the whole graph (player pairs'
        components computed in compiled code, bye edges from :meth:`benefits`), by the dense
        solver of small graphs: ``None`` if the graph has no perfect matching, ``False`` if
        the round is too large for that solver (then use :func:`swiss.pairing.exact.solve`).
        No duals: the simulator's pairing."""
        from swiss.pairing import _blossom  # type: ignore[attr-defined]
        from swiss.pairing.exact import _to_bytes

        if self.n_vertices > _SMALL_VERTICES:
            return False
        bye_us = self._bye_edges()[0] if self.has_bye else np.zeros(0, dtype=np.int64)
        bye_comps = (self.benefits(bye_us, np.full(bye_us.size, self.n, dtype=np.int64))
                     if bye_us.size else np.zeros((len(self.names), 0), dtype=np.int64))
        mate = _blossom.solve_model_small(
            self.native_spec(), _i64(bye_us), np.ascontiguousarray(bye_comps, "<i8").tobytes(),
            _to_bytes(self.multipliers),
        )
        if mate is None or mate is False:
            return mate
        return np.frombuffer(mate, dtype="<i8")

    def price_pass(
        self, solution: Solution, laminar: object, narrow: bool, threads: int | None = None
    ) -> tuple[np.ndarray, np.ndarray, int]:
        """One full pricing pass of the round's graph against ``solution``'s duals: the keys
        ``u * n_vertices + v`` of the violated edges, their reduced costs (floats) and the
        number of edges priced. Player pairs are priced in compiled code, run pair by run
        pair (skipping those :meth:`_run_pairs` proves feasible), on ``threads`` threads
        (default :data:`PRICING_THREADS` from :data:`PARALLEL_FROM` players; the output is
        the same for any count); bye edges with numpy."""
        if threads is None:
            threads = PRICING_THREADS if self.n >= PARALLEL_FROM else 1
        from swiss.pairing import _blossom  # type: ignore[attr-defined]
        from swiss.pairing.exact import _to_bytes, price

        nv = self.n_vertices
        keys: list[np.ndarray] = []
        slacks: list[np.ndarray] = []
        priced = 0
        if self.has_bye:
            bu, bv = self._bye_edges()
            priced += bu.size
            bad, slack = price(solution, nv, bu, bv, self.benefits(bu, bv), self.multipliers,
                               laminar, narrow)  # type: ignore[arg-type]
            keys.append(bu[bad] * nv + bv[bad])
            slacks.append(slack)
        ri, rj, starts, ends, ub = self._run_pairs(solution)
        bad_b, slack_b, count = _blossom.price_model(
            self.native_spec(), _i64(ri), _i64(rj), _i64(starts), _i64(ends), _i64(ub),
            _to_bytes(self.multipliers), _to_bytes(solution.y),
            *laminar.args(), narrow, threads,  # type: ignore[attr-defined]
        )
        keys.append(np.frombuffer(bad_b or b"", dtype="<i8").astype(np.int64))
        slacks.append(np.frombuffer(slack_b or b"", dtype="<f8"))
        return np.concatenate(keys), np.concatenate(slacks), priced + count

    def native_components(
        self, us: np.ndarray, vs: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """The compiled restatement's benefits of player pairs ``us < vs`` and whether each
        is an edge (for the test holding it to :meth:`benefits`)."""
        from swiss.pairing import _blossom  # type: ignore[attr-defined]

        comps, ok = _blossom.model_components(self.native_spec(), _i64(us), _i64(vs))
        k = len(self.names)
        matrix = np.frombuffer(comps or b"", dtype="<i8").reshape(k, us.size)
        return matrix, np.frombuffer(ok or b"", dtype=np.uint8).astype(bool)

    def _run_pairs(
        self, solution: Solution
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The pairs of runs (``ri <= rj``, run ``i`` = ranks ``starts[i]:ends[i]``) whose
        edges may violate ``solution``'s duals (the others are proved feasible by bounds),
        and the bounds of their components (shape ``(components, pairs)``, see
        :meth:`_run_bounds`)."""
        from swiss.pairing.exact import Solution as _Solution
        from swiss.pairing.exact import price

        n = self.n
        starts = np.arange(0, n, RUN, dtype=np.int64)
        ends = np.minimum(starts + RUN, n)
        runs = starts.size
        y = solution.y
        ymin = [min(y[a:b]) for a, b in zip(starts.tolist(), ends.tolist(), strict=True)]

        def span(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            lo = np.minimum.reduceat(values, starts)
            hi = np.maximum.reduceat(values, starts)
            return lo, hi

        smin, smax = span(self.score)
        cmin, cmax = span(self.cd)
        gmin, gmax = span(self.gsize)
        ri, rj = np.triu_indices(runs)
        ri = ri.astype(np.int64)
        rj = rj.astype(np.int64)
        ub = self._run_bounds(ri, rj, starts, ends, smin, smax, cmin, cmax, gmin, gmax)
        pseudo = _Solution(np.zeros(0, dtype=np.int64), ymin + ymin, [], False)
        maybe, _slack = price(pseudo, 2 * runs, ri, rj + runs, ub, self.multipliers)
        return ri[maybe], rj[maybe], starts, ends, np.ascontiguousarray(ub[:, maybe])

    def _allowed_only(
        self, us_parts: list[np.ndarray], vs_parts: list[np.ndarray]
    ) -> tuple[np.ndarray, np.ndarray]:
        us = np.concatenate(us_parts)
        vs = np.concatenate(vs_parts)
        keep = self.allowed(us, vs)
        return us[keep], vs[keep]

    def _run_bounds(
        self,
        ri: np.ndarray,
        rj: np.ndarray,
        starts: np.ndarray,
        ends: np.ndarray,
        smin: np.ndarray,
        smax: np.ndarray,
        cmin: np.ndarray,
        cmax: np.ndarray,
        gmin: np.ndarray,
        gmax: np.ndarray,
    ) -> np.ndarray:
        """Per pair of runs (``ri <= rj``), the largest benefit of each component that any
        player pair of the two runs can have: shape ``(components, pairs)``."""
        k = len(self.names)
        out = np.empty((k, ri.size), dtype=np.int64)
        lo = cmin[ri] + cmin[rj]
        hi = cmax[ri] + cmax[rj]
        csum_min = np.where((lo <= 0) & (hi >= 0), 0, np.minimum(np.abs(lo), np.abs(hi)))
        sdiff_min = np.maximum(0, np.maximum(smin[rj] - smax[ri], smin[ri] - smax[rj]))
        same_possible = sdiff_min == 0
        dmin = np.where(ri == rj, 1, starts[rj] - (ends[ri] - 1))
        dmax = (ends[rj] - 1) - starts[ri]
        c = 0
        for _k in self.tiers:
            out[c] = 1
            c += 1
        if self.colors:
            out[c] = 1 - (csum_min >= self.bound)
            c += 1
        if self.has_bye:
            out[c] = self.highs[c]
            c += 1
        out[c] = self.highs[c] - self.score_cost[sdiff_min]
        c += 1
        if self.colors:
            out[c] = self.highs[c] - csum_min
            c += 1
        system = self.system
        if system == "monrad":
            out[c] = self.highs[c] - dmin
            c += 1
        elif system == "burstein":
            out[c] = dmax
            out[c + 1] = dmax * dmax
            c += 2
        elif system == "dutch":
            # off = |g - 2d| with g = 0 (different scores) or a group size (same score)
            off = 2 * dmin
            gap = np.maximum(0, np.maximum(gmin[ri] - 2 * dmax, 2 * dmin - gmax[ri]))
            off = np.where(same_possible, np.minimum(off, gap), off)
            out[c] = self.highs[c] - off
            out[c + 1] = self.highs[c + 1] - off * off
            c += 2
        elif system in ("random", "random2"):
            # the largest draw between the two runs; Random2's bonus only inside a score group
            runmax = self.random_draws()[1]
            runs = starts.size
            pair = ri * runs - ri * (ri - 1) // 2 + (rj - ri)
            bonus = np.where(same_possible, 1 << RANDOM_BITS, 0) if system == "random2" else 0
            out[c] = runmax[pair] + bonus
            c += 1
        else:  # overrides: no structure to bound
            out[c] = self.highs[c]
            c += 1
        out[c] = self.highs[c]  # tie-break
        return out
