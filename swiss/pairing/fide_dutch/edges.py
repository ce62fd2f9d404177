"""The FIDE Dutch matching graphs as numpy arrays: built once per round, cut per bracket.

Everything that does not depend on the bracket (who may meet whom under C1-C3, scores in
integer units, float history, bye eligibility) is computed once per round over the players
in rank order (C.04.3 A.2). Each bracket then selects the edges between players still
unpaired and computes its components for all of them at once: the Python loop per edge
costed O(n^2) interpreter steps per bracket, this costs O(n^2) numpy element steps.
Only the colour terms (C8-C11) stay in Python, for the pairs inside the bracket.

The components, their order and their packing are those described in
:mod:`swiss.pairing.fide_dutch.engine` and docs/fide-dutch.md ("Weights: packing and bits").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from swiss.model import Color
from swiss.pairing.fide_dutch.players import DutchPlayer
from swiss.pairing.matching import WeightOverflowError
from swiss.state import Float

LIMB_BITS = 62  # a packed component group must stay below 2**62 (int64, non-negative)


@dataclass(slots=True)
class RoundArrays:
    """The players to pair this round, in rank order, as arrays (index = position)."""

    ids: list[int]
    pos: dict[int, int]
    sc: np.ndarray  # score in integer units
    unplayed: np.ndarray
    can_pab: np.ndarray
    down: np.ndarray  # (4, n): the C12-C15 terms if the player floats down
    up: np.ndarray  # (4, n): the same if the player floats up
    gu: np.ndarray  # the pairs allowed by C1-C3 (positions, gu < gv)
    gv: np.ndarray
    rank_keys: dict[int, tuple[int, int]]  # the order of C.04.3 A.2, in integers
    colour_cache: dict[tuple[int, int], tuple[int, int, int, int]] = field(default_factory=dict)


def round_arrays(players: dict[int, DutchPlayer], order: Sequence[int], scale: int,
                 forbidden: Callable[[int, int], bool],
                 forbidden_pairs: frozenset[frozenset[int]] | None) -> RoundArrays:
    """The arrays of one round; ``order`` is the players to pair in rank order."""
    n = len(order)
    pos = {pid: i for i, pid in enumerate(order)}
    ps = [players[pid] for pid in order]
    sc = np.array([int(p.score * scale) for p in ps], dtype=np.int64)
    down = np.array([[int(p.float_prev is Float.DOWN) for p in ps], [0] * n,
                     [int(p.float_prev2 is Float.DOWN) for p in ps], [0] * n],
                    dtype=np.int64).reshape(4, n)
    up = np.array([[0] * n, [int(p.float_prev is Float.UP) for p in ps],
                   [0] * n, [int(p.float_prev2 is Float.UP) for p in ps]],
                  dtype=np.int64).reshape(4, n)
    # C1: the lower-ranked player's opponents as seen from the higher-ranked one (the
    # per-pair check asked ``b in a.played`` with ``a`` first in rank order).
    met = np.zeros((n, n), dtype=bool)
    for i, p in enumerate(ps):
        js = [pos[q] for q in p.played if q in pos]
        met[i, js] = True
    bad = met
    if forbidden_pairs is None:
        for i in range(n):
            for j in range(i + 1, n):
                if forbidden(order[i], order[j]):
                    bad[i, j] = True
    else:
        for pair in forbidden_pairs:
            if len(pair) != 2:
                continue
            a, b = tuple(pair)
            if a in pos and b in pos:
                bad[pos[a], pos[b]] = bad[pos[b], pos[a]] = True
    # C3: two absolute preferences for the same colour, unless one is a topscorer (A.7).
    absolute = np.array([p.strength == 3 for p in ps], dtype=bool)
    white = np.array([p.pref is Color.WHITE for p in ps], dtype=bool)
    top = np.array([p.topscorer for p in ps], dtype=bool)
    same = white[:, None] == white[None, :]  # both absolute: the preference is a colour
    bad |= absolute[:, None] & absolute[None, :] & same & ~(top[:, None] | top[None, :])
    gu, gv = np.nonzero(np.triu(~bad, 1))
    return RoundArrays(
        ids=list(order), pos=pos, sc=sc,
        unplayed=np.array([p.unplayed for p in ps], dtype=np.int64),
        can_pab=np.array([p.can_pab for p in ps], dtype=bool),
        down=down, up=up, gu=gu.astype(np.int64), gv=gv.astype(np.int64),
        rank_keys={pid: (-int(s), players[pid].seed) for pid, s in zip(order, sc.tolist(),
                                                                        strict=True)})


@dataclass(slots=True)
class BracketGraph:
    """One bracket's graph: vertices are the unpaired players (in rank order) and a bye."""

    vertices: int
    bye_v: int  # -1 when there is no bye vertex
    us: np.ndarray
    vs: np.ndarray
    comps: np.ndarray  # (components, edges), compared lexicographically, highest first
    focus: np.ndarray  # vertex mask: the bracket and the next one


def bracket_graph(
    ra: RoundArrays, unpaired: Sequence[int], bracket: Sequence[int], movers: set[int],
    nxt: Sequence[int], rules: str, one: int,
    colour_terms: Callable[[int, int], tuple[int, int, int, int]],
    sinks: bool = False,
    pab_unplayed: bool = False,
) -> BracketGraph:
    """The edges between the unpaired players (and the bye) with their component vectors.

    ``sinks``: the graph of a bracket paired on its own (2017, see
    :func:`swiss.pairing.fide_dutch.engine.pair_brackets`): ``unpaired`` is the bracket and
    the next scoregroup, and instead of a bye vertex every player ``i`` of the ``n`` gets a
    private sink ``n + i`` (matched to it: unpaired in both brackets), the sinks pairing among
    themselves freely, so any set of players may stay unpaired: no completion.

    ``pab_unplayed`` (2025): this bracket decides the PAB (see
    :func:`swiss.pairing.fide_dutch.engine._decides_pab`), so the bye edges carry the
    criterion "PAB to the player with the fewest unplayed rounds"."""
    ug = np.array([ra.pos[p] for p in unpaired], dtype=np.int64)
    n = ug.size
    odd = n % 2 == 1 and not sinks
    vertices = 2 * n if sinks else n + int(odd)
    bye_v = n if odd else -1
    loc = np.full(len(ra.ids), -1, dtype=np.int64)
    loc[ug] = np.arange(n)
    lu, lv = loc[ra.gu], loc[ra.gv]
    keep = (lu >= 0) & (lv >= 0)
    us, vs = lu[keep], lv[keep]
    if sinks:
        own = np.arange(n, dtype=np.int64)
        su, sv = np.triu_indices(n, 1)
        us = np.concatenate((us, own, n + su.astype(np.int64)))
        vs = np.concatenate((vs, n + own, n + sv.astype(np.int64)))
    if odd:
        pab = np.flatnonzero(ra.can_pab[ug])
        us = np.concatenate((us, pab))
        vs = np.concatenate((vs, np.full(pab.size, bye_v, dtype=np.int64)))

    def vertex_mask(players: Sequence[int] | set[int]) -> np.ndarray:
        mask = np.zeros(vertices, dtype=bool)
        mask[[loc[ra.pos[p]] for p in players]] = True
        return mask

    def per_vertex(values: np.ndarray) -> np.ndarray:
        out = np.zeros((*values.shape[:-1], vertices), dtype=np.int64)
        out[..., :n] = values[..., ug]
        return out

    in_b, in_n = vertex_mask(bracket), vertex_mask(nxt)
    sc = per_vertex(ra.sc)
    su, sv = sc[us], sc[vs]
    is_bye = vs == bye_v
    bu, bv = in_b[us], in_b[vs]
    both_b = bu & bv
    min_b = int(ra.sc[ug][in_b[:n]].min())
    min_n = int(ra.sc[ug][in_n[:n]].min()) if nxt else 0
    diff = np.abs(su - sv)
    # PSD of B (C6): a pair's score difference, a downfloater's score minus (lowest - 1 point).
    psd_b = np.where(both_b, diff, np.where(bu, su - min_b + one,
                                            np.where(bv, sv - min_b + one, -1)))
    nb = in_b | in_n
    au, av = nb[us], nb[vs]
    if nxt:
        # The next bracket holds this bracket's downfloaters and the next residents: a
        # downfloater matched further down floats on through the next bracket as well.
        psd_n = np.where(both_b, -1, np.where(au & av, diff, np.where(
            au, su - min_n + one, np.where(av, sv - min_n + one, -1))))
    else:
        psd_n = np.full(us.size, -1, dtype=np.int64)
    lv_b, lv_n = _levels(psd_b), _levels(psd_n)
    scores = ra.sc[ug]
    top_score = int(scores.max())
    unplayed = per_vertex(ra.unplayed)
    max_unplayed = int(unplayed[:n].max())
    big = 2 * (top_score - int(scores.min()) + one + 1)

    # C8-C11 on the pairs inside the bracket, with the colours E.1-E.5 would give.
    colour = np.zeros((4, us.size), dtype=np.int64)
    inside = np.flatnonzero(both_b)
    if inside.size:
        ids = ra.ids
        terms = [colour_terms(ids[ug[u]], ids[ug[v]])
                 for u, v in zip(us[inside].tolist(), vs[inside].tolist(), strict=True)]
        colour[:, inside] = np.array(terms, dtype=np.int64).T
    # C12-C19: repeated floats and their score differences. In a pair of unequal scores the
    # higher-ranked player (the lower vertex: vertices are in rank order) floats down.
    down, up = per_vertex(ra.down), per_vertex(ra.up)
    floated = both_b & (su != sv)
    one_b = bu ^ bv
    x = np.where(bu, us, vs)
    x_terms = down[:, x]
    fl = np.where(floated, down[:, us] + up[:, vs], np.where(one_b, x_terms, 0))
    fd = np.where(floated, fl * diff, np.where(one_b, x_terms * (sc[x] - min_b + one), 0))
    # The PAB to a player with as few unplayed rounds as possible: 2025 edition only,
    # between the next-bracket criterion and the colour criteria, and only in the bracket
    # that decides the PAB (``pab_unplayed``): where the player left over by the bracket is
    # the PAB itself, not when several float down (docs/fide-dutch.md, black-box checked).
    # The 2017 text has no such criterion (C.1-C.19): its PAB is whoever the brackets leave.
    bye_unplayed = np.where(is_bye, max_unplayed - unplayed[us], 0)

    rows: list[np.ndarray] = []
    if rules == "2025":
        # 2025: the pairing-allocated bye goes to as low a score as completion allows,
        # before any bracket's quality is considered.
        rows.append(np.where(is_bye, top_score - su, 0))
    rows.append(both_b.astype(np.int64))  # C5
    rows.extend((psd_b != lv).astype(np.int64) for lv in lv_b)  # C6, as benefits
    next_pair = ~is_bye & au & av & ~both_b & (in_n[us] | in_n[vs])
    rows.append(next_pair.astype(np.int64))  # C7
    rows.extend((psd_n != lv).astype(np.int64) for lv in lv_n)
    if rules == "2025" and pab_unplayed:
        rows.append(bye_unplayed)
    rows.extend(2 - colour)
    rows.extend(2 - fl)
    rows.extend(big - fd)
    comps = np.array(rows, dtype=np.int64).reshape(len(rows), us.size)
    return BracketGraph(vertices, bye_v, us, vs, comps, nb)


def _levels(values: np.ndarray) -> list[int]:
    """The distinct values >= 0, largest first (small integers: counted, not sorted)."""
    present = values[values >= 0]
    if not present.size:
        return []
    return np.flatnonzero(np.bincount(present))[::-1].tolist()


def pack(graph: BracketGraph, limit: int) -> tuple[np.ndarray, list[int]]:
    """The components as a few non-negative int64 limbs and their multipliers.

    Every perfect matching has ``vertices // 2`` edges, so shifting a component by its
    minimum changes every matching's total by the same amount: only the range of each
    component costs bits. Each component ``k`` gets the radix ``min(pairs, cover_k) *
    span_k + 1``, where ``cover_k`` is the size of a vertex cover of the edges on which it
    is not at its best (benefit) or not at its worst (cost), whichever is smaller: a matching
    holds at most that many such edges. Consecutive components are grouped into limbs below
    2**62. Raises :class:`WeightOverflowError` when the packed weights reach ``limit``.
    """
    comps, us, vs = graph.comps, graph.us, graph.vs
    if not us.size:
        return np.zeros((1, 0), dtype=np.int64), [1]
    lows = comps.min(axis=1)
    highs = comps.max(axis=1)
    spans = highs - lows
    live = [k for k in range(comps.shape[0]) if spans[k] > 0]
    # Each edge adds to a cover the endpoint in focus (bracket or next), else both ends.
    fu, fv = graph.focus[us], graph.focus[vs]
    first = np.where(fu, us, np.where(fv, vs, us))
    second_ok = ~(fu | fv)

    def cover_size(mask: np.ndarray) -> int:
        mark = np.zeros(graph.vertices, dtype=bool)
        mark[first[mask]] = True
        mark[vs[mask & second_ok]] = True
        return int(mark.sum())

    pairs = graph.vertices // 2
    radix: dict[int, int] = {}
    costs = 0  # the offset that kept the old packing's cost components non-negative
    mult: dict[int, int] = {}
    m = 1
    for k in reversed(live):
        row = comps[k]
        nb = cover_size(row != lows[k])
        nc = cover_size(row != highs[k])
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
            limb = np.zeros(us.size, dtype=np.int64)
            for g in group:
                limb += (comps[g] - lows[g]) * (mult[g] // base)
            limbs.append(limb)
            multipliers.append(base)
        if k is not None:
            group, product = [k], radix[k]
    if not limbs:
        return np.zeros((1, us.size), dtype=np.int64), [1]
    return np.array(limbs, dtype=np.int64).reshape(len(limbs), us.size), multipliers
