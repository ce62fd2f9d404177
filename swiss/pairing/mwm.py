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

The graph and its packing are built in :mod:`swiss.pairing.mwm_graph` (and, vectorised, in
:mod:`swiss.pairing.weights`); this module pairs a round with them and turns the matching into
games, colours and explanations.
"""

from __future__ import annotations

import dataclasses
import math
import random
from fractions import Fraction

import numpy as np

from swiss.model import Bye, ByeKind, Color, Game, Tournament
from swiss.pairing.collector import collector_paused
from swiss.pairing.matching import Backend, fits_exact, max_weight_matching
from swiss.pairing.mwm_graph import (
    Entrant,
    GapTerm,
    PairingGraph,
    PiOverride,
    pack_weights,
    pairing_graph,
    ranked_entrants,
    system_term,
)
from swiss.pairing.sparse import solve_round
from swiss.pairing.types import (
    PairExplanation,
    PairingConfig,
    PairingError,
    PairingResult,
    check_next_round_pairable,
)
from swiss.pairing.weights import RoundModel


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
        return _pair_mwm(tournament, config, pi_override or system_term(tournament, config))


def _pair_mwm(
    tournament: Tournament, config: PairingConfig, pi_override: PiOverride | None
) -> PairingResult:
    round_number = check_next_round_pairable(tournament)
    seed = tournament.seed if config.seed is None else config.seed
    requested_byes = _requested_byes(tournament, round_number)
    if config.backend in ("rustworkx", "networkx"):
        return _pair_dense(tournament, config, pi_override, seed, round_number, requested_byes)
    entrants = ranked_entrants(tournament, config.system)
    if not entrants:
        return PairingResult(round_number, (), requested_byes, backend="none")
    pi = None
    if pi_override is not None:
        ids = [e.player.id for e in entrants]
        if isinstance(pi_override, GapTerm):
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
        mates = max_weight_matching(model.n_vertices, edges,
                                    _choose_backend(config, edges, model.n_vertices))
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
    """The dense reference: every allowed edge packed in Python and one matching (the
    compiled solver, or networkx when asked for)."""
    graph = pairing_graph(tournament, config, pi_override=pi_override)
    if not graph.vertices:
        return PairingResult(round_number, (), requested_byes, backend="none")
    edges = pack_weights(graph)
    n_vertices = len(graph.vertices) + (1 if graph.has_bye else 0)
    mates = max_weight_matching(n_vertices, edges, _choose_backend(config, edges, n_vertices))
    expected = n_vertices // 2
    if len(mates) < expected:
        raise PairingError(_failure_message(tournament, graph, mates, config, pi_override))

    weight_of = {(u, v): w for u, v, w in edges}
    return _result(tournament, config, graph, mates, weight_of, seed, round_number,
                   requested_byes, config.backend)


def _requested_byes(tournament: Tournament, round_number: int) -> tuple[Bye, ...]:
    requested = tournament.requested_byes.get(round_number, {})
    return tuple(
        Bye(pid, kind)
        for pid, kind in sorted(requested.items())
        if tournament.is_active(pid, round_number)
    )


def _choose_backend(config: PairingConfig, edges: list[tuple[int, int, int]],
                    n_vertices: int) -> Backend:
    """networkx when asked for; else the compiled solver (``rustworkx`` is its old name),
    which refuses weights beyond its range with a clear error, except on the ``auto`` path's
    failure explanation, which then falls back to networkx (unbounded integers)."""
    if config.backend == "networkx":
        return "networkx"
    if config.backend == "auto" and edges:
        weights = [w for _u, _v, w in edges]
        if not fits_exact(max(weights), min(weights), n_vertices):
            return "networkx"
    return "exact"


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
    return f"players {ids} cannot all be paired because {why}"


def _pairable_without_colour_bound(
    tournament: Tournament, config: PairingConfig, pi_override: PiOverride | None
) -> bool:
    """Whether the round could be paired if only the colour bound were relaxed: tells the
    user which of the hard rules is the one that cannot be kept (one more matching, on failure
    only)."""
    graph = pairing_graph(tournament, config, pi_override=pi_override, hard_colour_bound=False)
    n_vertices = len(graph.vertices) + (1 if graph.has_bye else 0)
    edges = pack_weights(graph)
    mates = max_weight_matching(n_vertices, edges, _choose_backend(config, edges, n_vertices))
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
    pairs: list[tuple[Entrant, Entrant]] = []
    bye_entrant: Entrant | None = None
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


def _due_color(e: Entrant) -> Color | None:
    """``e.state.due_color()`` from the colour difference the entrant already holds (the
    state's property sums the colours again on every call)."""
    if e.color_diff:
        return Color.WHITE if e.color_diff < 0 else Color.BLACK
    for colour in reversed(e.state.colors):
        if colour is not Color.NONE:
            return colour.opposite
    return None


def _assign_colors(
    use_colors: bool, hi: Entrant, lo: Entrant, board: int, initial: Color
) -> tuple[Entrant, Entrant]:
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
        self, u: int, v: int, white: Entrant, black: Entrant | None, weight: int
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
