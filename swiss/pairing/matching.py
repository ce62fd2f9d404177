"""The matching backend: maximum cardinality, then maximum weight, on integer weights.

One small function, :func:`max_weight_matching`, hides the library. ``rustworkx`` (Rust, about
100x faster) and ``networkx`` (pure Python, unbounded integers) serve the dense reference path
of the MWM engine, TCEC's viability checks and the error messages; the production path of the
MWM systems is :mod:`swiss.pairing.exact` (compiled, with a dual certificate). Both libraries
implement the same blossom algorithm (van Rantwijk); they can return different matchings when
several are optimal, which is why the engine makes the optimum unique with a final tie-break
term (see :mod:`swiss.pairing.mwm`).

rustworkx converts weights to i128 and its blossom code doubles them internally, so weights
must stay below 2**126. We refuse anything above :data:`RUSTWORKX_MAX_WEIGHT` with a clear
:class:`WeightOverflowError` instead of risking a silently wrong matching.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

Backend = Literal["rustworkx", "networkx"]
Edge = tuple[int, int, int]

RUSTWORKX_MAX_WEIGHT = 2**125


class WeightOverflowError(ValueError):
    """The packed weights do not fit the backend's integer type."""


def max_weight_matching(
    n_vertices: int, edges: Sequence[Edge], backend: Backend = "rustworkx"
) -> set[tuple[int, int]]:
    """Return a maximum-cardinality matching of maximum total weight.

    ``edges`` are ``(u, v, weight)`` with ``0 <= u, v < n_vertices`` and integer weights.
    The result holds each matched pair once as ``(min(u, v), max(u, v))``.
    """
    for _u, _v, w in edges[:1]:
        if not isinstance(w, int):
            raise TypeError("matching weights must be int (no floats: they lose exactness)")
    if backend == "rustworkx":
        return _rustworkx(n_vertices, edges)
    if backend == "networkx":
        return _networkx(n_vertices, edges)
    raise ValueError(f"unknown matching backend {backend!r}; use 'rustworkx' or 'networkx'")


def fits_rustworkx(max_weight: int) -> bool:
    """True when a graph whose largest weight is ``max_weight`` is safe for rustworkx."""
    return max_weight <= RUSTWORKX_MAX_WEIGHT


def _rustworkx(n_vertices: int, edges: Sequence[Edge]) -> set[tuple[int, int]]:
    import rustworkx as rx

    if edges:
        biggest = max(w for _u, _v, w in edges)
        if not fits_rustworkx(biggest):
            raise WeightOverflowError(
                f"edge weight needs {biggest.bit_length()} bits; rustworkx is exact only up to "
                f"{RUSTWORKX_MAX_WEIGHT.bit_length() - 1} bits (i128, doubled internally). "
                "Use the networkx backend for this tournament."
            )
    graph: rx.PyGraph = rx.PyGraph()  # multigraph=True: no per-insert duplicate check
    graph.add_nodes_from(range(n_vertices))
    graph.add_edges_from(list(edges))
    mates = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=_identity)
    return {(min(u, v), max(u, v)) for u, v in mates}


def _identity(weight: int) -> int:
    return weight


def _networkx(n_vertices: int, edges: Sequence[Edge]) -> set[tuple[int, int]]:
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(range(n_vertices))
    graph.add_weighted_edges_from(edges)
    mates = nx.max_weight_matching(graph, maxcardinality=True, weight="weight")
    return {(min(u, v), max(u, v)) for u, v in mates}
