"""The sparse candidate graph a big bracket is first solved on (pricing adds what is missing).
"""

from __future__ import annotations

import numpy as np


def sparse_candidates(us: np.ndarray, vs: np.ndarray, vertices: int, dense: np.ndarray,
                      per_vertex: int) -> np.ndarray:
    """A candidate mask: the edges between two ``dense`` vertices and, for every vertex,
    ``per_vertex`` of its edges (spread over the graph by a fixed hash of the edge).

    Exactly: of each vertex's edges as the lower end ``us``, and again as the upper end
    ``vs``, the ``per_vertex`` first in the order of (hash, edge index). They are found among
    the edges whose hash is below a threshold of one of their ends (a few times ``per_vertex``
    per vertex expected: a small set), not by sorting every edge: a vertex with fewer than
    ``per_vertex`` edges below its threshold (and more edges than that) takes all its edges
    into the set, so the set always holds every edge chosen, and choosing within it picks the
    same ones (:func:`_sparse_sorted`, the tests compare both). The edges are hashed
    :data:`SPARSE_CHUNK` at a time (a few MB of temporaries, not several edge-sized arrays).
    """
    keep = dense[us] & dense[vs]
    if not us.size:
        return keep
    full = 1 << 32
    wanted = SPARSE_PREFILTER * per_vertex
    limits, needs = [], []
    for ends in (us, vs):
        degree = np.bincount(ends, minlength=vertices)
        # Per vertex, a threshold leaving about ``wanted`` of its edges below it (all of
        # them when it has few); a vertex with fewer than per_vertex below takes all.
        limits.append(np.where(degree <= wanted, full,
                               (wanted * full) // np.maximum(degree, 1)))
        needs.append(np.minimum(degree, per_vertex))
    counted = [np.zeros(vertices, dtype=np.int64), np.zeros(vertices, dtype=np.int64)]
    picked: list[np.ndarray] = []
    for start in range(0, us.size, SPARSE_CHUNK):
        cu, cv = us[start:start + SPARSE_CHUNK], vs[start:start + SPARSE_CHUNK]
        key = _edge_hash(cu, cv, vertices)
        under_u = key < limits[0][cu]
        under_v = key < limits[1][cv]
        counted[0] += np.bincount(cu[under_u], minlength=vertices)
        counted[1] += np.bincount(cv[under_v], minlength=vertices)
        picked.append(start + np.flatnonzero(under_u | under_v))
    lacking = [c < need for c, need in zip(counted, needs, strict=True)]
    if lacking[0].any() or lacking[1].any():
        # (rare: the hash left some vertex short below its threshold) all its edges too
        picked += [np.flatnonzero(lacking[0][us] | lacking[1][vs])]
        at = np.unique(np.concatenate(picked))
    else:
        at = np.concatenate(picked)
    su, sv = us[at], vs[at]
    keep[at[_sparse_sorted(su, sv, _edge_hash(su, sv, vertices), per_vertex)]] = True
    return keep


def _edge_hash(us: np.ndarray, vs: np.ndarray, vertices: int) -> np.ndarray:
    """A fixed multiplicative hash of each edge, below 2**32: deterministic, and spread over
    the whole field, so the candidate graph is well connected (it need not be: pricing adds
    what is missing)."""
    key = us * vertices  # (in place from here: one edge-sized temporary, not four)
    key += vs
    key *= 2654435761
    key %= 1 << 32
    return key


def _sparse_sorted(us: np.ndarray, vs: np.ndarray, key: np.ndarray, per_vertex: int
                   ) -> np.ndarray:
    """Of each vertex's edges as ``us``, and again as ``vs``, the ``per_vertex`` first in the
    order of (``key``, edge index), as a mask: by sorting every edge."""
    keep = np.zeros(us.size, dtype=bool)
    order = np.argsort(key, kind="stable")
    for ends in (us, vs):
        sorted_ends = ends[order]
        idx = np.argsort(sorted_ends, kind="stable")
        grouped = sorted_ends[idx]
        rank = np.arange(grouped.size) - np.searchsorted(grouped, grouped, side="left")
        keep[order[idx[rank < per_vertex]]] = True
    return keep


# sparse_candidates's threshold: about this many times ``per_vertex`` edges per vertex below it.
SPARSE_PREFILTER = 4
SPARSE_CHUNK = 1 << 20  # edges hashed at a time by sparse_candidates
