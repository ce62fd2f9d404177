"""The score tier: lexicographic in the size of the score differences by default, the paper's
sum on request (``PairingConfig.score_tier``)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swiss.model import Player, Round, Tournament
from swiss.pairing import PairingConfig, pair_round
from swiss.pairing.mwm import PairingGraph, pairing_graph
from swiss.pairing.weights import SCORE_COST_BITS, score_costs
from swiss.trf import parse_trf
from tests.pairing_helpers import PLAYED, matching_of
from tests.paths import FIXTURES

T0003 = FIXTURES / "dutch-2017" / "t0003" / "round-03.trf"


def _leader_opponent(system: str, tier: str | None) -> int:
    t = parse_trf(T0003.read_text()).tournament
    config = PairingConfig(system) if tier is None else PairingConfig(system, score_tier=tier)
    result = pair_round(t, config)
    game = next(g for g in result.games if 1 in g.players)
    return game.black if game.white == 1 else game.white


@pytest.mark.parametrize("system", ["dutch", "burstein", "monrad", "random2", "posterior"])
def test_the_leader_meets_a_one_point_player_while_one_is_free(system: str) -> None:
    # Round 3: player 1 leads on 2.0; players 2, 3, 4 are on 1.0, players 5 and 6 on 0.5, and 1
    # has met 2 and 4. The paper's sum ties "1 against a 0.5 player (1.5 points)" with "1
    # against 3 (1 point) and a 0.5-point float below"; fide-dutch and bbpPairings pair 3-1.
    assert _leader_opponent(system, None) == 3


def test_the_paper_tier_keeps_the_paper_s_sum() -> None:
    assert _leader_opponent("dutch", "paper") == 5
    assert _leader_opponent("burstein", "paper") == 6


def _score_diffs(graph: PairingGraph, matching: list[tuple[int, int]]) -> list[Fraction]:
    n = len(graph.vertices)
    return [
        abs(graph.vertices[u].state.score - graph.vertices[v].state.score)
        for u, v in matching if v < n and u < n
    ]


def _perfect_matchings(vertices: list[int], edges: set[tuple[int, int]]
                       ) -> Iterator[list[tuple[int, int]]]:
    if not vertices:
        yield []
        return
    u, rest = vertices[0], vertices[1:]
    for i, v in enumerate(rest):
        if (u, v) in edges:
            for more in _perfect_matchings(rest[:i] + rest[i + 1:], edges):
                yield [(u, v), *more]


def _smallest_largest_difference(graph: PairingGraph) -> Fraction:
    """Over the perfect matchings that are best on the tiers above the score tier (repeats,
    colour bound, bye rank), the smallest largest score difference: by enumeration."""
    higher = graph.names.index("score difference")
    signs = graph.benefit_sign
    vertices = list(range(len(graph.vertices) + (1 if graph.has_bye else 0)))
    best: tuple[int, ...] | None = None
    smallest = Fraction(0)
    for matching in _perfect_matchings(vertices, set(graph.raw)):
        totals = tuple(
            sum(signs[c] * graph.raw[edge][c] for edge in matching) for c in range(higher)
        )
        largest = max(_score_diffs(graph, matching), default=Fraction(0))
        if best is None or totals > best:
            best, smallest = totals, largest
        elif totals == best:
            smallest = min(smallest, largest)
    assert best is not None, "no perfect matching"
    return smallest


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(4, 10),
    rounds=st.integers(1, 4),
    system=st.sampled_from(["dutch", "burstein", "monrad", "random", "random2", "posterior"]),
    beta=st.sampled_from([Fraction(2), Fraction(1, 10)]),
    seed=st.integers(0, 10**6),
)
def test_no_pair_differs_more_than_the_smallest_largest_difference_reachable(
    n: int, rounds: int, system: str, beta: Fraction, seed: int
) -> None:
    rng = random.Random(seed)
    players = tuple(Player(i, f"P{i}", rng.randint(1000, 2500)) for i in range(1, n + 1))
    t = Tournament(players=players, total_rounds=min(rounds + 1, n - 1), seed=seed)
    config = PairingConfig(system=system, beta=beta)
    for _ in range(min(rounds, n - 2)):
        result = pair_round(t, config)
        games = tuple(g.with_result(rng.choice(PLAYED)) for g in result.games)
        t = t.with_round(Round(result.round_number, games, result.byes))
    result = pair_round(t, config)
    graph = pairing_graph(t, config)
    chosen = matching_of(graph, result.games, result.pairing_bye)
    largest = max(_score_diffs(graph, chosen), default=Fraction(0))
    assert largest <= _smallest_largest_difference(graph)


def _lexicographic_key(costs: np.ndarray, diffs: list[int]) -> tuple[int, ...]:
    """Counts of pairs per score difference, the largest difference first."""
    return tuple(diffs.count(d) for d in range(len(costs) - 1, 0, -1))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(scores=st.lists(st.integers(0, 12), min_size=2, max_size=10).filter(
    lambda s: len(s) % 2 == 0))
def test_the_costs_order_matchings_lexicographically(scores: list[int]) -> None:
    # Every perfect matching of these players: smaller total cost <=> lexicographically fewer
    # pairs at the largest differences (by enumeration over all matchings of up to 10 players:
    # 945 of them; 12 players would be 10,395 and ten times the time for no new kind of tie).
    score = np.array(sorted(scores))
    costs, span = score_costs(score, len(scores) // 2)
    edges = set(itertools.combinations(range(len(scores)), 2))
    seen: dict[tuple[int, ...], int] = {}
    totals = []
    for matching in _perfect_matchings(list(range(len(scores))), edges):
        diffs = [int(abs(score[u] - score[v])) for u, v in matching]
        key = _lexicographic_key(costs, diffs)
        total = int(sum(costs[d] for d in diffs))
        assert seen.setdefault(key, total) == total
        totals.append((key, total))
    totals.sort()
    for (k1, t1), (k2, t2) in itertools.pairwise(totals):
        assert (k1 < k2) == (t1 < t2)
    assert max(t for _k, t in totals) - min(t for _k, t in totals) <= span


def test_the_paper_costs_are_the_differences() -> None:
    costs, span = score_costs(np.array([0, 1, 3, 6]), 2, "paper")
    assert costs.tolist() == list(range(7))
    assert span == 12


def test_large_rounds_stay_exact_on_the_small_differences() -> None:
    # 4,000 players on 19 scores: the whole table would need far more bits, so it is exact on
    # the smallest differences (the floats of a large round) and every larger one outweighs
    # all of those together, within the bits.
    rng = np.random.default_rng(1)
    score = rng.binomial(18, 0.5, 4000)
    costs, span = score_costs(score, 2000)
    assert span < 2**SCORE_COST_BITS and np.all(np.diff(costs) > 0)
    values, counts = np.unique(score, return_counts=True)
    group = dict(zip(values.tolist(), counts.tolist(), strict=True))
    bound = [min(2000, sum(min(c, group.get(s + e, 0)) for s, c in group.items()))
             for e in range(len(costs))]

    def most_below(d: int) -> int:
        return sum(int(costs[e]) * bound[e] for e in range(1, d))

    # the levels 1..k where each outweighs everything below it: exactly lexicographic
    k = next(d for d in range(1, len(costs) + 1) if d == len(costs) or costs[d] <= most_below(d))
    k -= 1
    assert k >= 2  # a 1-point float outweighs any number of ½-point ones
    # every larger difference outweighs all the pairs at the exact levels below it
    assert all(costs[d] > most_below(k) for d in range(k + 1, len(costs)))


def test_an_unknown_score_tier_is_refused() -> None:
    with pytest.raises(ValueError, match="score tier"):
        PairingConfig(score_tier="sum")
