"""The exchanges of a homogeneous bracket (C.04.3 D.2 / 2025 art. 4.3), in the Handbook's order.

:func:`exchanges` lists them (fewest players exchanged first); when one size has more than
:data:`EXCHANGE_CAP`, :func:`first_exchange` finds the first one that some optimum fits by
matchings instead, without listing them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

import numpy as np

from swiss.pairing.fide_dutch.context import NoPairing
from swiss.pairing.fide_dutch.solver import Mask, Solver, mate_map
from swiss.pairing.fide_dutch.tiebreak import TieBreak

# exchanges lists the exchanges of one size only up to this many; beyond it the first one
# that reaches the optimum is found by first_exchange.
EXCHANGE_CAP = 20000


def exchanges(s1: list[int], s2: list[int], res: list[int]
              ) -> Iterator[tuple[list[int], list[int]]]:
    """S1/S2 after each exchange, in the Handbook's order (C.04.3 D.2 / 2025 art. 4.3).

    Fewest players exchanged first; then the smallest difference between the sums of the
    bracket sequence numbers moved S2->S1 and S1->S2; then the exchange moving the lowest
    S1 players (largest BSN moved down, compared from the largest); then the one moving the
    highest S2 players (smallest BSN moved up, compared from the smallest). Stops before a
    size of more than :data:`EXCHANGE_CAP` exchanges (the caller then finds the first one
    with :func:`first_exchange`).
    """
    from itertools import combinations
    from math import comb

    bsn = {p: i + 1 for i, p in enumerate(res)}
    yield list(s1), list(s2)
    for size in range(1, min(len(s1), len(s2)) + 1):
        if comb(len(s1), size) * comb(len(s2), size) > EXCHANGE_CAP:
            return  # too many to list: the caller finds the first one by matchings
        options = []
        for down in combinations(s1, size):
            for up in combinations(s2, size):
                key = (
                    abs(sum(bsn[p] for p in up) - sum(bsn[p] for p in down)),
                    [-bsn[p] for p in sorted(down, key=bsn.__getitem__, reverse=True)],
                    [bsn[p] for p in sorted(up, key=bsn.__getitem__)],
                )
                options.append((key, down, up))
        options.sort(key=lambda o: o[0])
        for _key, down, up in options:
            n1 = sorted([p for p in s1 if p not in down] + list(up), key=bsn.__getitem__)
            n2 = sorted([p for p in s2 if p not in up] + list(down), key=bsn.__getitem__)
            yield n1, n2


def _split_of(mate: dict[int, int], res: list[int], s1: list[int], index: dict[int, int]
              ) -> tuple[list[int], list[int]]:
    """S1 and S2 of the remainder ``res`` that the matching ``mate`` fits with the fewest
    players exchanged: of each pair inside S1 the lower player moves to S2, of each pair
    inside S2 the higher one moves to S1, and S1 players left unpaired move to S2."""
    at = {index[q]: q for q in res}
    in_s1 = set(s1)
    new_s1: set[int] = set()
    for q in res:
        other = at.get(mate[index[q]])
        if other is None:
            continue  # unpaired in the remainder: S2
        hi, lo = (q, other) if res.index(q) < res.index(other) else (other, q)
        if q != hi:
            continue
        if (hi in in_s1 and lo in in_s1) or (hi not in in_s1 and lo not in in_s1):
            new_s1.add(hi)
        else:
            new_s1.add(hi if hi in in_s1 else lo)
    return [q for q in res if q in new_s1], [q for q in res if q not in new_s1]


def first_exchange(search: TieBreak, res: list[int], s1: list[int], index: dict[int, int]
                   ) -> tuple[list[int], list[int]]:
    """S1 and S2 of the remainder ``res`` after the first exchange (D.2 order, as in
    :func:`exchanges`) that some optimum of ``search`` fits, found without listing them.

    An optimum fits a split when each of its pairs inside ``res`` has one player in S1 and
    one in S2 and no S1 player floats. Of the splits it fits, the first in D.2's order is the
    one :func:`_split_of` takes (moving down the lower-ranked player of each pair inside S1
    and every S1 floater, up the higher-ranked of each pair inside S2): every BSN moved up
    exceeds every one moved down, so that choice is the best on each of D.2 a-d at once. So
    the first exchange reached is the least, over the optima, of their own splits, and each
    of its criteria is a property of the optimum's edges: a (players moved) and b (sum of
    the BSNs moved up minus those moved down) are sums over the edges, added as two weight
    components below all the others and maximised in one solve; c (the highest BSN moved
    down that differs) and d (the lowest BSN moved up that differs) are then decided player
    by player, as the transpositions are, keeping a and b at their best.
    """
    search._flush()
    base = search.solver
    n = base.vertices
    s1_set = set(s1)
    bsn = np.zeros(n, dtype=np.int64)
    role = np.zeros(n, dtype=np.int8)  # 0 outside the remainder, 1 in S1, 2 in S2
    for i, q in enumerate(res):
        bsn[index[q]] = i + 1
        role[index[q]] = 1 if q in s1_set else 2
    live = np.flatnonzero(base.alive)
    us, vs = base.us[live], base.vs[live]
    ru, rv = role[us], role[vs]
    bu, bv = bsn[us], bsn[vs]
    s1s1 = (ru == 1) & (rv == 1)
    s2s2 = (ru == 2) & (rv == 2)
    s1out = ((ru == 1) & (rv == 0)) | ((ru == 0) & (rv == 1))
    # Per edge: players it moves (a) and what it adds to (sum up - sum down) (b), both
    # minimised, as non-negative benefits (every perfect matching has n // 2 edges).
    moved = s1s1 | s2s2 | s1out
    b = np.where(s2s2, np.minimum(bu, bv),
                 np.where(s1s1, -np.maximum(bu, bv), np.where(s1out, -(bu + bv), 0)))
    top = len(res)
    limb_a = (~moved).astype(np.int64)
    limb_b = (top - b).astype(np.int64)  # in [0, 2 * top]
    pairs = n // 2
    radix_b = pairs * 2 * top + 1  # above any matching's total of limb_b
    scale = (pairs + 1) * radix_b  # above any matching's total of both
    limbs = np.vstack((base.limbs[:, live], limb_a, limb_b))
    multipliers = [m * scale for m in base.multipliers] + [radix_b, 1]
    # The compiled solver whatever the backend: the exchange found is the same whichever
    # optimum a backend returns.
    imp = None
    if base.imp is not None:
        # An implicit edge moves its F end when he is in S1 (he floats out of the
        # remainder: a = 0, b = top + his BSN); every other one moves no one.
        s1v = role == 1
        imp = base.imp.extended(np.vstack((np.where(s1v, 0, 1), np.where(s1v, top + bsn, top)
                                           )).astype(np.int64))
    alt = Solver(n, us, vs, limbs, multipliers, "exact", imp)
    alt.hint = [(u, v) for u, v in search.mate.items() if u < v]
    found = alt.solve()
    if found is None:  # cannot be: the current optimum is a perfect matching of these edges
        raise NoPairing("internal: no exchange reaches the optimum")
    narrowed = TieBreak(alt, found[0], mate_map(found[1]), n, search.bracket)
    # a is fixed now: every optimum of ``alt`` moves this many players each way.
    size = len(set(s1) - set(_split_of(narrowed.mate, res, s1, index)[0]))

    def keep(v: int, ok: Callable[[np.ndarray], np.ndarray]) -> Mask:
        """Edges of ``v`` only to partners that meet ``ok`` (others' edges untouched)."""
        def pred(eu: np.ndarray, ev: np.ndarray) -> np.ndarray:
            at_u, at_v = eu == v, ev == v
            other = np.where(at_u, ev, eu)
            return ~(at_u | at_v) | ok(other)
        return pred

    # c: the highest BSNs moved down first; d: then the lowest BSNs moved up first. Each
    # player in turn moves if some optimum moves him (then that is kept), else stays. A run
    # of players none of whom any optimum moves is found by one solve per block (blocks
    # doubling while none moves, halving to the first one who does): in a big bracket most
    # players cannot move and the first exchange moves few.
    for group, moves in ((list(reversed(s1)), _moves_down), (res[len(s1):], _moves_up)):
        chosen = 0
        i, step = 0, 1
        while i < len(group) and chosen < size:
            v = index[group[i]]
            test = partial(moves, v=v, role=role, bsn=bsn)
            if bool(test(np.array([narrowed.mate[v]], dtype=np.int64))[0]):
                # The current optimum moves him: accepted without a solve.
                if not narrowed.accept(keep(v, test)):
                    raise NoPairing("internal: no exchange reaches the optimum")
                chosen += 1
                i, step = i + 1, 1
                continue
            block = [index[q] for q in group[i:i + step]]
            if _some_optimum_moves(narrowed, block, moves, role, bsn):
                # (that optimum is the current one now; the first mover is in the block)
                step = max(1, step // 2)
                continue
            for w in block:  # no optimum moves them: they stay (no solve needed)
                stay = partial(moves, v=w, role=role, bsn=bsn)
                if not narrowed.accept(keep(w, lambda o, t=stay: ~t(o))):
                    raise NoPairing("internal: no exchange reaches the optimum")
            i, step = i + len(block), 2 * step
    s1x, s2x = _split_of(narrowed.mate, res, s1, index)
    # That optimum is one of ``search``'s (the tie-break components sit below all others):
    # the split is accepted there without a solve.
    search.mate = narrowed.mate
    return s1x, s2x


def _some_optimum_moves(search: TieBreak, block: list[int], moves: Callable[..., np.ndarray],
                        role: np.ndarray, bsn: np.ndarray) -> bool:
    """Whether some optimum of ``search`` (its accepted constraints kept) moves a vertex of
    ``block`` (``moves(other, v=...)``: partners with whom ``v`` moves); if so, such an
    optimum becomes ``search``'s current one.

    One solve of the live edges with one more component below all the others: each edge
    counts the ends of ``block`` it moves (a matching moves each at most once, so a radix of
    ``len(block) + 1`` keeps the optimum weight on top)."""
    search._flush()
    base = search.solver
    n = base.vertices
    in_block = np.zeros(n, dtype=bool)
    in_block[block] = True
    live = np.flatnonzero(base.alive)
    us, vs = base.us[live], base.vs[live]
    count = ((in_block[us] & moves(vs, v=us, role=role, bsn=bsn)).astype(np.int64)
             + (in_block[vs] & moves(us, v=vs, role=role, bsn=bsn)))
    radix = len(block) + 1
    imp = None
    if base.imp is not None:
        # An F vertex's implicit edges go to R (role 0: outside the remainder).
        f = base.imp.f
        fv = np.arange(f, dtype=np.int64)
        row = np.zeros((1, n), dtype=np.int64)
        row[0, :f] = in_block[:f] & moves(np.full(f, f, dtype=np.int64), v=fv, role=role,
                                          bsn=bsn)
        imp = base.imp.extended(row)
    alt = Solver(n, us, vs, np.vstack((base.limbs[:, live], count)),
                 [m * radix for m in base.multipliers] + [1], "exact", imp)
    alt.hint = [(u, v) for u, v in search.mate.items() if u < v]
    found = alt.solve()
    if found is None:  # cannot be: the current optimum is a perfect matching of these edges
        raise NoPairing("internal: no exchange reaches the optimum")
    weight, pairs = found
    if weight % radix == 0:
        return False
    search.mate = mate_map(pairs)
    return True


def _moves_down(other: np.ndarray, v: int, role: np.ndarray, bsn: np.ndarray) -> np.ndarray:
    """Partners ``other`` with whom S1 player ``v`` moves to S2: an S1 player ranked above
    him, or anyone outside the remainder (he floats)."""
    return (role[other] == 0) | ((role[other] == 1) & (bsn[other] < bsn[v]))


def _moves_up(other: np.ndarray, v: int, role: np.ndarray, bsn: np.ndarray) -> np.ndarray:
    """Partners ``other`` with whom S2 player ``v`` moves to S1: an S2 player ranked below
    him."""
    return (role[other] == 2) & (bsn[other] > bsn[v])

