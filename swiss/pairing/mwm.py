"""The maximum weight matching (MWM) engine of Führlich, Cseh and Lenzner, with exact weights.

One maximum weight matching per round, on a graph whose vertices are the players to pair (plus
one *bye vertex* when their number is odd) and whose edges are the allowed pairings.

Edge weights: lexicographic vectors packed into one exact integer
----------------------------------------------------------------------
Every edge carries a vector of non-negative integer components, highest priority first:

1. **Repeat tiers** (weighted repeat avoidance, after the blog post in seed 003). For every
   multiplicity ``k`` that occurs, from the highest down to 1, a component counts whether the
   edge is a ``k``-th repeat: the two players met ``k`` times before, or (for a bye edge) the
   player already had ``k`` byes. A matching with fewer repeats of the highest multiplicity
   therefore beats every gain below, then fewer of the next multiplicity, and so on. Under the
   ``forbid`` policy (strict FIDE C1/C2) such edges are not in the graph at all.
2. **Colour bound**: whether ``|cd_i + cd_j| >= 2*beta`` (the paper's edge rule (2)). Under
   ``avoid`` it is the tier right below repeats instead of deleting the edge, so that pairing
   never fails just because of colours; whenever a pairing inside the bound exists, it is
   chosen. Under ``forbid`` the bound is absolute, like the rematch rule: such edges are not in
   the graph, and a round that cannot be paired within it raises :class:`PairingError`.
3. **Bye receiver**: how far above the bottom of the ranking the player receiving the bye is.
   So the bye goes to the lowest-ranked player among those with the fewest byes (tier 1),
   unless that leaves the rest unpairable (maximum cardinality comes first).
4. **Score difference** ``|s_i - s_j|`` (the paper's first component), in exact integer units.
5. **Colour term** ``|cd_i + cd_j|`` (the paper's second component); dropped without colours.
6. **System term** pi, as one or two components (below).
7. **Tie-break**: a seeded 16-bit hash of the pair, so that the optimum is unique in practice
   and does not depend on the backend, nor on the order in which edges are given.

Costs are turned into benefits ``max - value`` (larger is better). Because every maximum
cardinality matching has the same number of edges ``P``, maximising the sum of benefits is the
same as minimising the sum of costs. If component ``c`` has values in ``0..V_c`` on the edges,
its sum over any matching lies in ``0..P*V_c``. Packing with multipliers

    M_last = 1,    M_c = M_(c+1) * (P * V_(c+1) + 1)

makes a loss of one unit in component ``c`` (worth ``M_c``) larger than the largest possible
total of all components below it (at most ``M_c - 1``), so the maximum packed weight IS the
lexicographic optimum, for any number of players. The paper's factors 10000 and 100 are the
special case of small tournaments; here the multipliers follow from the actual bounds, so no
score, colour or rank range can overflow into the component above. No floats anywhere.

The system terms in exact integers
----------------------------------
The paper's pi uses the exponent 1.01 only to make the term *slightly convex*: among pairings
with the same sum of rank differences, prefer (Burstein) or avoid (Dutch) spread. Any exponent
above 1 would do. ``x**1.01`` is, to first order, ``x + 0.01 * x * ln x``: a dominant linear part
and a small convex correction. We keep exactly that structure with integers: the linear term
as one component and its square as the next, lower component. So the sum of rank differences
decides first (as with ``x**1.01`` whenever the linear sums differ by at least one), and the
convexity only breaks the remaining ties, in the same direction as the paper's exponent.

* Monrad: cost ``d`` with ``d = |r_i - r_j|``.
* Burstein: benefit ``d``, then benefit ``d**2``.
* Dutch: cost ``|g - 2d|``, then cost ``(g - 2d)**2`` where ``g`` is the score-group size when
  both are in the same score group and 0 otherwise (doubled so that ``g/2`` stays an integer).
* Random: a benefit drawn uniformly from ``1..2**20 - 1`` (the interval (0, 1), scaled).
* Random2: the same, plus ``2**20`` when the two are in different halves of the same score
  group (the paper's (0, 1) versus (-1, 0), shifted by a constant, which changes nothing
  because every matching has the same number of edges).

Ranks ``r`` are positions in the order of score (descending), then initial order: the order of
the FIDE engines (pairing numbers), which the paper's "score, then Elo" equals whenever initial
order follows rating. Score groups and ranks are taken over the players being paired.

* Posterior: Burstein's terms, but ranks by score, then the posterior strength estimate of
  :mod:`swiss.pairing.posterior` (ratings as the prior, all played results so far), then
  initial order. Only the order inside the score groups (and so the bye receiver among the
  lowest group) differs from Burstein.

Colours
-------
The player with the lower colour difference gets white; on equal colour differences we
alternate from the last round in which the two had different colours; failing that the
higher-ranked player gets the colour he is due (then the lower-ranked one); failing that (both
without history, as in round 1) colours alternate by board from the initial colour: board 1's
higher-ranked player gets it, board 2's the other one, and so on (TRF ``XXC white1``/``black1``,
else a coin seeded by the event seed).
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import numpy as np

from swiss.model import Bye, ByeKind, Color, Game, Player, Tournament
from swiss.pairing.collector import collector_paused
from swiss.pairing.matching import WeightOverflowError, fits_rustworkx, max_weight_matching
from swiss.pairing.sparse import solve_round
from swiss.pairing.types import (
    PairExplanation,
    PairingConfig,
    PairingError,
    PairingResult,
    check_next_round_pairable,
)
from swiss.pairing.weights import RANDOM_BITS, TIEBREAK_BITS, RoundModel, score_costs, terms_of
from swiss.state import PlayerState, player_states

_MASK64 = (1 << 64) - 1

PiOverride = Callable[[int, int], int]


@dataclass(slots=True)
class _Entrant:
    player: Player
    state: PlayerState
    rank: int  # 0 = best
    score_units: int
    group_size: int
    group_pos: int  # position inside the score group, 0 = best
    color_diff: int


@dataclass(slots=True)
class PairingGraph:
    """The players to pair (vertex i = ``vertices[i]``, plus the bye vertex at the end when
    their number is odd) and, per allowed edge ``(u, v)`` with ``u < v``, its raw components
    named by ``names``; ``benefit_sign`` says which are benefits (+1) and which costs (-1)."""

    vertices: list[_Entrant]  # index = vertex; the bye vertex (if any) is len(vertices)
    has_bye: bool
    names: list[str]
    raw: dict[tuple[int, int], tuple[int, ...]]  # (u, v) -> raw component values
    benefit_sign: list[int]  # +1: raw value is a benefit; -1: a cost


def pair_mwm(
    tournament: Tournament,
    config: PairingConfig,
    *,
    pi_override: PiOverride | None = None,
) -> PairingResult:
    """Pair the next round with one maximum weight matching (systems of seed 001).

    ``pi_override(a, b)`` (player ids) replaces the system term with an integer *benefit*;
    the simulator uses it for the maximum possible strength difference.
    Raises :class:`PairingError` if no pairing covers every player to pair.
    """
    with collector_paused():  # see swiss.pairing.collector: nothing cyclic to collect here
        return _pair_mwm(tournament, config, pi_override or _system_term(tournament, config))


class _GapTerm:
    """The ``rating-gap`` system's term (:mod:`swiss.pairing.rating_gap`) as a pi override:
    a benefit per pair of player ids, and the whole matrix at once for the exact path."""

    def __init__(self, tournament: Tournament) -> None:
        from swiss.pairing.rating_gap import gap_matrix

        players = [p for p in tournament.players]
        self.index = {p.id: i for i, p in enumerate(players)}
        self.matrix = gap_matrix(np.array([p.rating for p in players], dtype=np.int64),
                                 np.array([p.seed for p in players], dtype=np.int64))

    def __call__(self, a: int, b: int) -> int:
        return int(self.matrix[self.index[a], self.index[b]])

    def between(self, ids: list[int]) -> np.ndarray:
        at = np.array([self.index[i] for i in ids], dtype=np.int64)
        return self.matrix[np.ix_(at, at)]


def _system_term(tournament: Tournament, config: PairingConfig) -> PiOverride | None:
    """The system term that is not a weight-model system of its own (``rating-gap``)."""
    return _GapTerm(tournament) if config.system == "rating-gap" else None


def _pair_mwm(
    tournament: Tournament, config: PairingConfig, pi_override: PiOverride | None
) -> PairingResult:
    round_number = check_next_round_pairable(tournament)
    seed = tournament.seed if config.seed is None else config.seed
    requested_byes = _requested_byes(tournament, round_number)
    if config.backend in ("rustworkx", "networkx"):
        return _pair_dense(tournament, config, pi_override, seed, round_number, requested_byes)
    entrants = _entrants(tournament, config.system)
    if not entrants:
        return PairingResult(round_number, (), requested_byes, backend="none")
    pi = None
    if pi_override is not None:
        ids = [e.player.id for e in entrants]
        if isinstance(pi_override, _GapTerm):
            pi = pi_override.between(ids)
        else:
            pi = np.array([[pi_override(a, b) if a != b else 0 for b in ids] for a in ids],
                          dtype=np.int64)
        if pi.size and pi.min() < 0:
            raise ValueError("pi_override must return a non-negative integer benefit")
    model = RoundModel.for_tournament(tournament, config, entrants, seed, round_number, pi)
    solution = solve_round(model)
    if solution is None:
        graph = pairing_graph(tournament, config, pi_override=pi_override)
        edges = pack_weights(graph)
        mates = max_weight_matching(model.n_vertices, edges, _choose_backend(config, edges))
        raise PairingError(_failure_message(tournament, graph, mates, config, pi_override))
    mates = set(solution.pairs())
    us = np.array([u for u, _v in sorted(mates)], dtype=np.int64)
    vs = np.array([v for _u, v in sorted(mates)], dtype=np.int64)
    raw = model.raw(us, vs)
    weights = model.weight(model.benefits(us, vs))
    values = list(zip(*(column.tolist() for column in raw), strict=True))
    keys = list(zip(us.tolist(), vs.tolist(), strict=True))
    graph = PairingGraph(entrants, model.has_bye, model.names, dict(zip(keys, values, strict=True)),
                         model.signs)
    weight_of = dict(zip(keys, weights, strict=True))
    result = _result(
        tournament, config, graph, mates, weight_of, seed, round_number, requested_byes, "exact"
    )
    return dataclasses.replace(result, stats=tuple(sorted(solution.stats.items())))


def _pair_dense(
    tournament: Tournament,
    config: PairingConfig,
    pi_override: PiOverride | None,
    seed: int,
    round_number: int,
    requested_byes: tuple[Bye, ...],
) -> PairingResult:
    """The dense reference: every allowed edge packed in Python and one library matching."""
    graph = pairing_graph(tournament, config, pi_override=pi_override)
    if not graph.vertices:
        return PairingResult(round_number, (), requested_byes, backend="none")
    edges = pack_weights(graph)
    backend = _choose_backend(config, edges)
    n_vertices = len(graph.vertices) + (1 if graph.has_bye else 0)
    mates = max_weight_matching(n_vertices, edges, backend)  # type: ignore[arg-type]
    expected = n_vertices // 2
    if len(mates) < expected:
        raise PairingError(_failure_message(tournament, graph, mates, config, pi_override))

    weight_of = {(u, v): w for u, v, w in edges}
    return _result(
        tournament, config, graph, mates, weight_of, seed, round_number, requested_byes, backend
    )


def _requested_byes(tournament: Tournament, round_number: int) -> tuple[Bye, ...]:
    requested = tournament.requested_byes.get(round_number, {})
    return tuple(
        Bye(pid, kind)
        for pid, kind in sorted(requested.items())
        if tournament.is_active(pid, round_number)
    )


def pairing_graph(
    tournament: Tournament,
    config: PairingConfig,
    *,
    pi_override: PiOverride | None = None,
    hard_colour_bound: bool | None = None,
) -> PairingGraph:
    """Build the weighted graph of allowed pairings for the next round (before packing).

    Public so that tests and the "why was I paired with X" command can inspect every edge's
    components; :func:`pair_mwm` is this graph plus one matching. ``hard_colour_bound`` leaves
    out the edges beyond the colour bound; by default it follows the policy (``forbid``).
    """
    round_number = tournament.next_round
    seed = tournament.seed if config.seed is None else config.seed
    entrants = _entrants(tournament, config.system)
    hard = config.policy == "forbid" if hard_colour_bound is None else hard_colour_bound
    pi_override = pi_override or _system_term(tournament, config)
    return _build_graph(tournament, config, entrants, seed, round_number, pi_override, hard)


def _entrants(tournament: Tournament, system: str = "") -> list[_Entrant]:
    """The players to pair next round (not withdrawn, no requested bye), in rank order.

    Rank order is score, then initial order; the ``posterior`` system orders each score group
    by the posterior strength estimate first (:mod:`swiss.pairing.posterior`).
    """
    round_number = tournament.next_round
    states = player_states(tournament)
    requested = tournament.requested_byes.get(round_number, {})
    active = [
        p for p in tournament.players
        if tournament.is_active(p.id, round_number) and p.id not in requested
    ]
    estimate: dict[int, int] | None = None
    if system == "posterior":
        from swiss.pairing.posterior import order_key, tournament_estimates

        values = tournament_estimates(tournament)
        keys = order_key(np.array(list(values.values()))).tolist()
        estimate = dict(zip(values, keys, strict=True))
    return _rank(active, states, estimate)


# -- ranking -------------------------------------------------------------------------------
def _rank(
    active: Sequence[Player],
    states: dict[int, PlayerState],
    estimate: dict[int, int] | None = None,
) -> list[_Entrant]:
    # Scores as integers in units of the lcm of their denominators, looked up once per
    # distinct score: Fraction arithmetic per player (negation for the sort key, products,
    # hashing for the groups) was most of ranking 10,000 players.
    score_of = {p.id: states[p.id].score for p in active}
    distinct = set(score_of.values())
    unit = lcm(*(s.denominator for s in distinct))
    units_of = {s: int(s * unit) for s in distinct}
    units = {pid: units_of[s] for pid, s in score_of.items()}
    if estimate is None:
        ordered = sorted(active, key=lambda p: (-units[p.id], p.seed, p.id))
    else:
        ordered = sorted(active, key=lambda p: (-units[p.id], -estimate[p.id], p.seed, p.id))
    # The paper takes the bye player out before building the graph, so score-group sizes and
    # halves are counted without him. The bye here is decided inside the matching, so we leave
    # out the *presumptive* receiver (the lowest-ranked among those with the fewest unplayed
    # wins): the paper's graph exactly, whenever the paper's choice is feasible.
    presumptive = None
    if len(ordered) % 2 == 1:
        fewest = min(states[p.id].unplayed_wins for p in ordered)
        presumptive = next(
            p.id for p in reversed(ordered) if states[p.id].unplayed_wins == fewest
        )
    sizes: dict[int, int] = {}
    position: dict[int, int] = {}
    for p in ordered:
        if p.id != presumptive:
            u = units[p.id]
            position[p.id] = sizes.get(u, 0)
            sizes[u] = position[p.id] + 1
    if presumptive is not None:
        u = units[presumptive]
        position[presumptive] = sizes.setdefault(u, 0)
    entrants = []
    for rank, p in enumerate(ordered):
        st = states[p.id]
        u = units[p.id]
        entrants.append(
            _Entrant(
                player=p,
                state=st,
                rank=rank,
                score_units=u,
                group_size=sizes[u] or 1,
                group_pos=position[p.id],
                color_diff=st.color_diff,
            )
        )
    return entrants


# -- the graph -----------------------------------------------------------------------------
def _build_graph(
    tournament: Tournament,
    config: PairingConfig,
    entrants: list[_Entrant],
    seed: int,
    round_number: int,
    pi_override: PiOverride | None,
    hard_colour_bound: bool,
) -> PairingGraph:
    n = len(entrants)
    has_bye = n % 2 == 1
    forbid = config.policy == "forbid"
    colors = tournament.use_colors
    hard_colours = colors and hard_colour_bound
    # |cd_i + cd_j| is an integer, so "< 2*beta" is "< ceil(2*beta)" (exact, no Fraction per edge)
    bound = math.ceil(2 * config.beta)
    system = "override" if pi_override is not None else terms_of(config.system)

    # Multiplicities first, so the number of repeat tiers is known.
    plain: list[tuple[int, int, int]] = []  # (u, v, multiplicity); v == n is the bye vertex
    for u in range(n):
        a = entrants[u]
        for v in range(u + 1, n):
            b = entrants[v]
            if tournament.is_forbidden(a.player.id, b.player.id):
                continue
            met = a.state.times_met(b.player.id)
            if met and forbid:
                continue
            if hard_colours and abs(a.color_diff + b.color_diff) >= bound:
                continue  # the colour bound is absolute under "forbid"
            plain.append((u, v, met))
        if has_bye:
            byes = a.state.unplayed_wins
            if byes and forbid:
                continue
            plain.append((u, n, byes))
    top = max((m for _u, _v, m in plain), default=0)
    tiers = list(range(top, 0, -1))

    names = [f"repeat x{k}" for k in tiers]
    signs = [-1] * len(tiers)
    if colors:
        names.append("colour bound")
        signs.append(-1)
    if has_bye:
        names.append("bye rank")
        signs.append(-1)
    names.append("score difference")
    signs.append(-1)
    if colors:
        names.append("colour")
        signs.append(-1)
    system_names, system_signs = _system_components(system)
    names += system_names
    signs += system_signs
    names.append("tie-break")
    signs.append(+1)

    rng = random.Random(f"{seed}:{round_number}") if system in ("random", "random2") else None
    score_cost = score_costs(np.array([e.score_units for e in entrants], dtype=np.int64),
                             (n + 1) // 2, config.score_tier)[0].tolist()
    raw: dict[tuple[int, int], tuple[int, ...]] = {}
    n_system = len(system_names)
    for u, v, mult in plain:
        a = entrants[u]
        tiers_part = tuple(1 if mult == k else 0 for k in tiers)
        if v == n:  # the bye edge: only the tiers and the bye rank say anything
            values: list[int] = list(tiers_part)
            if colors:
                values.append(0)
            values.append(n - 1 - a.rank)
            values.append(0)
            if colors:
                values.append(0)
            values += [0] * n_system
            values.append(_tiebreak(seed, round_number, a.player.id, 0))
            raw[(u, v)] = tuple(values)
            continue
        b = entrants[v]
        values = list(tiers_part)
        csum = abs(a.color_diff + b.color_diff)
        if colors:
            values.append(1 if csum >= bound else 0)
        if has_bye:
            values.append(0)
        values.append(score_cost[abs(a.score_units - b.score_units)])
        if colors:
            values.append(csum)
        values += _system_values(system, a, b, rng, pi_override)
        values.append(_tiebreak(seed, round_number, a.player.id, b.player.id))
        raw[(u, v)] = tuple(values)
    return PairingGraph(entrants, has_bye, names, raw, signs)


def _system_components(system: str) -> tuple[list[str], list[int]]:
    if system == "monrad":
        return ["rank distance"], [-1]
    if system == "burstein":
        return ["rank distance", "rank distance squared"], [+1, +1]
    if system == "dutch":
        return ["distance from half group", "its square"], [-1, -1]
    if system in ("random", "random2"):
        return ["random"], [+1]
    if system == "override":
        return ["override"], [+1]
    raise ValueError(f"system {system!r} is not a maximum-weight-matching system")


def _system_values(
    system: str,
    a: _Entrant,
    b: _Entrant,
    rng: random.Random | None,
    pi_override: PiOverride | None,
) -> list[int]:
    d = abs(a.rank - b.rank)
    if system == "monrad":
        return [d]
    if system == "burstein":
        return [d, d * d]
    if system == "dutch":
        same_group = a.score_units == b.score_units
        g = a.group_size if same_group else 0
        off = abs(g - 2 * d)
        return [off, off * off]
    if system == "random":
        assert rng is not None
        return [rng.randrange(1, 1 << RANDOM_BITS)]
    if system == "random2":
        assert rng is not None
        value = rng.randrange(1, 1 << RANDOM_BITS)
        if a.score_units == b.score_units:
            top_a = 2 * a.group_pos < a.group_size
            top_b = 2 * b.group_pos < b.group_size
            if top_a != top_b:
                value += 1 << RANDOM_BITS
        return [value]
    assert pi_override is not None
    value = pi_override(a.player.id, b.player.id)
    if value < 0:
        raise ValueError("pi_override must return a non-negative integer benefit")
    return [int(value)]


def _tiebreak(seed: int, round_number: int, a: int, b: int) -> int:
    """A seeded hash of the unordered pair (splitmix64), independent of PYTHONHASHSEED."""
    lo, hi = (a, b) if a < b else (b, a)
    x = (seed * 0x9E3779B97F4A7C15 + round_number * 0xBF58476D1CE4E5B9 + lo * 0x94D049BB133111EB
         + hi * 0x2545F4914F6CDD1D) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    x ^= x >> 31
    return x >> (64 - TIEBREAK_BITS)


# -- packing -------------------------------------------------------------------------------
def pack_weights(graph: PairingGraph) -> list[tuple[int, int, int]]:
    """Pack each edge's components into one exact integer; see the module docstring."""
    if not graph.raw:
        return []
    n_components = len(graph.names)
    pairs = (len(graph.vertices) + (1 if graph.has_bye else 0)) // 2
    highs = [0] * n_components
    for values in graph.raw.values():
        for c, value in enumerate(values):
            if value > highs[c]:
                highs[c] = value
    # Benefit of component c: value itself, or high - value for a cost. Range 0..highs[c].
    multipliers = [0] * n_components
    m = 1
    for c in range(n_components - 1, -1, -1):
        multipliers[c] = m
        m *= pairs * highs[c] + 1
    edges = []
    signs = graph.benefit_sign
    for (u, v), values in graph.raw.items():
        weight = 1  # +1 keeps every weight positive; a constant per edge changes nothing
        for c, value in enumerate(values):
            benefit = value if signs[c] > 0 else highs[c] - value
            weight += benefit * multipliers[c]
        edges.append((u, v, weight))
    return edges


def _choose_backend(config: PairingConfig, edges: list[tuple[int, int, int]]) -> str:
    biggest = max((w for _u, _v, w in edges), default=0)
    if config.backend == "networkx":
        return "networkx"
    if config.backend == "rustworkx":
        if not fits_rustworkx(biggest):
            raise WeightOverflowError(
                f"the packed weights need {biggest.bit_length()} bits, more than rustworkx's "
                "exact range; pair with --backend networkx (or auto)"
            )
        return "rustworkx"
    return "rustworkx" if fits_rustworkx(biggest) else "networkx"


# -- the result ----------------------------------------------------------------------------
def _failure_message(
    tournament: Tournament,
    graph: PairingGraph,
    mates: set[tuple[int, int]],
    config: PairingConfig,
    pi_override: PiOverride | None,
) -> str:
    matched = {x for pair in mates for x in pair}
    left = [e.player.id for i, e in enumerate(graph.vertices) if i not in matched]
    why = "of forbidden pairs"
    if config.policy == "forbid":
        why = "rematches and second byes are forbidden (policy 'forbid')"
        if tournament.use_colors and _pairable_without_colour_bound(tournament, config,
                                                                     pi_override):
            beta = config.beta
            shown = str(beta.numerator) if beta.denominator == 1 else f"{float(beta):g}"
            why = (f"the colour bound is absolute under policy 'forbid' (beta {shown}: two "
                   f"players whose colour differences add up to {math.ceil(2 * beta)} or more "
                   "may not meet)")
    ids = ", ".join(str(x) for x in sorted(left)) or "the bye"
    return f"no valid pairing exists: players {ids} cannot all be paired because {why}"


def _pairable_without_colour_bound(
    tournament: Tournament, config: PairingConfig, pi_override: PiOverride | None
) -> bool:
    """Whether the round could be paired if only the colour bound were relaxed: tells the
    user which of the hard rules is the one that cannot be kept (one more matching, on failure
    only)."""
    graph = pairing_graph(tournament, config, pi_override=pi_override, hard_colour_bound=False)
    n_vertices = len(graph.vertices) + (1 if graph.has_bye else 0)
    mates = max_weight_matching(n_vertices, pack_weights(graph), "networkx")
    return len(mates) == n_vertices // 2


def _result(
    tournament: Tournament,
    config: PairingConfig,
    graph: PairingGraph,
    mates: set[tuple[int, int]],
    weight_of: dict[tuple[int, int], int],
    seed: int,
    round_number: int,
    requested_byes: tuple[Bye, ...],
    backend: str,
) -> PairingResult:
    n = len(graph.vertices)
    pairs: list[tuple[_Entrant, _Entrant]] = []
    bye_entrant: _Entrant | None = None
    for u, v in sorted(mates):
        if v == n:
            bye_entrant = graph.vertices[u]
            continue
        a, b = graph.vertices[u], graph.vertices[v]
        pairs.append((a, b) if a.rank < b.rank else (b, a))
    # Board order: higher score of the pair first, then the higher lower score, then rank.
    pairs.sort(key=lambda ab: (-ab[0].score_units, -ab[1].score_units, ab[0].rank))
    initial = tournament.initial_color
    if initial is None:
        initial = random.Random(f"colour:{seed}").choice((Color.WHITE, Color.BLACK))
    games: list[Game] = []
    explanations: list[PairExplanation] = []
    total = 0
    explain = _Explainer(graph)
    for board, (hi, lo) in enumerate(pairs, start=1):
        white, black = _assign_colors(tournament.use_colors, hi, lo, board, initial)
        games.append(Game(white=white.player.id, black=black.player.id, board=board))
        u, v = (hi.rank, lo.rank) if hi.rank < lo.rank else (lo.rank, hi.rank)
        total += weight_of[(u, v)]
        explanations.append(explain(u, v, white, black, weight_of[(u, v)]))
    byes = list(requested_byes)
    if bye_entrant is not None:
        u = bye_entrant.rank
        total += weight_of[(u, n)]
        byes.insert(0, Bye(bye_entrant.player.id, ByeKind.PAIRING))
        explanations.append(explain(u, n, bye_entrant, None, weight_of[(u, n)]))
    return PairingResult(
        round_number=round_number,
        games=tuple(games),
        byes=tuple(byes),
        explanations=tuple(explanations),
        backend=backend,
        total_weight=total,
    )


def _due_color(e: _Entrant) -> Color | None:
    """``e.state.due_color()`` from the colour difference the entrant already holds (the
    state's property sums the colours again on every call)."""
    if e.color_diff:
        return Color.WHITE if e.color_diff < 0 else Color.BLACK
    for colour in reversed(e.state.colors):
        if colour is not Color.NONE:
            return colour.opposite
    return None


def _assign_colors(
    use_colors: bool, hi: _Entrant, lo: _Entrant, board: int, initial: Color
) -> tuple[_Entrant, _Entrant]:
    """Return (white, black) for a pair where ``hi`` is the higher-ranked player."""
    if not use_colors:
        return hi, lo
    cd_hi, cd_lo = hi.color_diff, lo.color_diff
    if cd_hi != cd_lo:
        return (hi, lo) if cd_hi < cd_lo else (lo, hi)
    # Alternate from the last round in which the two had different colours.
    for c_hi, c_lo in zip(reversed(hi.state.colors), reversed(lo.state.colors), strict=False):
        if c_hi is not Color.NONE and c_lo is not Color.NONE and c_hi is not c_lo:
            return (hi, lo) if c_hi is Color.BLACK else (lo, hi)
    due_hi = _due_color(hi)
    if due_hi is not None:
        return (hi, lo) if due_hi is Color.WHITE else (lo, hi)
    due_lo = _due_color(lo)
    if due_lo is not None:
        return (lo, hi) if due_lo is Color.WHITE else (hi, lo)
    top_colour = initial if board % 2 == 1 else initial.opposite
    return (hi, lo) if top_colour is Color.WHITE else (lo, hi)


class _Explainer:
    """The explanation of one edge of ``graph`` (see :class:`PairExplanation`); what is the
    same for every board (the system's components, whether colours count, the score
    differences as Fractions) is worked out once per round, not once per board."""

    def __init__(self, graph: PairingGraph) -> None:
        self.graph = graph
        self.names = graph.names
        self.system_at = [
            c for c, name in enumerate(graph.names)
            if name not in _NON_SYSTEM and not name.startswith("repeat")
        ]
        self.colors = "colour" in graph.names
        self.score_diffs: dict[tuple[int, int], Fraction] = {}  # by score units

    def __call__(
        self, u: int, v: int, white: _Entrant, black: _Entrant | None, weight: int
    ) -> PairExplanation:
        graph = self.graph
        values = graph.raw[(u, v)]
        components = tuple(zip(self.names, values, strict=True))
        a = graph.vertices[u]
        if black is None:
            return PairExplanation(
                white=white.player.id,
                black=None,
                repeat=a.state.unplayed_wins,
                score_diff=Fraction(0),
                color_term=None,
                system_term=(),
                components=components,
                weight=weight,
            )
        b = graph.vertices[v]
        key = (a.score_units, b.score_units)
        score_diff = self.score_diffs.get(key)
        if score_diff is None:
            score_diff = self.score_diffs[key] = abs(a.state.score - b.state.score)
        return PairExplanation(
            white=white.player.id,
            black=black.player.id,
            repeat=a.state.times_met(b.player.id),
            score_diff=score_diff,
            color_term=abs(a.color_diff + b.color_diff) if self.colors else None,
            system_term=tuple(values[c] for c in self.system_at),
            components=components,
            weight=weight,
        )


_NON_SYSTEM = {"colour bound", "bye rank", "score difference", "colour", "tie-break"}
