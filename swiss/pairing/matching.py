"""Maximum cardinality, then maximum weight, matching of a general graph given as triples.

One function, :func:`max_weight_matching`, for the callers that hold a graph as
``(u, v, weight)`` triples: TCEC's viability checks, the MWM engine's dense reference path and
its error messages, the simulator's paper weights. Two backends:

* ``exact`` (the default): the compiled exact solver of :mod:`swiss.pairing.exact` (LEMON's
  blossom algorithm over 128/256-bit integers, or its light dense solver on small graphs),
  the one matching code that runs in production. It finds maximum weight *perfect*
  matchings, so maximum cardinality comes from a reduction (:func:`_exact`).
* ``networkx``: the readable pure-Python reference (unbounded integers), 100 times slower;
  the tests compare the compiled solver with it, and ``--backend networkx`` pairs with it.

``rustworkx`` is accepted as another name of ``exact``, for the callers and commands written
when that library served here (the same optimum: it implemented the same algorithm).

Weights must be ``int`` (floats lose exactness). Among several optimal matchings the backends
may return different ones; the pairing engines make their optimum unique (a final tie-break
term, see :mod:`swiss.pairing.mwm`) or do not depend on which one comes back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from swiss.pairing import exact

Backend = Literal["exact", "networkx", "rustworkx"]
Edge = tuple[int, int, int]


MAX_WEIGHT_BITS = 240  # the solver's 256-bit integers, with room for its scaled duals


class WeightOverflowError(ValueError):
    """The packed weights do not fit the backend's integer type."""


def max_weight_matching(
    n_vertices: int, edges: Sequence[Edge], backend: Backend = "exact"
) -> set[tuple[int, int]]:
    """Return a maximum-cardinality matching of maximum total weight.

    ``edges`` are ``(u, v, weight)`` with ``0 <= u, v < n_vertices`` and integer weights.
    The result holds each matched pair once as ``(min(u, v), max(u, v))``.
    """
    for _u, _v, w in edges[:1]:
        if not isinstance(w, int):
            raise TypeError("matching weights must be int (no floats: they lose exactness)")
    if backend in ("exact", "rustworkx"):
        return _exact(n_vertices, edges)
    if backend == "networkx":
        return _networkx(n_vertices, edges)
    raise ValueError(f"unknown matching backend {backend!r}; use 'exact' or 'networkx'")


def fits_exact(max_weight: int, min_weight: int = 0, n_vertices: int = 2) -> bool:
    """Whether weights in ``min_weight..max_weight`` on ``n_vertices`` vertices are within
    the compiled solver's exact range, maximum cardinality included (see :func:`_exact`)."""
    return _reduced_top(max_weight - min_weight, n_vertices) < 2**exact.WEIGHT_BITS


def _reduced_top(span: int, n_vertices: int) -> int:
    """The largest weight of :func:`_exact`'s doubled graph for weights spanning ``span``."""
    return _cardinality_bonus(span, n_vertices) + span + 1


def _cardinality_bonus(span: int, n_vertices: int) -> int:
    """More than any matching's total of the shifted weights ``1..span + 1``: added to every
    edge, one more pair outweighs any difference in weight."""
    return (n_vertices // 2) * (span + 1) + 1


def _exact(n_vertices: int, edges: Sequence[Edge]) -> set[tuple[int, int]]:
    """The compiled solver, which finds maximum weight perfect matchings.

    When the graph has a perfect matching, the best one is the answer: one solve. Otherwise
    (or with an odd number of vertices) the graph is solved doubled: two copies of it, each
    edge shifted to ``1..span + 1`` plus :func:`_cardinality_bonus`, and an edge of weight 0
    from each vertex to its twin. A perfect matching of the doubled graph leaves a vertex to
    its twin in one copy exactly when it does in the other, so both copies match the same
    number of pairs; the bonus puts the most pairs first, then the weight. The first copy's
    pairs are the answer.
    """
    if not edges:
        return set()
    low = min(w for _u, _v, w in edges)
    span = max(w for _u, _v, w in edges) - low
    if not fits_exact(span, 0, n_vertices):
        raise WeightOverflowError(
            f"edge weights spanning {span.bit_length()} bits on {n_vertices} vertices pass "
            f"the compiled solver's exact range ({exact.WEIGHT_BITS} bits, maximum cardinality "
            "included). Use the networkx backend for this graph."
        )
    if n_vertices % 2 == 0:
        found = exact.solve_int(n_vertices, list(edges), duals=False)
        if found is not None:
            return set(found.pairs())
    bonus = _cardinality_bonus(span, n_vertices)
    doubled: list[Edge] = []
    for u, v, w in edges:
        shifted = w - low + 1 + bonus
        doubled += ((u, v, shifted), (u + n_vertices, v + n_vertices, shifted))
    doubled += [(v, v + n_vertices, 0) for v in range(n_vertices)]
    found = exact.solve_int(2 * n_vertices, doubled, duals=False)
    assert found is not None  # every vertex may take its twin
    return {(u, v) for u, v in found.pairs() if v < n_vertices}


def _networkx(n_vertices: int, edges: Sequence[Edge]) -> set[tuple[int, int]]:
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(range(n_vertices))
    graph.add_weighted_edges_from(edges)
    mates = nx.max_weight_matching(graph, maxcardinality=True, weight="weight")
    return {(min(u, v), max(u, v)) for u, v in mates}
