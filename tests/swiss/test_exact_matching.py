"""The compiled exact matching (swiss.pairing.exact) against networkx, and its certificate."""

from __future__ import annotations

import random

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swiss.pairing.exact import Solution, solve, solve_int, solve_with_pricing, warm_potentials

Edges = list[tuple[int, int, int]]


def _random_graph(rng: random.Random, n: int, density: float, scale: int) -> Edges:
    return [
        (u, v, rng.randrange(-scale, scale))
        for u in range(n) for v in range(u + 1, n) if rng.random() < density
    ]


def _reference(n: int, edges: list[tuple[int, int, int]]) -> int | None:
    """networkx: the weight of a maximum weight perfect matching, None if there is none."""
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_weighted_edges_from(edges)
    mates = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(mates) != n:
        return None
    weight = {(u, v): w for u, v, w in edges}
    return sum(weight[(min(a, b), max(a, b))] for a, b in mates)


def _check_duals(n: int, edges: list[tuple[int, int, int]], sol: Solution) -> None:
    """Dual feasibility and complementary slackness, recomputed here from the raw duals."""
    holders = [set() for _ in range(n)]
    for b, (z, members) in enumerate(sol.blossoms):
        assert z >= 0
        for v in members.tolist():
            holders[v].add(b)
    matched = set(sol.pairs())
    for u, v, w in edges:
        z = sum(sol.blossoms[b][0] for b in holders[u] & holders[v])
        slack = sol.y[u] + sol.y[v] + z - 4 * w
        assert slack >= 0, (u, v)
        if (u, v) in matched:
            assert slack == 0, (u, v)
    mate = sol.mate
    for z, members in sol.blossoms:
        assert members.size % 2 == 1
        if z > 0:
            inside = int(np.isin(mate[members], members).sum()) // 2
            assert inside == (members.size - 1) // 2


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.sampled_from([0, 2, 4, 6, 8, 12, 20, 30, 50]),
    density=st.sampled_from([0.2, 0.5, 1.0]),
    scale=st.sampled_from([3, 10**6, 10**20, 10**35, 10**60]),
    wide=st.booleans(),
    seed=st.integers(0, 10**9),
)
def test_solver_matches_networkx_with_a_valid_certificate(
    n: int, density: float, scale: int, wide: bool, seed: int
) -> None:
    rng = random.Random(seed)
    edges = _random_graph(rng, n, density, scale)
    best = _reference(n, edges)
    sol = solve_int(n, edges, wide=wide)
    if best is None:
        assert sol is None
        return
    assert sol is not None
    pairs = sol.pairs()
    assert sorted(x for pair in pairs for x in pair) == list(range(n))  # a perfect matching
    weight = {(u, v): w for u, v, w in edges}
    assert all(pair in weight for pair in pairs)
    assert sum(weight[pair] for pair in pairs) == best
    _check_duals(n, edges, sol)
    if any(abs(w) >= 2**120 for _u, _v, w in edges):
        assert sol.wide  # above 2**120 the 256-bit path runs
    elif not wide:
        assert not sol.wide


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.sampled_from([0, 2, 4, 6, 8, 12, 16, 32, 34, 50, 64, 100, 128]),
    density=st.sampled_from([0.05, 0.2, 0.5, 1.0]),
    scale=st.sampled_from([2, 3, 50, 10**6, 10**20, 10**32, 10**40]),
    seed=st.integers(0, 10**9),
)
def test_small_dense_solver_reaches_lemons_optimum(
    n: int, density: float, scale: int, seed: int
) -> None:
    """``duals=False`` up to SMALL_VERTICES vertices runs the O(n^3) dense solver: the same
    optimum weight as LEMON (ties included: scale 2 and 3 make most matchings tie), the same
    answer when there is no perfect matching, and a perfect matching of real edges. Weights
    above its limit (10**40 > 2**110) fall back to LEMON."""
    rng = random.Random(seed)
    edges = _random_graph(rng, n, density, scale)
    lemon = solve_int(n, edges)
    small = solve_int(n, edges, duals=False)
    if lemon is None:
        assert small is None
        return
    assert small is not None and small.y == [] and small.blossoms == []
    pairs = small.pairs()
    assert sorted(x for pair in pairs for x in pair) == list(range(n))
    weight = {(u, v): w for u, v, w in edges}
    assert all(pair in weight for pair in pairs)
    assert sum(weight[p] for p in pairs) == sum(weight[p] for p in lemon.pairs())
    if n <= 16:
        assert sum(weight[p] for p in pairs) == _reference(n, edges)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.sampled_from([2, 4, 8, 16, 34, 64, 100, 128]),
    density=st.sampled_from([0.05, 0.2, 0.5, 1.0]),
    scale=st.sampled_from([2, 3, 50, 10**6, 10**17]),  # (one int64 component)
    seed=st.integers(0, 10**9),
)
def test_dense_solver_duals_are_a_valid_certificate(
    n: int, density: float, scale: int, seed: int
) -> None:
    """A cold solve with duals up to SMALL_VERTICES vertices (``dense=True``) runs the
    dense solver and turns its duals into LEMON's convention: the optimum weight LEMON
    finds (``wide=True`` forces LEMON) and a dual solution that is a certificate for it
    (ties included)."""
    from swiss.pairing import _blossom
    from swiss.pairing.exact import _i64, _to_bytes

    rng = random.Random(seed)
    edges = _random_graph(rng, n, density, scale)
    lemon = solve_int(n, edges, wide=True)
    us = np.array([u for u, _v, _w in edges], dtype=np.int64)
    vs = np.array([v for _u, v, _w in edges], dtype=np.int64)
    low = min((w for _u, _v, w in edges), default=0)
    comps = np.array([[w - low for _u, _v, w in edges]], dtype=np.int64)
    raw = _blossom.solve_dense(n, _i64(us), _i64(vs), comps, 1, _to_bytes([1]))
    if lemon is None:
        assert raw is None or not edges
        return
    assert raw is not None and raw is not False  # these weights are within its limits
    dense = solve_int(n, edges, dense=True)  # the same call through exact.solve
    assert dense is not None and not dense.wide
    weight = {(u, v): w for u, v, w in edges}
    assert sum(weight[p] for p in dense.pairs()) == sum(weight[p] for p in lemon.pairs())
    _check_duals(n, edges, dense)


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.sampled_from([2, 4, 10, 24, 60, 128]),
    density=st.sampled_from([0.3, 1.0]),
    # Small scales: many ties, many tight edges; 2**43 straddles the span (2**44) below
    # which the dense solver runs in 64 bits.
    scale=st.sampled_from([2, 3, 50, 10**6, 2**43]),
    seed=st.integers(0, 10**9),
)
def test_dense_solver_lists_exactly_the_edges_of_reduced_cost_zero(
    n: int, density: float, scale: int, seed: int
) -> None:
    """``tight=True`` (the FIDE Dutch engine's tie-break graph) lists the edges whose
    reduced cost under the returned duals is zero, recomputed here from the raw duals."""
    rng = random.Random(seed)
    edges = _random_graph(rng, n, density, scale)
    sol = solve_int(n, edges, dense=True, tight=True)
    if sol is None:
        return
    assert sol.tight is not None  # within the dense solver's limits
    holders = [set() for _ in range(n)]
    for b, (_z, members) in enumerate(sol.blossoms):
        for v in members.tolist():
            holders[v].add(b)
    zero = [e for e, (u, v, w) in enumerate(edges)
            if sol.y[u] + sol.y[v] + sum(sol.blossoms[b][0] for b in holders[u] & holders[v])
            - 4 * w == 0]
    assert sol.tight.tolist() == zero
    assert solve_int(n, edges, dense=True).tight is None  # only when asked


def test_small_dense_solver_limits() -> None:
    from swiss.pairing import _blossom
    from swiss.pairing.exact import SMALL_VERTICES, _i64, _to_bytes

    def call(n: int, weight: int) -> object:
        us = np.arange(0, n - 1, 2, dtype=np.int64)
        vs = us + 1
        comps = (np.arange(us.size, dtype=np.int64) % 2).reshape(1, us.size)  # span: weight
        return _blossom.solve_small(n, _i64(us), _i64(vs), comps.tobytes(), 1, _to_bytes([weight]))

    assert np.frombuffer(call(4, 2**109), dtype="<i8").tolist() == [1, 0, 3, 2]
    assert call(4, 2**110) is False  # a span beyond its integers: the caller uses LEMON
    assert call(SMALL_VERTICES + 2, 1) is False  # beyond its size
    assert call(3, 1) is None  # odd: no perfect matching


def test_odd_vertex_count_has_no_perfect_matching() -> None:
    assert solve_int(3, [(0, 1, 5), (1, 2, 7)]) is None


def test_weights_from_components_are_exact_beyond_128_bits() -> None:
    # Two components, the first worth 2**200: a lexicographic choice that floats would lose.
    us = np.array([0, 2, 0, 1], dtype=np.int64)
    vs = np.array([1, 3, 2, 3], dtype=np.int64)
    comps = np.array([[1, 1, 1, 1], [0, 0, 1, 0]], dtype=np.int64)
    sol = solve(4, us, vs, comps, [2**200, 1])
    assert sol is not None and sol.pairs() == [(0, 2), (1, 3)]


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.sampled_from([4, 10, 24, 40]),
    keep=st.sampled_from([0.0, 0.1, 0.3]),
    cap=st.sampled_from([None, 1, 2]),
    seed=st.integers(0, 10**9),
)
def test_pricing_from_a_sparse_subgraph_finds_the_full_optimum(
    n: int, keep: float, cap: int | None, seed: int
) -> None:
    # cap: the solved graph bounded to cap x n edges (max_edges), shrunk to the tight edges
    # when pricing would pass it: the same optimum.
    rng = random.Random(seed)
    edges = _random_graph(rng, n, 0.7, 10**9)
    best = _reference(n, edges)
    weight = {(u, v): w for u, v, w in edges}
    low = min(weight.values(), default=0)

    def benefits(us: np.ndarray, vs: np.ndarray) -> np.ndarray:
        pairs = zip(us.tolist(), vs.tolist(), strict=True)
        return np.array([[weight[p] - low for p in pairs]], dtype=np.int64).reshape(1, us.size)

    all_u = np.array([u for u, _v, _w in edges], dtype=np.int64)
    all_v = np.array([v for _u, v, _w in edges], dtype=np.int64)

    def blocks(_solution: object):  # the full graph in two blocks
        half = all_u.size // 2
        yield all_u[:half], all_v[:half]
        yield all_u[half:], all_v[half:]

    chosen = np.array([rng.random() < keep for _ in edges], dtype=bool)
    sol = solve_with_pricing(n, all_u[chosen], all_v[chosen], [1], benefits, blocks,
                             max_edges=None if cap is None else cap * n)
    if best is None:
        assert sol is None
        return
    assert sol is not None
    assert sum(weight[p] for p in sol.pairs()) == best
    assert sol.stats["rounds"] >= 1
    _check_duals(n, [(u, v, w - low) for u, v, w in edges], sol)


def test_bad_edges_are_refused() -> None:
    with pytest.raises(ValueError, match="invalid vertices"):
        solve_int(2, [(0, 0, 1)])


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.sampled_from([2, 4, 6, 10, 16, 24, 40]),
    density=st.sampled_from([0.3, 0.6, 1.0]),
    scale=st.sampled_from([5, 10**6, 10**30, 10**40, 10**60]),
    keep=st.sampled_from([0.2, 0.6, 1.0]),
    reweigh=st.booleans(),
    wide=st.booleans(),
    seed=st.integers(0, 10**9),
)
def test_warm_started_solve_reaches_the_cold_optimum_with_a_valid_certificate(
    n: int, density: float, scale: int, keep: float, reweigh: bool, wide: bool, seed: int
) -> None:
    """A solve started from another graph's solution (a subgraph, or other weights: what the
    pricing loop hands over, and worse) ends at the same optimum as a cold solve, with duals
    that certify it on the whole graph."""
    rng = random.Random(seed)
    # a path through all vertices keeps most graphs perfectly matchable
    path = [(u, u + 1, rng.randrange(-scale, scale)) for u in range(n - 1)]
    edges = sorted({(u, v): w for u, v, w in path + _random_graph(rng, n, density, scale)}.items())
    edges_w = [(u, v, w) for (u, v), w in edges]
    sub = [(u, v, rng.randrange(-scale, scale) if reweigh else w)
           for u, v, w in edges_w if v == u + 1 or rng.random() < keep]
    first = solve_int(n, sub)
    if first is None:
        return
    cold = solve_int(n, edges_w)
    warm = solve_int(n, edges_w, start=first, wide=wide)
    assert cold is not None and warm is not None  # the subgraph's matching is one of the graph's
    weight = dict(edges)
    assert sum(weight[p] for p in warm.pairs()) == sum(weight[p] for p in cold.pairs())
    assert sum(weight[p] for p in cold.pairs()) == _reference(n, edges_w)
    assert sorted(x for pair in warm.pairs() for x in pair) == list(range(n))
    _check_duals(n, edges_w, warm)
    # The potentials handed over precomputed (Solution.warm_y): the same solve.
    given = Solution(first.mate, first.y, first.blossoms, first.wide,
                     warm_y=warm_potentials(first, n))
    again = solve_int(n, edges_w, start=given, wide=wide)
    assert again is not None and again.pairs() == warm.pairs() and again.y == warm.y


def test_warm_start_from_the_optimum_frees_only_the_blossom_bases() -> None:
    rng = random.Random(7)
    n = 60
    edges = _random_graph(rng, n, 0.5, 10**6) + [(u, u + 1, 0) for u in range(0, n, 2)]
    edges = list({(u, v): w for u, v, w in edges}.items())
    triples = [(u, v, w) for (u, v), w in edges]
    cold = solve_int(n, triples)
    assert cold is not None and cold.stats["freed"] == n
    warm = solve_int(n, triples, start=cold)
    assert warm is not None
    # the start is optimal: only the matched edges leaving a blossom lose their tightness
    bases = sum(1 for z, _members in cold.blossoms if z > 0)
    assert warm.stats["freed"] <= 2 * bases < n
    assert warm.pairs() == cold.pairs() or bases > 0
    _check_duals(n, triples, warm)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.integers(-(2**63), 2**63 - 1), st.integers(-(2**250), 2**250)),
                max_size=40))
def test_integer_words_round_trip_on_both_paths(values: list[int]) -> None:
    """The compiled module's 256-bit words, written and read on the 64-bit fast path (many
    values that fit) and the general one: the same bytes as int.to_bytes, the same ints."""
    from swiss.pairing.exact import _from_bytes, _to_bytes

    data = b"".join(v.to_bytes(32, "little", signed=True) for v in values)
    assert _to_bytes(values) == data
    back = _from_bytes(data)
    assert back == values and all(type(v) is int for v in back)
