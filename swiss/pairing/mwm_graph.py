"""The MWM engine's graph: the players to pair in rank order and, per allowed pair, the raw
weight components, then packed into one exact integer per edge.

The components, their order and their packing are described in :mod:`swiss.pairing.mwm`;
:func:`pairing_graph` builds the graph in Python (the dense reference path, explanations, the
failure messages), :class:`swiss.pairing.weights.RoundModel` computes the same vectorised.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import lcm

import numpy as np

from swiss.model import Player, Tournament
from swiss.pairing.types import PairingConfig
from swiss.pairing.weights import RANDOM_BITS, TIEBREAK_BITS, pair_draw, score_costs, terms_of
from swiss.state import PlayerState, player_states

_MASK64 = (1 << 64) - 1

# pi_override(a, b): the system term of players a and b replaced by this integer benefit
PiOverride = Callable[[int, int], int]


class GapTerm:
    """The ``rating-gap`` system's term (:mod:`swiss.pairing.rating_gap`) as a pi override:
    a benefit per pair of player ids, and the whole matrix at once for the exact path."""

    def __init__(self, tournament: Tournament) -> None:
        from swiss.pairing.rating_gap import gap_matrix

        players = list(tournament.players)
        self.index = {p.id: i for i, p in enumerate(players)}
        self.matrix = gap_matrix(np.array([p.rating for p in players], dtype=np.int64),
                                 np.array([p.seed for p in players], dtype=np.int64))

    def __call__(self, a: int, b: int) -> int:
        return int(self.matrix[self.index[a], self.index[b]])

    def between(self, ids: list[int]) -> np.ndarray:
        at = np.array([self.index[i] for i in ids], dtype=np.int64)
        return self.matrix[np.ix_(at, at)]


def system_term(tournament: Tournament, config: PairingConfig) -> PiOverride | None:
    """The system term that is not a weight-model system of its own (``rating-gap``)."""
    return GapTerm(tournament) if config.system == "rating-gap" else None


@dataclass(slots=True)
class Entrant:
    """A player to pair, with what the weights and colours read of him this round."""

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

    vertices: list[Entrant]  # index = vertex; the bye vertex (if any) is len(vertices)
    has_bye: bool
    names: list[str]
    raw: dict[tuple[int, int], tuple[int, ...]]  # (u, v) -> raw component values
    benefit_sign: list[int]  # +1: raw value is a benefit; -1: a cost


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
    entrants = ranked_entrants(tournament, config.system)
    hard = config.policy == "forbid" if hard_colour_bound is None else hard_colour_bound
    pi_override = pi_override or system_term(tournament, config)
    return _build_graph(tournament, config, entrants, seed, round_number, pi_override, hard)


def ranked_entrants(tournament: Tournament, system: str = "") -> list[Entrant]:
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
) -> list[Entrant]:
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
            Entrant(
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
    entrants: list[Entrant],
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
        values += _system_values(system, a, b, (seed, round_number), pi_override)
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
    a: Entrant,
    b: Entrant,
    seeds: tuple[int, int],
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
        return [pair_draw(*seeds, a.player.id, b.player.id)]
    if system == "random2":
        value = pair_draw(*seeds, a.player.id, b.player.id)
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


