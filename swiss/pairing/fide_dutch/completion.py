"""The 2017 edition's round-pairing outlook (A.9): whether the players still unpaired can
complete the round, and how good a bracket's pairing is on its own (C.5, C.6), which decide
the penultimate pairing bracket (see :func:`swiss.pairing.fide_dutch.engine.pair_brackets`).
"""

from __future__ import annotations

import numpy as np

from swiss.pairing import exact
from swiss.pairing.fide_dutch.context import Context, allowed
from swiss.pairing.fide_dutch.edges import RoundArrays, allowed_pairs
from swiss.pairing.fide_dutch.memory import BYTES_PER_EDGE, check_bracket_memory


def quality(ctx: Context, bracket: list[int], pairs: list[tuple[int, int]],
            floaters: list[int]) -> tuple[int, list[int]]:
    """C.5 and C.6 of a bracket's pairing as a key (smaller is better): pairs, then PSD."""
    sc = {p: int(ctx.players[p].score * ctx.scale) for p in bracket}
    low = min(sc.values()) - ctx.scale
    diffs = [abs(sc[a] - sc[b]) for a, b in pairs] + [sc[p] - low for p in floaters]
    return -len(pairs), sorted(diffs, reverse=True)


def alone_quality(ctx: Context, bracket: list[int]) -> tuple[int, list[int]]:
    """The best C.5/C.6 key of ``bracket`` paired on its own (the rest not considered).

    One perfect matching on the bracket plus one "float" vertex per player (floats pair with
    each other freely): pairs first, then fewest pairs/floaters at each PSD level, highest
    level first, as in the bracket weights (0/1 components packed in base b + 1: a perfect
    matching of 2b vertices has b edges, so no component total reaches the base).
    """
    P = ctx.players
    b = len(bracket)
    sc = {p: int(P[p].score * ctx.scale) for p in bracket}
    low = min(sc.values()) - ctx.scale
    cand: list[tuple[int, int, int]] = []
    for i in range(b):
        for j in range(i + 1, b):
            if allowed(P[bracket[i]], P[bracket[j]], ctx.forbidden):
                cand.append((i, j, abs(sc[bracket[i]] - sc[bracket[j]])))
        cand.append((i, b + i, sc[bracket[i]] - low))
    levels = sorted({v for _i, _j, v in cand}, reverse=True)

    def packed(comps: list[int]) -> int:
        w = 0
        for c in comps:
            w = w * (b + 1) + c
        return w

    edges = [(i, j, packed([int(j < b), *(int(v != lv) for lv in levels)]))
             for i, j, v in cand]
    free = packed([0] + [1] * len(levels))  # float-float: no pair, no PSD value
    edges += [(b + i, b + j, free) for i in range(b) for j in range(i + 1, b)]
    found = exact.solve_int(2 * b, edges)
    assert found is not None  # every player can float
    pairs = [(bracket[u], bracket[v]) for u, v in found.pairs() if v < b]
    paired = {p for ab in pairs for p in ab}
    return quality(ctx, bracket, pairs, [p for p in bracket if p not in paired])


# Partners per player of :func:`completable`'s first, sparse try (the next ones in rank):
# a perfect matching there proves "completable" without listing every allowed pair.
COMPLETABLE_WINDOW = 8


def completable(ra: RoundArrays, players: list[int]) -> bool:
    """Whether ``players`` can all be paired by the absolute criteria C1-C3, one of them
    (an odd number) taking the pairing-allocated bye (C2): A.9's round-pairing outlook.

    Exact: a perfect matching of a subgraph (each player with the next
    :data:`COMPLETABLE_WINDOW` in rank) is one of the full graph, so it answers "yes"; only
    when the subgraph has none is the full graph of allowed pairs solved (the answer then).
    """
    pos = np.array(sorted(ra.pos[p] for p in players), dtype=np.int64)
    if pos.size > 2 * COMPLETABLE_WINDOW and _has_perfect(ra, pos, *_near_pairs(ra, pos)):
        return True
    check_bracket_memory(pos.size, "the players still unpaired (A.9's check that the "
                         "round can be completed)", BYTES_PER_EDGE)
    us, vs, _ = allowed_pairs(ra, pos)
    return _has_perfect(ra, pos, us, vs)


def _near_pairs(ra: RoundArrays, pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The allowed pairs (C1-C3) among positions ``pos`` (ascending) of each player and
    the next :data:`COMPLETABLE_WINDOW` in rank, as local indices ``i < j``."""
    m = pos.size
    us = np.repeat(np.arange(m, dtype=np.int64), COMPLETABLE_WINDOW)
    vs = us + np.tile(np.arange(1, COMPLETABLE_WINDOW + 1, dtype=np.int64), m)
    inside = vs < m
    us, vs = us[inside], vs[inside]
    cls = ra.c3[pos]
    keep = ~((cls[us] == cls[vs]) & (cls[us] != 0))
    if ra.bad_i.size:
        # Refused pairs as one integer code each (positions: bad_i < bad_j, pos ascending).
        width = len(ra.ids)
        bad = ra.bad_i.astype(np.int64) * width + ra.bad_j.astype(np.int64)
        keep &= ~np.isin(pos[us] * width + pos[vs], bad)
    return us[keep], vs[keep]


def _has_perfect(ra: RoundArrays, pos: np.ndarray, us: np.ndarray, vs: np.ndarray) -> bool:
    """Whether the players at ``pos`` have a perfect matching on the pairs ``us``-``vs``
    (local indices), plus the pairing-allocated bye to one C2 allows when they are odd."""
    n = pos.size
    if n % 2:
        bye = np.flatnonzero(ra.can_pab[pos])
        us = np.concatenate((us, bye))
        vs = np.concatenate((vs, np.full(bye.size, n, dtype=np.int64)))
        n += 1
    zero = np.zeros((1, us.size), dtype=np.int64)
    return exact.solve(n, us, vs, zero, [1], duals=False) is not None
