"""Typed bracket graphs (edges.bracket_graph's ``typed``): the components computed once per pair
of vertex types equal the components computed edge by edge, on every edge, and pack gives the
same limbs and multipliers, in both editions, with and without implicit edges, on corpus
rounds and random histories (forbidden pairs, byes)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swiss.pairing import PairingConfig, PairingError, pair_round
from swiss.pairing.fide_dutch import candidates, edges, engine, packing
from swiss.trf import parse_trf
from tests.paths import FIXTURES
from tests.swiss.test_fide_dutch import _random_history
from tests.swiss.test_fide_dutch_implicit import _with_forbidden

LIMIT = engine.EXACT_MAX_WEIGHT


class _Compare:
    """Wraps bracket_graph: every graph the engine builds is also built typed and edge by
    edge (the reference: ``focus_only=False``, untyped), and the two compared."""

    def __init__(self) -> None:
        self.graphs = 0
        self.shared = 0  # graphs in which some column stands for several edges
        self.implicit = 0
        self.sinks = 0

    def __call__(self, *args: object, **kwargs: object) -> edges.BracketGraph:
        kwargs.pop("typed", None)
        typed = edges.bracket_graph(*args, **kwargs, typed=True)  # type: ignore[arg-type]
        reference = edges.bracket_graph(*args, **kwargs,  # type: ignore[arg-type]
                                        focus_only=False, typed=False)
        if kwargs.get("implicit"):
            # (the reference lists the same edges: implicit, untyped)
            reference = edges.bracket_graph(*args, **kwargs, typed=False)  # type: ignore[arg-type]
            assert reference.sub is None
        assert typed.col_of is not None
        assert typed.vertices == reference.vertices and typed.bye_v == reference.bye_v
        np.testing.assert_array_equal(typed.us, reference.us)
        np.testing.assert_array_equal(typed.vs, reference.vs)
        np.testing.assert_array_equal(typed.focus, reference.focus)
        np.testing.assert_array_equal(typed.all_comps(), reference.all_comps())
        typed_limbs, typed_mults = packing.pack(typed, LIMIT)
        ref_limbs, ref_mults = packing.pack(reference, LIMIT)
        assert typed_mults == ref_mults
        np.testing.assert_array_equal(typed_limbs, ref_limbs)
        if typed.sep is not None:
            assert reference.sep is not None
            np.testing.assert_array_equal(typed.sep.pseudo, reference.sep.pseudo)
            assert typed.sep.far_col == reference.sep.far_col
            self.implicit += 1
        self.graphs += 1
        self.shared += int(typed.comps.shape[1] < typed.us.size)
        self.sinks += int(bool(kwargs.get("sinks")) or (len(args) > 7 and bool(args[7])))
        return typed


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["2025", "2017"])
@pytest.mark.parametrize("implicit", [False, True])
def test_typed_graph_equals_the_edge_by_edge_graph_on_corpus_rounds(
    rules: str, implicit: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    compare = _Compare()
    monkeypatch.setattr(engine, "bracket_graph", compare)
    if implicit:
        monkeypatch.setattr(engine, "IMPLICIT_MIN_PLAYERS", 0)
    rounds = sorted((FIXTURES / f"dutch-{rules}").glob("t*/round-*.trf"))[::10]
    for path in rounds:
        pair_round(parse_trf(path.read_text()).tournament,
                   PairingConfig(system="fide-dutch", rules=rules))
    assert compare.graphs > 100 and compare.shared > 50
    if implicit:
        assert compare.implicit > (20 if rules == "2025" else 8)
    if rules == "2017":
        assert compare.sinks > 10


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(6, 40), played=st.integers(1, 6), seed=st.integers(0, 10**6),
       rules=st.sampled_from(["2025", "2017"]), implicit=st.booleans())
def test_typed_graph_equals_the_edge_by_edge_graph_on_random_histories(
    n: int, played: int, seed: int, rules: str, implicit: bool
) -> None:
    rng = random.Random(seed)
    t = _with_forbidden(_random_history(n, played + 2, played, seed, rules), rng, n)
    compare = _Compare()
    old = engine.bracket_graph, engine.IMPLICIT_MIN_PLAYERS
    engine.bracket_graph = compare  # type: ignore[assignment]
    engine.IMPLICIT_MIN_PLAYERS = 0 if implicit else old[1]
    try:
        pair_round(t, PairingConfig(system="fide-dutch", rules=rules))  # type: ignore[arg-type]
    except PairingError:
        pass
    finally:
        engine.bracket_graph, engine.IMPLICIT_MIN_PLAYERS = old  # type: ignore[assignment]


def test_big_graphs_are_typed_by_default() -> None:
    """From TYPED_MIN_EDGES edges on, bracket_graph types its edges without being asked."""
    t = _random_history(30, 4, 3, 7, "2025")
    seen: list[bool] = []
    real = edges.bracket_graph

    def spy(*args: object, **kwargs: object) -> edges.BracketGraph:
        graph = real(*args, **kwargs)  # type: ignore[arg-type]
        seen.append(graph.col_of is not None)
        return graph

    old = engine.bracket_graph, edges.TYPED_MIN_EDGES
    engine.bracket_graph = spy  # type: ignore[assignment]
    try:
        edges.TYPED_MIN_EDGES = 10**9
        first = pair_round(t, PairingConfig(system="fide-dutch"))
        assert seen and not any(seen)
        seen.clear()
        edges.TYPED_MIN_EDGES = 0
        second = pair_round(t, PairingConfig(system="fide-dutch"))
        assert seen and all(seen)
    finally:
        engine.bracket_graph, edges.TYPED_MIN_EDGES = old  # type: ignore[assignment]
    assert first.games == second.games and first.byes == second.byes


@st.composite
def _edge_lists(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, int, np.ndarray, int]:
    vertices = draw(st.integers(2, 90))
    density = draw(st.sampled_from([0.02, 0.1, 0.5, 1.0]))
    rng = random.Random(draw(st.integers(0, 10**6)))
    pairs = [(u, v) for u in range(vertices) for v in range(u + 1, vertices)
             if rng.random() < density]
    rng.shuffle(pairs)  # (the engine's edges are not always in row-major order)
    us = np.array([u for u, _ in pairs], dtype=np.int64)
    vs = np.array([v for _, v in pairs], dtype=np.int64)
    dense = np.array([rng.random() < 0.2 for _ in range(vertices)], dtype=bool)
    return us, vs, vertices, dense, draw(st.integers(1, 8))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(case=_edge_lists(), prefilter=st.sampled_from([1, 2, 4]),
       chunk=st.sampled_from([7, 1 << 20]))
def test_sparse_candidates_equal_those_of_sorting_every_edge(
    case: tuple[np.ndarray, np.ndarray, int, np.ndarray, int], prefilter: int, chunk: int
) -> None:
    """sparse_candidates picks its candidates among the edges below per-vertex thresholds: the same
    edges as sorting every edge by its hash (small prefilters force the fallback)."""
    us, vs, vertices, dense, per_vertex = case
    key = (us * vertices + vs) * 2654435761 % (1 << 32)
    expected = (dense[us] & dense[vs]) | candidates._sparse_sorted(us, vs, key, per_vertex)
    old = candidates.SPARSE_PREFILTER, candidates.SPARSE_CHUNK
    candidates.SPARSE_PREFILTER, candidates.SPARSE_CHUNK = prefilter, chunk
    try:
        got = candidates.sparse_candidates(us, vs, vertices, dense, per_vertex)
    finally:
        candidates.SPARSE_PREFILTER, candidates.SPARSE_CHUNK = old
    np.testing.assert_array_equal(got, expected)
