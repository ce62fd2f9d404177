"""The FIDE Dutch bracket weights packed tightly: the components of a bracket graph as a few
int64 limbs and their multipliers (docs/fide-dutch.md, "Weights: packing and bits").
"""

from __future__ import annotations

import numpy as np

from swiss.pairing.fide_dutch.edges import BracketGraph
from swiss.pairing.matching import WeightOverflowError

LIMB_BITS = 62  # a packed component group must stay below 2**62 (int64, non-negative)


def _cover_sizes(graph: BracketGraph, us: np.ndarray, vs: np.ndarray, masks: np.ndarray
                 ) -> np.ndarray:
    """Per row of ``masks`` (over the edges ``us``-``vs``: the columns of ``graph.comps``),
    the size of a vertex cover of the edges it selects: each edge adds its endpoint in focus
    (bracket or next), else both ends (a matching holds at most that many such edges). With
    ``graph.sub``, the kept far edge stands for every far edge, and adds all their ends; a
    typed graph gives the ends each column adds (``graph.cover``)."""
    vertices = graph.vertices
    if graph.cover is not None:
        ends, cols = graph.cover
        order = np.argsort(ends, kind="stable")
        ends = ends[order]
        starts = np.flatnonzero(np.concatenate(([True], ends[1:] != ends[:-1])))
        mark = np.zeros((masks.shape[0], vertices), dtype=bool)
        if order.size:
            mark[:, ends[starts]] = np.logical_or.reduceat(masks[:, cols[order]], starts,
                                                           axis=1)
        if graph.sep is not None and graph.sep.far_col >= 0:
            mark[masks[:, graph.column(graph.sep.far_col)]] |= graph.sep.far_ends
        return np.count_nonzero(mark, axis=1)
    fu, fv = graph.focus[us], graph.focus[vs]
    first = np.where(fu, us, np.where(fv, vs, us))
    both = np.flatnonzero(~(fu | fv))  # edges out of focus: their second end too
    # Any selected edge per vertex, by one reduction over the edges grouped by ``first``.
    order = np.argsort(first, kind="stable")
    ends = first[order]
    starts = np.flatnonzero(np.concatenate(([True], ends[1:] != ends[:-1])))
    mark = np.zeros((masks.shape[0], vertices), dtype=bool)
    if order.size:
        mark[:, ends[starts]] = np.logical_or.reduceat(masks[:, order], starts, axis=1)
    if both.size:
        rows, at = np.nonzero(masks[:, both])
        mark[rows, vs[both[at]]] = True
    if graph.sub is not None:
        far = np.ones(graph.us.size, dtype=bool)
        far[graph.sub] = False
        far_ends = np.zeros(vertices, dtype=bool)
        far_ends[graph.us[far]] = True
        far_ends[graph.vs[far]] = True
        mark[masks[:, graph.kept_far]] |= far_ends
    if graph.sep is not None and graph.sep.far_col >= 0:
        # The far column stands for every edge inside R: all their ends.
        mark[masks[:, graph.sep.far_col]] |= graph.sep.far_ends
    return np.count_nonzero(mark, axis=1)


def pack(graph: BracketGraph, limit: int, *, expand: bool = True
         ) -> tuple[np.ndarray, list[int]]:
    """The components as a few non-negative int64 limbs and their multipliers.

    The limbs are rows over the edges, or with ``expand=False`` over the columns of
    ``graph.comps`` (:meth:`BracketGraph.edge_columns` gives the edges' from them).

    Every perfect matching has ``vertices // 2`` edges, so shifting a component by its
    minimum changes every matching's total by the same amount: only the range of each
    component costs bits. Each component ``k`` gets the radix ``min(pairs, cover_k) *
    span_k + 1``, where ``cover_k`` is the size of a vertex cover of the edges on which it
    is not at its best (benefit) or not at its worst (cost), whichever is smaller: a matching
    holds at most that many such edges. Consecutive components are grouped into limbs below
    2**62. Raises :class:`WeightOverflowError` when the packed weights reach ``limit``.
    """
    comps, every = graph.comps, graph.us.size
    if not every:
        return np.zeros((1, 0), dtype=np.int64), [1]
    # Everything below runs on the columns of comps (the near edges and one far edge: the
    # far edges' columns are all that one, so the minima, maxima and limbs are the same).
    sub = graph.sub
    if graph.cover is not None:  # (the cover incidences are the graph's: no edge lists)
        us = vs = np.zeros(0, dtype=np.int64)
    else:
        us, vs = (graph.us, graph.vs) if sub is None else (graph.us[sub], graph.vs[sub])
    # (as int64: comps may be int32, and radix products must not wrap)
    lows = comps.min(axis=1).astype(np.int64)
    highs = comps.max(axis=1).astype(np.int64)
    spans = highs - lows
    live = np.flatnonzero(spans > 0).tolist()
    pairs = graph.vertices // 2
    # The cover sizes of every live component's edges not at its best and not at its worst,
    # all at once (one pass over a (2 x components, edges) mask instead of a few numpy
    # calls per mask: at 100 players some 25 components and 9 brackets a round).
    rows = comps[live]
    sizes = _cover_sizes(graph, us, vs, np.concatenate((rows != lows[live, None],
                                                         rows != highs[live, None])))
    half = len(live)
    radix: dict[int, int] = {}
    costs = 0  # the offset that kept the old packing's cost components non-negative
    mult: dict[int, int] = {}
    m = 1
    for i in reversed(range(half)):
        k = live[i]
        nb, nc = int(sizes[i]), int(sizes[half + i])
        as_cost = nc < nb
        mult[k] = m
        radix[k] = min(pairs, nc if as_cost else nb) * int(spans[k]) + 1
        if as_cost:
            costs += int(spans[k]) * m
        m *= radix[k]
    if costs + 1 + m > limit:
        raise WeightOverflowError(
            f"fide-dutch weights need {(costs + 1 + m).bit_length()} bits for this bracket "
            f"({graph.vertices} vertices, {len(live)} live components); the matching backend "
            f"takes {limit.bit_length() - 1}")
    # Limbs: from the lowest component up, as many as fit below 2**62 per limb.
    limbs: list[np.ndarray] = []
    multipliers: list[int] = []
    group: list[int] = []
    product = 1
    for k in [*reversed(live), None]:
        if k is not None and product * radix[k] < 1 << LIMB_BITS:
            group.append(k)
            product *= radix[k]
            continue
        if group:
            base = mult[group[0]]
            # sum_g (comps[g] - lows[g]) * mult[g] // base, as one product (below 2**62)
            coef = np.array([mult[g] // base for g in group], dtype=np.int64)
            limbs.append(coef @ (comps[group] - lows[group, None]))
            multipliers.append(base)
        if k is not None:
            group, product = [k], radix[k]
    if not limbs:
        return np.zeros((1, every if expand else comps.shape[1]), dtype=np.int64), [1]
    packed = np.array(limbs, dtype=np.int64).reshape(len(limbs), comps.shape[1])
    return (graph.expand(packed) if expand else packed), multipliers
