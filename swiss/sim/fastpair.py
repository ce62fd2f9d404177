"""The engine's pairing, vectorised for the simulator's plain tournaments.

:mod:`swiss.pairing.mwm` is written for every real-world case (byes, withdrawals, requested
byes, forbidden pairs, explanations) and derives each player's state from the rounds; that
costs milliseconds per round for 32 players, most of it Python loops over the 496 edges. A
simulation plays millions of rounds of one plain case: everybody plays every round (or has the
pairing-allocated bye); no withdrawals, requested byes or forbidden pairs. For that case this
module builds the *same* weighted graph from arrays the simulator keeps up to date (scores,
colour differences, colour history, byes, who met whom) with numpy, and returns the *same*
pairing and colours:

* the same lexicographic components in the same order (colour bound, bye rank, score
  difference, colour term, the system's pi, the seeded tie-break hash), the same random draws
  for Random and Random2, the same ranks, score groups (without the presumptive bye receiver
  in an odd field), board order and colour rules;
* rematch edges and second byes are left out: whenever a pairing without them exists (always,
  for up to n/2 rounds), the engine's repeat tiers make it choose one too. Under ``forbid`` the
  edges beyond the colour bound are left out too, as the engine leaves them out. If no pairing
  exists we return ``None`` and the caller pairs that round with the engine itself.

Packing differs (fixed per-round multipliers), which cannot change the lexicographic optimum,
and the tie-break makes that optimum unique in practice. ``tests/test_sim_fastpair.py`` checks
pairings and colours against :func:`swiss.pairing.pair_round` round by round.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from swiss.model import Color
from swiss.pairing.matching import max_weight_matching
from swiss.pairing.mwm import RANDOM_BITS, TIEBREAK_BITS

WHITE, BLACK = 1, -1
_MASK64 = (1 << 64) - 1
_WORD_LIMIT = 1 << 62  # one packed int64 word stays below this
FAST_SYSTEMS = ("dutch", "burstein", "monrad", "random", "random2")


@dataclass(slots=True)
class PlainState:
    """What the engine needs about ``n`` players indexed 0..n-1 (player id = index + 1).

    The index order is the initial (seeding) order. Scores are in half points.
    """

    n: int
    score2: np.ndarray = field(init=False)
    color_diff: np.ndarray = field(init=False)
    met: np.ndarray = field(init=False)
    colors: list[np.ndarray] = field(init=False)  # one int8 array per round: +1 W, -1 B, 0 none
    byes: np.ndarray = field(init=False)  # pairing-allocated byes received

    def __post_init__(self) -> None:
        self.score2 = np.zeros(self.n, dtype=np.int64)
        self.color_diff = np.zeros(self.n, dtype=np.int64)
        self.met = np.zeros((self.n, self.n), dtype=bool)
        self.colors = []
        self.byes = np.zeros(self.n, dtype=np.int64)

    def record_round(self, games: list[tuple[int, int, int]], bye: int | None = None) -> None:
        """Add a played round: ``(white index, black index, white's half points 0/1/2)``, and
        the index of the player who had the pairing-allocated bye (worth a win)."""
        row = np.zeros(self.n, dtype=np.int8)
        if bye is not None:
            self.score2[bye] += 2
            self.byes[bye] += 1
        for w, b, half_points in games:
            self.score2[w] += half_points
            self.score2[b] += 2 - half_points
            self.color_diff[w] += 1
            self.color_diff[b] -= 1
            self.met[w, b] = self.met[b, w] = True
            row[w], row[b] = WHITE, BLACK
        self.colors.append(row)


_TRIU: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _triu(n: int) -> tuple[np.ndarray, np.ndarray]:
    pair = _TRIU.get(n)
    if pair is None:
        pair = _TRIU[n] = np.triu_indices(n, 1)
    return pair


def tiebreak_hash(seed: int, round_number: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The engine's seeded 16-bit pair hash (splitmix64 of the unordered pair), vectorised."""
    lo = np.minimum(a, b).astype(np.uint64)
    hi = np.maximum(a, b).astype(np.uint64)
    base = (seed * 0x9E3779B97F4A7C15 + round_number * 0xBF58476D1CE4E5B9) & _MASK64
    # uint64 array arithmetic wraps modulo 2**64, exactly like the engine's "& _MASK64".
    x = np.uint64(base) + lo * np.uint64(0x94D049BB133111EB) + hi * np.uint64(0x2545F4914F6CDD1D)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return (x >> np.uint64(64 - TIEBREAK_BITS)).astype(np.int64)


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
) -> PlainPairing | None:
    """The engine's pairing of the next round: ``(white, black)`` indices in board order, and
    the index of the player who gets the pairing-allocated bye (``None`` for an even field).

    ``pi`` (an n x n int64 matrix of benefits, by player index) replaces the system term, like
    the engine's ``pi_override``. Returns ``None`` when no pairing exists without a rematch or
    a second bye (the caller then asks the engine, whose repeat tiers handle that case).
    """
    n = state.n
    has_bye = n % 2 == 1
    order = np.lexsort((np.arange(n), -state.score2))  # rank -> player: score, then seed
    s = state.score2[order]
    c = state.color_diff[order]
    iu, iv = _triu(n)
    pa, pb = order[iu], order[iv]
    allowed = ~state.met[pa, pb]

    csum = np.abs(c[iu] + c[iv])
    beyond_bound = csum * beta.denominator >= 2 * beta.numerator
    if policy == "forbid":
        # As in the engine, "forbid" makes the colour bound absolute: those edges are not in
        # its graph at all (and get no random draw below).
        allowed &= ~beyond_bound
    zeros = np.zeros(iu.size, dtype=np.int64)
    components: list[tuple[np.ndarray, int]] = [
        (beyond_bound.astype(np.int64), -1),  # colour bound
    ]
    if has_bye:
        components.append((zeros, -1))  # bye rank: only bye edges carry it
    components += [
        (np.abs(s[iu] - s[iv]), -1),  # score difference
        (csum, -1),  # colour term
    ]
    components += _system_components(
        system, state, order, s, iu, iv, allowed, seed, round_number, policy, pi
    )
    components.append((tiebreak_hash(seed, round_number, pa + 1, pb + 1), +1))

    keep = np.flatnonzero(allowed)
    values = [comp[keep] for comp, _sign in components]
    us, vs = iu[keep], iv[keep]
    if has_bye:
        # The bye vertex n: only for players without a bye yet (as the engine's repeat tier
        # guarantees whenever possible); its weight says only how low the player ranks.
        ranks = np.flatnonzero(state.byes[order] == 0)
        bye_values = [np.zeros(ranks.size, dtype=np.int64) for _ in components]
        bye_values[1] = n - 1 - ranks
        bye_values[-1] = tiebreak_hash(seed, round_number, order[ranks] + 1,
                                       np.zeros(ranks.size, dtype=np.int64))
        values = [np.concatenate((a, b)) for a, b in zip(values, bye_values, strict=True)]
        us = np.concatenate((us, ranks))
        vs = np.concatenate((vs, np.full(ranks.size, n)))
    vertices = n + has_bye
    weights = _pack(values, [sign for _values, sign in components], vertices // 2)
    edges = list(zip(us.tolist(), vs.tolist(), weights, strict=True))
    mates = max_weight_matching(vertices, edges, "rustworkx")
    if len(mates) < vertices // 2:
        return None
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


def _system_components(
    system: str,
    state: PlainState,
    order: np.ndarray,
    s: np.ndarray,
    iu: np.ndarray,
    iv: np.ndarray,
    allowed: np.ndarray,
    seed: int,
    round_number: int,
    policy: str,
    pi: np.ndarray | None,
) -> list[tuple[np.ndarray, int]]:
    if pi is not None:
        return [(pi[order[iu], order[iv]], +1)]
    d = (iv - iu).astype(np.int64)  # rank distance (u < v)
    if system == "monrad":
        return [(d, -1)]
    if system == "burstein":
        return [(d, +1), (d * d, +1)]
    group, size, pos = _score_groups(state, order, s)
    same = group[iu] == group[iv]
    if system == "dutch":
        g = np.where(same, size[iu], 0)
        off = np.abs(g - 2 * d)
        return [(off, -1), (off * off, -1)]
    if system in ("random", "random2"):
        # The engine draws one number per edge of its graph, in (u, v) order; under "avoid"
        # its graph also holds the rematch edges, so draw for those too (and ignore them);
        # under "forbid" it holds neither rematches nor edges beyond the colour bound.
        draws = iu.size if policy != "forbid" else int(allowed.sum())
        values = engine_random_draws(f"{seed}:{round_number}", draws)
        if policy == "forbid":
            full = np.zeros(iu.size, dtype=np.int64)
            full[allowed] = values
            values = full
        if system == "random2":
            top = 2 * pos < size
            values = values + np.where(same & (top[iu] != top[iv]), 1 << RANDOM_BITS, 0)
        return [(values, +1)]
    raise ValueError(f"the fast path has no system {system!r}")


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


def engine_random_draws(seed: str, count: int) -> np.ndarray:
    """``count`` successive ``random.Random(seed).randrange(1, 2**RANDOM_BITS)``, in bulk.

    ``randrange(1, 2**k)`` is ``1 + getrandbits(k)`` with a rejection of the one value
    ``2**k - 1``, and ``getrandbits(k)`` (k <= 32) is the next 32-bit Mersenne Twister output
    shifted right by ``32 - k``. ``getrandbits(32 * count)`` returns exactly those outputs as
    little-endian words, so one call gives every draw; in the rare case a rejection occurs
    (about 1 in 2**20 draws) we replay the plain loop to stay identical.
    """
    if count == 0:
        return np.zeros(0, dtype=np.int64)
    rng = random.Random(seed)
    words = np.frombuffer(rng.getrandbits(32 * count).to_bytes(4 * count, "little"), dtype="<u4")
    values = (words >> np.uint32(32 - RANDOM_BITS)).astype(np.int64)
    if np.any(values == (1 << RANDOM_BITS) - 1):
        rng = random.Random(seed)
        return np.fromiter(
            (rng.randrange(1, 1 << RANDOM_BITS) for _ in range(count)), np.int64, count
        )
    return values + 1


def _pack(values: list[np.ndarray], signs: list[int], pairs: int) -> list[int]:
    """Exact lexicographic packing (see :mod:`swiss.pairing.mwm`) in int64 words."""
    words: list[tuple[np.ndarray, int]] = []  # (word values, its multiplier as a Python int)
    word = np.zeros(values[0].size, dtype=np.int64) if values else np.zeros(0, dtype=np.int64)
    within = 1  # multiplier of the next component inside the current word
    base = 1  # multiplier of the current word
    for comp, sign in zip(reversed(values), reversed(signs), strict=True):
        high = int(comp.max()) if comp.size else 0
        span = pairs * high + 1
        if within * span >= _WORD_LIMIT:
            words.append((word, base))
            base *= within
            word = np.zeros_like(word)
            within = 1
        benefit = comp if sign > 0 else high - comp
        word = word + benefit * within
        within *= span
    words.append((word, base))
    if len(words) == 1:
        return [w + 1 for w in words[0][0].tolist()]
    total = [1] * words[0][0].size
    for word_values, mult in words:
        total = [t + w * mult for t, w in zip(total, word_values.tolist(), strict=True)]
    return total


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
