"""The scalable exact path (candidates, then dual pricing) against the dense reference.

``pair_round`` with the default backend solves a sparse candidate graph and proves optimality
on the full graph by pricing; ``backend="rustworkx"``/``"networkx"`` pack every edge and run
one library matching. Both must reach the same lexicographic optimum: the same total of every
weight component (the packings differ, the optimum does not).
"""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from swiss.model import ByeKind, Result, Round, Tournament
from swiss.pairing import PairingConfig, PairingError, PairingResult, pair_round
from swiss.pairing.matching import WeightOverflowError
from swiss.pairing.mwm import pairing_graph
from tests.pairing_helpers import component_totals, matching_of, new_tournament

SYSTEMS = ["dutch", "burstein", "monrad", "random", "random2", "posterior"]
RESULTS = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)


def _dense(t: Tournament, config: PairingConfig) -> PairingResult:
    try:
        return pair_round(t, dataclasses.replace(config, backend="rustworkx"))
    except WeightOverflowError:
        return pair_round(t, dataclasses.replace(config, backend="networkx"))


def _history(n: int, rounds: int, config: PairingConfig, rng: random.Random) -> Tournament | None:
    t = new_tournament(n, rounds + 1)
    for a, b in ((rng.randint(1, n), rng.randint(1, n)) for _ in range(rng.randint(0, 3))):
        if a != b:
            t = t.with_forbidden_pair(a, b)
    for number in range(1, rounds + 1):
        if rng.random() < 0.3:
            t = t.with_withdrawal(rng.randint(1, n), number)
        if rng.random() < 0.3:
            t = t.with_requested_bye(number, rng.randint(1, n), ByeKind.HALF)
        try:
            result = pair_round(t, config)
        except PairingError:
            return None
        games = tuple(g.with_result(rng.choice(RESULTS)) for g in result.games)
        t = t.with_round(Round(result.round_number, games, result.byes))
    if rng.random() < 0.3:
        t = t.with_requested_bye(rounds + 1, rng.randint(1, n), ByeKind.ZERO)
    return t


def _assert_same_optimum(t: Tournament, config: PairingConfig) -> None:
    try:
        dense = _dense(t, config)
    except PairingError:
        with pytest.raises(PairingError):
            pair_round(t, config)
        return
    fast = pair_round(t, config)
    assert fast.backend in ("exact", "none")  # none: nobody to pair
    graph = pairing_graph(t, config)
    best = component_totals(graph, matching_of(graph, dense.games, dense.pairing_bye))
    got = component_totals(graph, matching_of(graph, fast.games, fast.pairing_bye))
    assert got == best


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.one_of(st.integers(2, 30), st.integers(31, 120)),
    rounds=st.integers(0, 4),
    system=st.sampled_from(SYSTEMS),
    policy=st.sampled_from(["avoid", "forbid"]),
    seed=st.integers(0, 10**6),
)
def test_scalable_path_reaches_the_dense_optimum(
    n: int, rounds: int, system: str, policy: str, seed: int
) -> None:
    config = PairingConfig(system=system, policy=policy)  # type: ignore[arg-type]
    t = _history(n, rounds, config, random.Random(seed))
    assume(t is not None)
    assert t is not None
    _assert_same_optimum(t, config)


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(200, 400),
    rounds=st.integers(3, 6),
    system=st.sampled_from(SYSTEMS),
    policy=st.sampled_from(["avoid", "forbid"]),
    seed=st.integers(0, 10**6),
)
def test_scalable_path_reaches_the_dense_optimum_up_to_400_players(
    n: int, rounds: int, system: str, policy: str, seed: int
) -> None:
    config = PairingConfig(system=system, policy=policy)  # type: ignore[arg-type]
    t = _history(n, rounds, config, random.Random(seed))
    assume(t is not None)
    assert t is not None
    _assert_same_optimum(t, config)


def test_rematches_are_priced_in_when_the_field_is_exhausted() -> None:
    # 6 players after 5 rounds of a round robin: every pair has met, so "avoid" must repeat;
    # the candidate graph and the pricing still reach the dense optimum.
    config = PairingConfig(system="dutch")
    rng = random.Random(3)
    t = new_tournament(6, 7)
    for _ in range(6):
        result = pair_round(t, config)
        games = tuple(g.with_result(rng.choice(RESULTS)) for g in result.games)
        t = t.with_round(Round(result.round_number, games, result.byes))
    _assert_same_optimum(t, config)


def test_weights_beyond_the_solver_limit_are_refused_with_the_limit_named() -> None:
    import numpy as np

    from swiss.pairing.weights import MAX_WEIGHT_BITS, RoundModel

    n = 1000
    arange = np.arange(n, dtype=np.int64)
    # Pairs that met 1..30 times: 30 repeat tiers of 9 bits each on top of everything else.
    met = {k * n + k + 1: k for k in range(1, 31)}
    with pytest.raises(WeightOverflowError, match=f"at most {MAX_WEIGHT_BITS} bits"):
        RoundModel(
            ids=arange + 1, score=np.zeros(n, dtype=np.int64), color_diff=np.zeros(n, np.int64),
            group_size=np.full(n, n), group_pos=arange, byes=np.zeros(n, np.int64), met=met,
            forbidden=set(), forbid=False, use_colors=True, beta=Fraction(2),
            system="burstein", seed=1, round_number=31,
        )
