"""The FIDE Swiss Team Pairing System (C.04.6, in force from 1 February 2026).

The regulation pairs a round in steps, each choosing "the first" candidate in a stated order
among those that best meet its quality criteria:

1. the pairing-allocated bye (art. 3.4): a team that may get it (C2) and leaves the others
   pairable, with the lowest score, the most matches played, the largest pairing number;
2. bracket after bracket from the top score down (art. 3.5): the top scoregroup and the fewest
   upfloaters (C4) with the highest scores (C5) that leave everyone else pairable (C3), then
   the set that keeps the next scoregroup pairable (C6) and floats the fewest teams that
   floated in the previous round (C7), then the first such set in pairing-number order;
3. within the bracket (art. 3.6): the pairing with the fewest unmet colour preferences (C8),
   unmet strong preferences (C9, type B) and repeated floaters among the upfloaters'
   opponents (C10), then the smallest identifier (the top members' pairing numbers in
   ascending order, then their opponents').

Each "fewest ... then first in order" is one maximum weight matching whose integer weights
hold the criteria as separate digit ranges, most important first, so that one matching
decides them all exactly (no sums of unlike things). Colours come last
(:mod:`swiss.teams.colours`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

import numpy as np

from swiss.pairing import exact
from swiss.pairing.matching import fits_exact, max_weight_matching
from swiss.pairing.types import PairingError
from swiss.teams.colours import allocate, preference, unfulfilled
from swiss.teams.model import Team, TeamPair, TeamPairing, TeamRules

# An upfloater set search stops after this many candidates: far beyond what a real
# scoregroup needs (the first candidates nearly always meet every criterion).
MAX_UPFLOATER_SETS = 2000
# Brackets whose identifier fits the fast matching's weights get it in one matching; bigger
# ones build it step by step (:func:`_lexicographic_pairing`). Both give the same pairing.
IDENTIFIER_IN_WEIGHTS_MAX = 2**125
QUICK_TRIES = 4  # upfloater candidates tried by the quick path before the full matching


def _matching(nodes: Sequence[int], weight: Callable[[int, int], int | None]
              ) -> list[tuple[int, int]] | None:
    """The maximum weight perfect matching of ``nodes`` (pairing numbers) under ``weight``
    (None: the two may not meet); None when no perfect matching exists."""
    index = {tpn: i for i, tpn in enumerate(nodes)}
    edges = []
    for a, b in itertools.combinations(nodes, 2):
        w = weight(a, b)
        if w is not None:
            edges.append((index[a], index[b], w))
    if len(nodes) % 2:
        return None
    if not nodes:
        return []
    weights = [w for _a, _b, w in edges]
    fits = fits_exact(max(weights, default=0), min(weights, default=0), len(nodes))
    backend = "exact" if fits else "networkx"
    mates = max_weight_matching(len(nodes), edges, backend=backend)
    if 2 * len(mates) != len(nodes):
        return None
    return [(nodes[i], nodes[j]) for i, j in mates]


class _Round:
    """The facts one round's pairing keeps asking about."""

    def __init__(self, teams: Sequence[Team], rules: TeamRules, round_number: int,
                 total_rounds: int) -> None:
        self.rules = rules
        self.round = round_number
        self.by_tpn = {t.tpn: t for t in teams}
        self.score = {t.tpn: t.score(rules.primary) for t in teams}
        self.met = {t.tpn: t.opponents() for t in teams}
        last_round = total_rounds > 0 and round_number >= total_rounds
        self.preference = {t.tpn: preference(t, rules, last_round) for t in teams}
        self.last_round = last_round
        # C7 and C10 do not apply to the last two rounds.
        self.floats_count = not (total_rounds > 0 and round_number >= total_rounds - 1)
        self.floated = {t.tpn: self._floated_last_round(t) for t in teams}

    def _floated_last_round(self, team: Team) -> bool:
        """Art. 1.5: the team played a team with another score (a forfeit is not played)."""
        previous = [m for m in team.history if m.round == self.round - 1]
        if not previous or not previous[0].played or previous[0].opponent is None:
            return False
        opponent = self.by_tpn.get(previous[0].opponent)
        if opponent is None:
            return False
        before = self.round - 1
        return _score_before(team, self.rules, before) != _score_before(opponent, self.rules,
                                                                        before)

    def legal(self, a: int, b: int) -> bool:
        return b not in self.met[a]

    def pairable(self, nodes: Iterable[int], apart: frozenset[int] = frozenset()) -> bool:
        """A legal pairing of ``nodes`` exists (no two of ``apart`` meeting each other)."""
        nodes = sorted(nodes)
        if _greedy_pairing(nodes, self.legal, apart) is not None:
            return True  # the usual case, found without a matching
        return _matching(nodes, lambda a, b: 1 if self.legal(a, b) and not (
            a in apart and b in apart) else None) is not None


def _greedy_pairing(nodes: Sequence[int], legal: Callable[[int, int], bool],
                    apart: frozenset[int] = frozenset()) -> list[tuple[int, int]] | None:
    """Each team in turn with the first later team it may meet: a quick proof that a
    pairing exists (None proves nothing)."""
    free = list(nodes)
    pairs = []
    while free:
        a = free.pop(0)
        for i, b in enumerate(free):
            if legal(a, b) and not (a in apart and b in apart):
                pairs.append((a, b))
                del free[i]
                break
        else:
            return None
    return pairs


def _score_before(team: Team, rules: TeamRules, round_number: int) -> Fraction:
    """The primary score before ``round_number`` was played."""
    points = [m.match_points if rules.primary == "mp" else m.game_points
              for m in team.history if m.round < round_number]
    return sum(points, Fraction(0))


def pair_fide_team(teams: Sequence[Team], rules: TeamRules, round_number: int,
                   total_rounds: int = 0, absent: Iterable[int] = ()) -> TeamPairing:
    """Pair round ``round_number`` of a team Swiss by C.04.6.

    ``teams``: every team with its history of earlier rounds; ``absent``: pairing numbers not
    to pair this round; ``total_rounds``: the rounds announced (0: unknown, so no round is the
    last). Raises :class:`PairingError` when no pairing meets the absolute criteria (art.
    3.3.3: the chief arbiter decides).
    """
    state = _Round(teams, rules, round_number, total_rounds)
    skip = set(absent)
    remaining = sorted(t.tpn for t in teams if t.tpn not in skip)
    bye = _choose_bye(state, remaining) if len(remaining) % 2 else None
    if bye is not None:
        remaining.remove(bye)
    elif not state.pairable(remaining):
        raise PairingError("no pairing avoids every rematch (C.04.6 C1); "
                           "the chief arbiter decides this round")
    matches: list[tuple[int, int]] = []
    left = set(remaining)
    while left:
        top = max(state.score[t] for t in left)
        residents = sorted(t for t in left if state.score[t] == top)
        upfloaters = _choose_upfloaters(state, residents, left)
        bracket = residents + upfloaters
        matches.extend(_pair_bracket(state, bracket, set(upfloaters)))
        left -= set(bracket)
    pairs = [allocate(state.by_tpn[a], state.by_tpn[b], rules, state.last_round)
             for a, b in matches]
    return TeamPairing(round_number, tuple(_board_order(state, pairs)), bye)


def _board_order(state: _Round, pairs: list[TeamPair]) -> list[TeamPair]:
    """Matches listed from the top: the higher scores, then the smaller pairing numbers."""
    def key(pair: TeamPair) -> tuple[Fraction, Fraction, int]:
        a, b = pair.white, pair.black
        high, low = sorted((state.score[a], state.score[b]), reverse=True)
        return (-high, -low, min(a, b))

    return sorted(pairs, key=key)


def _choose_bye(state: _Round, remaining: list[int]) -> int:
    """Art. 3.4: the team that may get the bye and leaves a legal pairing for the others,
    with the lowest score, then the most matches played, then the largest pairing number."""
    def key(tpn: int) -> tuple[Fraction, int, int]:
        played = sum(1 for m in state.by_tpn[tpn].history if m.played)
        return (state.score[tpn], -played, -tpn)

    for tpn in sorted(remaining, key=key):
        if state.by_tpn[tpn].had_bye_or_forfeit_win():
            continue
        if state.pairable(t for t in remaining if t != tpn):
            return tpn
    raise PairingError("no team can take the pairing-allocated bye and leave the others "
                       "pairable (C.04.6 C1, C2); the chief arbiter decides this round")


def _choose_upfloaters(state: _Round, residents: list[int], left: set[int]) -> list[int]:
    """Art. 3.5: the upfloaters that join the top scoregroup ``residents``."""
    lower = sorted((t for t in left if t not in residents),
                   key=lambda t: (-state.score[t], t))
    shape = _fewest_and_highest(state, residents, left)
    if not shape:
        return []
    best: tuple[tuple[int, int], list[int]] | None = None
    for count, candidate in enumerate(_candidate_sets(lower, shape, state)):
        if count >= MAX_UPFLOATER_SETS:
            break
        chosen = set(candidate)
        if not _bracket_pairable(state, residents, chosen):
            continue
        rest = left - set(residents) - chosen
        if not state.pairable(rest):
            continue
        quality = (_next_bracket_upfloaters(state, rest),
                   sum(1 for t in candidate if state.floated[t]) if state.floats_count else 0)
        if best is None or quality < best[0]:
            best = (quality, candidate)
            if quality == (_least_upfloaters(state, rest), 0):
                break
    if best is None:  # the matching proved a legal set exists; the search was cut short
        raise PairingError("too many upfloater sets to examine in one scoregroup")
    return best[1]


def _least_upfloaters(state: _Round, rest: set[int]) -> int:
    """The fewest upfloaters the next bracket could possibly take: its parity."""
    if not rest:
        return 0
    top = max(state.score[t] for t in rest)
    return sum(1 for t in rest if state.score[t] == top) % 2


def _next_bracket_upfloaters(state: _Round, rest: set[int]) -> int:
    """C6: how many upfloaters the next scoregroup needs once these have gone up."""
    if not rest:
        return 0
    top = max(state.score[t] for t in rest)
    residents = [t for t in rest if state.score[t] == top]
    return sum(_fewest_and_highest(state, residents, rest).values())


def _bracket_pairable(state: _Round, residents: list[int], upfloaters: set[int]) -> bool:
    """The bracket pairs with every upfloater against a resident (C1, C4)."""
    return state.pairable([*residents, *upfloaters], frozenset(upfloaters))


def _fewest_and_highest(state: _Round, residents: list[int], left: set[int]
                        ) -> dict[Fraction, int]:
    """C4, C5 and C3 at once: one matching of every unpaired team that pairs the fewest
    teams from below with the top scoregroup, the smallest score differences first (largest
    difference compared first). Returns how many upfloaters come from each lower score."""
    quick = _quick_shape(state, residents, left)
    if quick is not None:
        return quick
    nodes = sorted(left)
    top = state.score[residents[0]]
    resident = set(residents)
    differences = sorted({top - state.score[t] for t in nodes if t not in resident})
    level = {d: i for i, d in enumerate(differences)}
    base = len(nodes) + 1
    per_float = base ** len(differences)  # one more upfloater outweighs any differences

    def weight(a: int, b: int) -> int | None:
        if not state.legal(a, b):
            return None
        ceiling = 2 * per_float
        if (a in resident) == (b in resident):
            return ceiling
        low = b if a in resident else a
        return ceiling - per_float - base ** level[top - state.score[low]]

    mates = _matching(nodes, weight)
    if mates is None:
        raise PairingError("no pairing avoids every rematch (C.04.6 C1, C3); "
                           "the chief arbiter decides this round")
    shape: dict[Fraction, int] = {}
    for a, b in mates:
        if (a in resident) != (b in resident):
            low = b if a in resident else a
            shape[state.score[low]] = shape.get(state.score[low], 0) + 1
    return shape


def _quick_shape(state: _Round, residents: list[int], left: set[int]
                 ) -> dict[Fraction, int] | None:
    """The usual answer of :func:`_fewest_and_highest` without a matching: no upfloater for
    an even scoregroup, one from the next score for an odd one, when a quick pairing shows
    it works (None: ask the matching)."""
    lower = sorted(t for t in left if t not in set(residents))
    if len(residents) % 2 == 0:
        if (_greedy_pairing(residents, state.legal) is not None
                and _greedy_pairing(lower, state.legal) is not None):
            return {}
        return None
    if not lower:
        return None
    below = max(state.score[t] for t in lower)
    for candidate in [t for t in lower if state.score[t] == below][:QUICK_TRIES]:
        bracket = sorted([*residents, candidate])
        rest = [t for t in lower if t != candidate]
        if (_greedy_pairing(bracket, state.legal, frozenset((candidate,))) is not None
                and _greedy_pairing(rest, state.legal) is not None):
            return {below: 1}
    return None


def _candidate_sets(lower: list[int], shape: dict[Fraction, int], state: _Round
                    ) -> Iterable[list[int]]:
    """Upfloater sets with the chosen number per score, in the order of art. 3.5.3-3.5.4:
    each set sorted by score (highest first) then pairing number, sets compared
    lexicographically."""
    levels = sorted(shape, reverse=True)
    per_level = [itertools.combinations(sorted(t for t in lower if state.score[t] == s),
                                        shape[s]) for s in levels]
    for combination in itertools.product(*per_level):
        yield [t for group in combination for t in group]


def _pair_bracket(state: _Round, bracket: list[int], upfloaters: set[int]
                  ) -> list[tuple[int, int]]:
    """Art. 3.6: the bracket's pairing with the fewest unmet preferences (C8, C9) and
    repeated floaters (C10), then the smallest identifier."""
    nodes = sorted(bracket)
    size = len(nodes)
    half = size // 2
    natural = list(zip(nodes[:half], nodes[half:], strict=True))
    if all(_pair_cost(state, a, b, upfloaters) == (0, 0, 0) for a, b in natural):
        return natural  # the smallest identifier of all, and nothing to improve on
    base = size + 1
    identifier_top = 2 ** (size + 1)
    identifier_bottom = base ** (size + 1)
    if base ** 3 * identifier_top * identifier_bottom > IDENTIFIER_IN_WEIGHTS_MAX:
        return _lexicographic_pairing(state, nodes, upfloaters)
    position = {tpn: i for i, tpn in enumerate(nodes)}

    def weight(a: int, b: int) -> int | None:  # a < b: a is the top member
        cost = _pair_cost(state, a, b, upfloaters)
        if cost is None:
            return None
        unmet, unmet_strong, floats = cost
        criteria = ((1 - unmet) * base + (1 - unmet_strong)) * base + (1 - floats)
        top = 2 ** (size - position[a])
        bottom = (size - position[b]) * base ** (size - position[a])
        return (criteria * identifier_top + top) * identifier_bottom + bottom

    mates = _matching(nodes, weight)
    if mates is None:  # the upfloater choice guaranteed a legal pairing
        raise PairingError("the bracket has no legal pairing")
    return sorted(mates)


def _pair_cost(state: _Round, a: int, b: int, upfloaters: set[int]
               ) -> tuple[int, int, int] | None:
    """What pairing ``a`` with ``b`` costs in C8, C9 and C10; None when C1 or C4 forbid it."""
    if not state.legal(a, b) or (a in upfloaters and b in upfloaters):
        return None
    unmet, unmet_strong = unfulfilled(state.preference[a], state.preference[b])
    floats = 0
    if state.floats_count and (a in upfloaters or b in upfloaters):
        opponent = b if a in upfloaters else a
        floats = 1 if state.floated[opponent] else 0
    return unmet, unmet_strong, floats


def _lexicographic_pairing(state: _Round, nodes: list[int], upfloaters: set[int]
                           ) -> list[tuple[int, int]]:
    """Art. 3.6 for brackets too big for one matching with the identifier in its weights:
    the best C8, C9, C10 values from one matching, then the identifier built element by
    element, each choice kept only if a pairing with those best values still follows.
    A choice that the last such pairing already makes needs no new matching."""
    search = _ConstrainedPairings(state, nodes, upfloaters)
    current = search.best(None)
    if current is None:
        raise PairingError("the bracket has no legal pairing")
    search.target = search.total(current)
    position = {tpn: i for i, tpn in enumerate(nodes)}
    tops_left = len(nodes) // 2
    for tpn in nodes:  # the smallest possible set of top members, smallest first
        if tops_left == 0:
            search.decide(position[tpn], top=False)
            continue
        search.decide(position[tpn], top=True)
        if current[tpn] < tpn:
            found = (search.best(None) if search.could_be_optimal(search.upward(position[tpn]))
                     else None)
            if found is None:
                search.decide(position[tpn], top=False)
                continue
            current = found
        tops_left -= 1
    fixed: dict[int, int] = {}
    for tpn in [t for t in nodes if search.is_top[position[t]]]:  # each one's smallest opponent
        for opponent in [t for t in nodes if t > tpn and t not in fixed
                         and not search.is_top[position[t]]]:
            if (tpn, opponent) not in search.edge:
                continue
            if current[tpn] != opponent:
                edge = search.edge[tpn, opponent]
                found = search.best(edge) if search.could_be_optimal([edge]) else None
                if found is None:
                    continue
                current = found
            fixed[tpn], fixed[opponent] = opponent, tpn
            search.fix(search.edge[tpn, opponent])
            break
    return sorted((a, b) for a, b in fixed.items() if a < b)


class _ConstrainedPairings:
    """The bracket's legal pairs as arrays, for the many "is there still a pairing with the
    best criteria total if ..." questions of :func:`_lexicographic_pairing`.

    Each question filters the pairs with array masks (Python edge lists would cost more
    than the solve) and keeps every team in the graph: a pair already fixed stays as the
    only edge of its two teams. The vertices never change, so each solve starts from the
    last one's matching and duals, and only re-augments around what the new question
    removed: a few vertices instead of the whole bracket.
    """

    def __init__(self, state: _Round, nodes: list[int], upfloaters: set[int]) -> None:
        base = len(nodes) + 1
        self.nodes = nodes
        self.edge: dict[tuple[int, int], int] = {}  # (top, bottom) -> index in the arrays
        tops, bottoms, costs = [], [], []
        for i, j in itertools.combinations(range(len(nodes)), 2):
            found = _pair_cost(state, nodes[i], nodes[j], upfloaters)
            if found is not None:
                unmet, unmet_strong, floats = found
                self.edge[nodes[i], nodes[j]] = len(costs)
                tops.append(i)
                bottoms.append(j)
                costs.append(((1 - unmet) * base + (1 - unmet_strong)) * base + (1 - floats))
        self.top = np.array(tops, dtype=np.int64)
        self.bottom = np.array(bottoms, dtype=np.int64)
        self.costs = np.array(costs, dtype=np.int64)
        # the solver takes non-negative weights; a constant shift keeps the best pairing
        self.weights = self.costs - (self.costs.min() if self.costs.size else 0)
        size = len(nodes)
        self.may_be_top = np.ones(size, dtype=bool)  # not decided to pair a smaller number
        self.is_top = np.zeros(size, dtype=bool)  # decided to pair a larger number
        self.free = np.ones(size, dtype=bool)  # not in a fixed pair
        self.fixed = np.zeros(self.costs.size, dtype=bool)
        self.target: int | None = None  # the best criteria total, once known
        self.last: exact.Solution | None = None
        self._laminar: tuple[exact.Solution, exact._Laminar] | None = None

    def decide(self, index: int, top: bool) -> None:
        self.is_top[index] = top
        self.may_be_top[index] = top

    def fix(self, edge: int) -> None:
        self.fixed[edge] = True
        self.free[[self.top[edge], self.bottom[edge]]] = False

    def best(self, also_fix: int | None) -> dict[int, int] | None:
        """A pairing that keeps every decision and fixed pair (and ``also_fix``) with the
        best criteria total (None if there is none), as partner by pairing number."""
        free = self.free
        if also_fix is not None:
            free = free.copy()
            free[[self.top[also_fix], self.bottom[also_fix]]] = False
        mask = (self.may_be_top[self.top] & ~self.is_top[self.bottom]
                & free[self.top] & free[self.bottom]) | self.fixed
        if also_fix is not None:
            mask[also_fix] = True
        found = exact.solve(len(self.nodes), self.top[mask], self.bottom[mask],
                            self.weights[mask][None, :], [1], start=self.last)
        if found is None:
            return None
        partner = {self.nodes[i]: self.nodes[j] for i, j in enumerate(found.mate.tolist())}
        if self.target is not None and self.total(partner) != self.target:
            return None
        self.last = found
        return partner

    def total(self, partner: dict[int, int]) -> int:
        return sum(int(self.costs[self.edge[a, b]]) for a, b in partner.items() if a < b)

    def upward(self, index: int) -> list[int]:
        """The pairs still allowed in which team ``index`` is the top member."""
        mask = (self.top == index) & ~self.is_top[self.bottom] & self.free[self.bottom]
        return np.flatnonzero(mask).tolist()

    def could_be_optimal(self, edges: Sequence[int]) -> bool:
        """Whether one of these pairs may be in a pairing with the best total, judged
        without a solve: by complementary slackness a pair with a positive reduced cost
        under optimal duals is in no optimal pairing. The last solve's duals still are
        optimal: every question since has only removed pairs, and its pairing (the current
        one) is still there at the best total."""
        if self.last is None:
            return True
        if self._laminar is None or self._laminar[0] is not self.last:
            self._laminar = (self.last, exact._Laminar(len(self.nodes), self.last.blossoms))
        laminar = self._laminar[1]
        y = self.last.y
        for edge in edges:
            u, v = int(self.top[edge]), int(self.bottom[edge])
            a, b = int(laminar.inner[u]), int(laminar.inner[v])
            while a != b and a >= 0 and b >= 0:  # the innermost blossom holding both
                if laminar.depth[a] >= laminar.depth[b]:
                    a = int(laminar.parent[a])
                else:
                    b = int(laminar.parent[b])
            shared = laminar.cumz[a] if a == b and a >= 0 else 0
            if y[u] + y[v] + shared - 4 * int(self.weights[edge]) == 0:
                return True
        return False
