"""Can these vertices all be matched? Edmonds' cardinality search over a fixed edge list.

The compiled search (``_native/cover_search.h``, blossoms shrunk) answers, exactly, whether
some matching of a graph covers every vertex of a given set, starting from a given matching
and touching only the part of the graph its searches reach. The graph is a fixed edge list
(:class:`Adjacency`, built once) restricted per question to a vertex subset and to the edges
a boolean flag keeps, plus optionally one hub vertex joined to chosen vertices: so a
question costs what it touches, not a rebuild of the graph.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from swiss.pairing import _blossom  # type: ignore[attr-defined]

HUB = -1  # in ``verts``: the hub vertex (no edges of the list; joined to the ``leaver``s)


@dataclass(slots=True)
class Adjacency:
    """Each vertex's edges of the list ``(us[e], vs[e])``: ``other[starts[x]:starts[x + 1]]``
    are the other ends, ``eid[...]`` the edge indices (in the list's order per vertex)."""

    starts: np.ndarray
    other: np.ndarray
    eid: np.ndarray
    edges: int

    @classmethod
    def of(cls, vertices: int, us: np.ndarray, vs: np.ndarray) -> Adjacency:
        """The adjacency of ``vertices`` vertices and edges ``(us[e], vs[e])``."""
        ends = np.concatenate((us, vs)).astype(np.int64, copy=False)
        order = np.argsort(ends, kind="stable")
        eid = (order % max(us.size, 1)).astype(np.int64)
        other = np.concatenate((vs, us)).astype(np.int64, copy=False)[order]
        starts = np.searchsorted(ends[order], np.arange(vertices + 1)).astype(np.int64)
        return cls(starts, other, eid, int(us.size))


def cover(adj: Adjacency, usable: np.ndarray, verts: np.ndarray, need: np.ndarray,
          leaver: np.ndarray, mate: np.ndarray, even: np.ndarray | None = None) -> int:
    """Whether a matching covers every ``need`` vertex: -1 if so, else a need vertex (local
    index) that no matching covers together with the ones before it.

    The graph: the vertices ``verts`` (local index ``i`` is vertex ``verts[i]``; :data:`HUB`
    is a hub vertex joined to the ``leaver`` ones), the list's edges between two of them that
    ``usable`` (one flag per edge) keeps. ``mate``: the starting matching in local indices
    (-1: exposed; each pair must be an edge of that graph), overwritten with the final one
    (a matching covering every need vertex when the answer is -1).

    ``even`` (bool, one per vertex, overwritten when a vertex ``x`` is returned): the vertices
    an even alternating path from ``x`` reaches. When ``x`` is the only exposed vertex, they
    are exactly the vertices ``v`` such that the graph less ``v`` has a perfect matching.
    """
    if usable.dtype != np.bool_ or usable.size != adj.edges:
        raise ValueError("usable: one bool per edge of the list")
    k = verts.size
    if need.size != k or leaver.size != k or mate.size != k or mate.dtype != np.int64:
        raise ValueError("verts, need, leaver and mate (int64) must have one entry per vertex")
    if even is None:
        even = np.zeros(k, dtype=bool)
    elif even.dtype != np.bool_ or even.size != k:
        raise ValueError("even: one bool per vertex")
    return int(_blossom.cover(adj.starts, adj.other, adj.eid,
                              np.ascontiguousarray(usable),
                              np.ascontiguousarray(verts, dtype=np.int64),
                              np.ascontiguousarray(need, dtype=np.bool_),
                              np.ascontiguousarray(leaver, dtype=np.bool_), mate, even))
