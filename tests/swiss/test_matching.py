"""One matching library at run time: swiss.pairing.matching's compiled backend against networkx.

``max_weight_matching`` finds a maximum cardinality matching of maximum weight. Its default
backend is the compiled exact solver, which only finds maximum weight *perfect* matchings, so
graphs without one (odd vertex counts, isolated vertices, too few edges) go through a
doubling reduction: these tests check it against networkx, the readable reference, on any
graph, with ties and with weights far beyond 64 bits.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swiss.pairing import exact
from swiss.pairing.matching import WeightOverflowError, fits_exact, max_weight_matching

Edge = tuple[int, int, int]


@st.composite
def graphs(draw: st.DrawFn) -> tuple[int, list[Edge]]:
    """Any small graph: isolated vertices, odd counts, no perfect matching; few distinct
    weights (many tied optima), negative ones, and magnitudes up to 2**200."""
    n = draw(st.integers(0, 13))
    pairs = list(itertools.combinations(range(n), 2))
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs))
                  if pairs else st.just([]))
    scale = draw(st.sampled_from([1, 10**6, 2**70, 2**200]))
    low = draw(st.integers(-3, 0))
    weights = draw(st.lists(st.integers(low, 3), min_size=len(chosen), max_size=len(chosen)))
    return n, [(u, v, w * scale) for (u, v), w in zip(chosen, weights, strict=True)]


def _score(n: int, edges: list[Edge], mates: set[tuple[int, int]]) -> tuple[int, int]:
    """(pairs, total weight) of a matching, after checking that it is one of the graph."""
    weight = {(u, v): w for u, v, w in edges}
    ends = [x for pair in mates for x in pair]
    assert len(ends) == len(set(ends)), "a vertex matched twice"
    assert all(0 <= x < n for x in ends)
    assert all(u < v and (u, v) in weight for u, v in mates), "a pair that is not an edge"
    return len(mates), sum(weight[pair] for pair in mates)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs())
def test_the_compiled_backend_finds_what_networkx_finds(graph: tuple[int, list[Edge]]) -> None:
    """The same number of pairs and the same total weight (the pairs themselves may differ
    among tied optima), on graphs with and without a perfect matching."""
    n, edges = graph
    compiled = max_weight_matching(n, edges)
    reference = max_weight_matching(n, edges, "networkx")
    assert _score(n, edges, compiled) == _score(n, edges, reference)


def test_a_graph_without_a_perfect_matching_still_gets_the_most_pairs() -> None:
    """A heavy edge that would cost a pair loses to two light ones: cardinality first."""
    edges = [(0, 1, 1), (1, 2, 10**30), (2, 3, 1), (4, 5, 7)]
    assert max_weight_matching(7, edges) == {(0, 1), (2, 3), (4, 5)}
    # The odd vertex out and an isolated one: the best of the two-pair matchings.
    assert max_weight_matching(5, [(0, 1, 5), (1, 2, 9), (3, 4, 1)]) == {(1, 2), (3, 4)}
    assert max_weight_matching(3, []) == set()


def test_rustworkx_is_another_name_of_the_compiled_backend() -> None:
    """Older callers and ``--backend rustworkx`` keep working, on the compiled solver."""
    edges = [(0, 1, 3), (1, 2, 4), (2, 3, 3), (0, 3, 1)]
    assert max_weight_matching(4, edges, "rustworkx") == max_weight_matching(4, edges)
    with pytest.raises(ValueError, match="unknown matching backend"):
        max_weight_matching(4, edges, "lemon")  # type: ignore[arg-type]


def test_weights_beyond_the_compiled_range_are_refused_not_wrong() -> None:
    """Past the solver's integers (the doubling's cardinality bonus included) a clear
    error naming the backend that can do it; networkx has no bound; floats are refused."""
    top = 2**exact.WEIGHT_BITS
    assert fits_exact(2**200, 0, 1000)
    assert not fits_exact(top, 0, 2)
    edges = [(0, 1, top), (2, 3, 1)]
    with pytest.raises(WeightOverflowError, match="networkx"):
        max_weight_matching(4, edges)
    assert max_weight_matching(4, edges, "networkx") == {(0, 1), (2, 3)}
    with pytest.raises(TypeError):
        max_weight_matching(2, [(0, 1, 1.5)])  # type: ignore[list-item]
