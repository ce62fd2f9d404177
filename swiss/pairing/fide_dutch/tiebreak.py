"""The tie-break tests of a FIDE Dutch bracket: among the optimal pairings, narrow down to the
Handbook's first one, one constraint at a time (:class:`TieBreak`).

A constraint (a pin of two players, a float, an S1/S2 split) is kept only when some optimum
meets it. Most tests are settled without a solve: the current optimum meets it, a swap of two
pairs or a short repair finds one, or the compiled matchings of :mod:`settle` and the cheap
necessary conditions reject it; the rest solve the bracket's matching again with the
constraint's edges only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from swiss.pairing import exact
from swiss.pairing.fide_dutch.settle import Settle
from swiss.pairing.fide_dutch.solver import Mask, Solver, mate_map

BRACKET_CHECK_MIN_EDGES = 3000
# Whether tie-break tests of graphs of BRACKET_CHECK_MIN_EDGES edges and more are first
# settled by the compiled matchings of settle.py (exact either way: off, every undecided test
# goes to _bracket_can_match and a solve; the tests compare both).
SETTLE_TESTS = True


@dataclass(slots=True)
class Pin:
    """The tie-break constraint pinning vertex ``p`` to ``q`` (``None``: ``p`` floats, no
    edge of his into the bracket ``is_b``), as an edge predicate; it touches only the edges
    of ``p`` and ``q``, so :meth:`TieBreak._mask` can list them instead of a pass over every
    edge."""

    p: int
    q: int | None
    is_b: np.ndarray

    def __call__(self, us: np.ndarray, vs: np.ndarray) -> np.ndarray:
        vp = self.p
        if self.q is None:
            return ~(((us == vp) & self.is_b[vs]) | ((vs == vp) & self.is_b[us]))
        lo, hi = min(vp, self.q), max(vp, self.q)
        # Keep the edges touching neither, and the one touching both: edges have u < v, so
        # it is lo-hi itself.
        return ((us == lo) | (vs == lo)) == ((us == hi) | (vs == hi))


class TieBreak:
    """Narrow the optimum down step by step: keep a constraint only if the optimum survives."""

    def __init__(self, solver: Solver, best: int, mate: dict[int, int], vertices: int,
                 bracket: np.ndarray) -> None:
        self.solver = solver
        self.best = best
        self.mate = mate
        self.vertices = vertices
        self.bracket = bracket  # vertex mask of the bracket the tests are about
        # Pins accepted but not yet applied to the live edges (see accept_pin): (p, q), q
        # None when p floats out of the bracket.
        self.pins: list[tuple[int, int | None]] = []
        # The optimum the arrays of _mate_arrays are of, its pairs as arrays, and each
        # matched vertex's row in them.
        self._arrays: tuple[dict[int, int], np.ndarray, np.ndarray, np.ndarray] | None = None
        self._warm_y: bytes | None = None  # the warm start's potentials (see _start)
        # _repair's adjacency of every edge of the solver (whose ``us`` it was built of):
        # each vertex's edge indices and other ends, grouped by vertex.
        self._adjacency: tuple[np.ndarray, np.ndarray, np.ndarray, list[int]] | None = None
        # The compiled decisions (settle.py), built at the first test that needs them.
        self._settle: Settle | None = None
        self._settle_tried = False
        # How many tests each way settled (read by benchmarks and replays).
        self.counts: dict[str, int] = {}

    def partner(self, v: int) -> int:
        return self.mate[v]

    def accept_pin(self, p: int, q: int | None, pred: Mask) -> bool:
        """:meth:`accept` for ``pred`` pinning vertex ``p`` to ``q`` (``None``: ``p`` floats,
        no edge of his into the bracket).

        Most pins are met by the current optimum: they are accepted on the spot and applied
        to the live edges later, all at once (:meth:`_flush`), instead of one numpy pass over
        the edges each.
        """
        mate = self.mate[p]
        if (mate == q) if q is not None else not self.bracket[mate]:
            self.pins.append((p, q))
            return True
        if q is not None and not self.solver.live((min(p, q), max(p, q))):
            # No optimum can hold an edge that is not live (not tight, or left out by an
            # accepted test): rejected without looking at the rest of the graph.
            return False
        return self.accept(pred, None if q is None else (p, q))

    def _flush(self) -> None:
        """Narrow the live edges to the pins accepted so far (the same edges as narrowing by
        each pin's predicate in turn)."""
        if not self.pins:
            return
        us, vs = self.solver.us, self.solver.vs
        partner = np.full(self.vertices, -1, dtype=np.int64)
        floats = np.zeros(self.vertices, dtype=bool)
        for p, q in self.pins:
            if q is None:
                floats[p] = True
            else:
                partner[p], partner[q] = q, p
        pu, pv = partner[us], partner[vs]
        keep = ((pu < 0) | (pu == vs)) & ((pv < 0) | (pv == us))
        keep &= ~((floats[us] & self.bracket[vs]) | (floats[vs] & self.bracket[us]))
        # A pinned pair's players have no implicit edge left (a floater keeps his).
        self.solver.narrow(keep, partner >= 0)
        self.pins.clear()

    def accept(self, pred: Mask, pair: tuple[int, int] | None = None) -> bool:
        """Keep ``pred`` (narrow the live edges to it) if the optimum survives it.

        ``pair``: ``pred`` pins these two vertices together; an optimum that keeps it is
        then looked for first by one exchange of partners, without a solve.
        """
        # Accepted constraints narrow the solver's live edges once and for all, so each later
        # test only adds its own mask.
        self._flush()
        mu, mv = self._mate_arrays()
        mask = self._mask(pred)
        block = self.solver.block_of(pred)  # (the implicit edges it leaves out, if any)
        met = pred(mu, mv)
        if bool(np.all(met)):
            self.solver.narrow(mask, block)
            return self._count("met", True)
        if pair is not None and self._swap(pred, pair, met):
            self.solver.narrow(mask, block)
            return self._count("swap", True)
        settle = self._settler()
        usable = broken = None
        if settle is not None:
            # (first: most tests that get here are rejected by it, and it costs less than
            # covers' pass over every edge)
            usable = self.solver.alive & mask
            broken = np.zeros(self.vertices, dtype=bool)
            broken[mu[~met]] = True
            broken[mv[~met]] = True
            if settle.rejects(usable, self.solver.alive, self.mate, broken, block):
                return self._count("settle_rejects", False)
        if not self.solver.covers(mask, block):
            # a vertex has no edge left: no perfect matching, no solve needed
            return self._count("covers", False)
        if (settle is None and self.solver.us.size >= BRACKET_CHECK_MIN_EDGES
                and not self._bracket_can_match(mask, block)):
            # (on a small graph the solve below costs about as much)
            return self._count("bracket_can_match", False)
        repaired = self._repair(mask, met, pair, block)
        how = "repair"
        if repaired is None and settle is not None:
            assert usable is not None and broken is not None
            repaired = self._checked(settle.augment(usable, self.mate, broken), mask, block)
            how = "settle_augments"
        if repaired is not None:
            self.solver.narrow(mask, block)
            self.mate = repaired
            return self._count(how, True)
        self.solver.hint = [(u, v) for u, v in self.mate.items() if u < v]
        found = self.solver.solve(mask, start=self._start(), block=block)
        if found is not None and found[0] == self.best:
            self.solver.narrow(mask, block)
            self.mate = mate_map(found[1])
            return self._count("solve", True)
        return self._count("solve", False)

    def _mask(self, pred: Mask) -> np.ndarray:
        """``pred`` on every edge of the solver; a pin's from the adjacency of its two
        vertices when the compiled decisions have it (the same mask, without a pass over
        every edge)."""
        solver = self.solver
        settle = self._settler()
        if settle is None or not isinstance(pred, Pin):
            return pred(solver.us, solver.vs)
        adj = settle.adj
        mask = np.ones(solver.us.size, dtype=bool)
        p, q = pred.p, pred.q
        lo, hi = int(adj.starts[p]), int(adj.starts[p + 1])
        if q is None:
            mask[adj.eid[lo:hi][pred.is_b[adj.other[lo:hi]]]] = False
            return mask
        mask[adj.eid[lo:hi][adj.other[lo:hi] != q]] = False
        lo, hi = int(adj.starts[q]), int(adj.starts[q + 1])
        mask[adj.eid[lo:hi][adj.other[lo:hi] != p]] = False
        return mask

    def _count(self, how: str, verdict: bool) -> bool:
        key = f"{how} {'yes' if verdict else 'no'}"
        self.counts[key] = self.counts.get(key, 0) + 1
        return verdict

    def _settler(self) -> Settle | None:
        """The compiled decisions of this bracket's tests (settle.py), when they are on
        (:data:`SETTLE_TESTS`) and the graph is big enough for them to pay; else ``None``."""
        if not self._settle_tried:
            self._settle_tried = True
            solver = self.solver
            if (SETTLE_TESTS and solver.base is not None and solver.backend == "exact"
                    and solver.us.size >= BRACKET_CHECK_MIN_EDGES):
                self._settle = Settle(self.vertices, solver.us, solver.vs, solver.imp,
                                      solver.base, solver.multipliers, self.bracket)
                adj = self._settle.adj
                # _repair's adjacency is the same (the same stable sort of the edge ends).
                self._adjacency = (solver.us, adj.eid, adj.other, adj.starts.tolist())
        return self._settle

    def _checked(self, mate: dict[int, int] | None, mask: np.ndarray,
                 block: np.ndarray | None) -> dict[int, int] | None:
        """``mate`` if it is a perfect matching of live edges of ``mask`` (implicit ones of
        no ``block``-ed vertex) of the best weight: an optimum that passes the test."""
        if mate is None:
            return None
        pairs = [(u, v) for u, v in mate.items() if u < v]
        if (len(pairs) * 2 != self.vertices or not self.solver.pairs_alive(pairs, mask, block)
                or self.solver.weight(pairs) != self.best):
            return None
        return mate


    def _repair(self, mask: np.ndarray, met: np.ndarray, pair: tuple[int, int] | None,
                block: np.ndarray | None = None) -> dict[int, int] | None:
        """An optimum that meets the test, found without a solve, or ``None``.

        The current optimum's pairs that break the test are undone (and ``pair`` matched),
        and the players left free are matched again along augmenting paths of live edges
        that meet the test, found by an alternating breadth-first search (one that does not
        shrink blossoms: it may miss a path, never makes a wrong one). The result is kept
        only if it is a perfect matching of live, test-meeting edges of the optimum weight:
        then the test is passed for certain. Any failure leaves the decision to the solve.
        """
        solver = self.solver
        mu, mv = self._mate_arrays()
        mate = dict(self.mate)
        free: list[int] = []
        for r in np.flatnonzero(~met).tolist():
            u, v = int(mu[r]), int(mv[r])
            del mate[u], mate[v]
            free += (u, v)
        blocked: set[int] = set()
        if pair is not None:
            p, q = pair
            for x in (p, q):
                if x in mate:
                    other = mate.pop(x)
                    del mate[other]
                    free.append(other)
            free = [x for x in free if x not in (p, q)]
            mate[p], mate[q] = q, p
            blocked = {p, q}  # the pinned pair stays as it is
        if len(free) > 8:
            return None  # many changes: leave it to the solve
        # The adjacency of all the solver's edges is built once (its edges never change:
        # only ``alive``), and each vertex the search reaches filters its own edges by
        # ``alive & mask``: the same neighbours in the same order as an adjacency of the
        # live test-meeting edges, without sorting 2.6 million edge ends per repair (the
        # 10,000-player round's fourth bracket has 1.3 million live pairs).
        usable = solver.alive & mask
        adj = self._adjacency
        if adj is None or adj[0] is not solver.us:
            ends = np.concatenate((solver.us, solver.vs))
            order = np.argsort(ends, kind="stable")
            edge_of = order % max(solver.us.size, 1)
            other_end = np.concatenate((solver.vs, solver.us))[order]
            bounds = np.searchsorted(ends[order], np.arange(self.vertices + 1)).tolist()
            adj = self._adjacency = (solver.us, edge_of, other_end, bounds)
        _built, edge_of, other_end, starts = adj

        def neighbours(x: int) -> list[int]:
            lo, hi = starts[x], starts[x + 1]
            return other_end[lo:hi][usable[edge_of[lo:hi]]].tolist()
        unmatched = set(free)
        while unmatched:
            source = unmatched.pop()
            # Alternating BFS from ``source``: non-matching edge to y, matching edge y-mate[y].
            seen = {source} | blocked
            came: dict[int, int] = {}  # y -> the x it was reached from
            frontier = [source]
            end = -1
            while frontier and end < 0:
                nxt: list[int] = []
                for x in frontier:
                    for y in neighbours(x):
                        if y in seen:
                            continue
                        if y in unmatched:
                            came[y], end = x, y
                            break
                        z = mate.get(y)
                        if z is None or z in seen:
                            continue
                        seen.update((y, z))
                        came[y] = x
                        nxt.append(z)
                    if end >= 0:
                        break
                frontier = nxt
            if end < 0:
                return None
            unmatched.discard(end)
            y = end
            while True:  # flip the path: y takes the x it came from, x's old mate goes on
                x = came[y]
                old = mate.get(x)
                mate[x], mate[y] = y, x
                if x == source:
                    break
                y = old  # type: ignore[assignment]
        pairs = [(u, v) for u, v in mate.items() if u < v]
        if len(pairs) * 2 != self.vertices:
            return None
        if not solver.pairs_alive(pairs, mask, block):
            return None
        if solver.weight(pairs) != self.best:
            return None
        return mate

    def _start(self) -> exact.Solution | None:
        """The warm start of a test's solve: the current optimum with the duals the tight
        edges were found with (feasible on every live edge: all of them are tight)."""
        base = self.solver.base
        if base is None or self.solver.imp is not None:
            return None  # (implicit solves start from their candidates)
        mate = np.empty(self.vertices, dtype=np.int64)
        for u, v in self.mate.items():
            mate[u] = v
        if self._warm_y is None:  # the same duals for every test of the bracket
            self._warm_y = exact.warm_potentials(base, self.vertices)
        return exact.Solution(mate, base.y, base.blossoms, base.wide, warm_y=self._warm_y)

    def _bracket_can_match(self, mask: np.ndarray, block: np.ndarray | None = None) -> bool:
        """A necessary condition for a perfect matching, checked on the bracket alone: the
        bracket players whose every live edge stays in the bracket can all be matched there.

        Decided by a perfect matching of a small graph: the bracket's edges, plus one spare
        vertex for each bracket player who may leave, joined to that player, the spares
        forming a clique (with one more spare if the count is odd).
        """
        solver = self.solver
        keep = solver.alive & mask
        us, vs = solver.us[keep], solver.vs[keep]
        inside = self.bracket[us] & self.bracket[vs]
        leaves = np.zeros(self.vertices, dtype=bool)
        leaves[us[~inside & self.bracket[us]]] = True
        leaves[vs[~inside & self.bracket[vs]]] = True
        imp = solver.imp
        if imp is not None:  # an implicit edge to R leaves the bracket
            leaves |= imp.has_r & imp.usable(np.arange(self.vertices), block)
        members = np.flatnonzero(self.bracket)
        spare_of = members[leaves[members]]
        local = np.full(self.vertices, -1, dtype=np.int64)
        local[members] = np.arange(members.size)
        b = members.size
        spares = spare_of.size + (b + spare_of.size) % 2
        n = b + spares
        su = [local[us[inside]], local[spare_of]]
        sv = [local[vs[inside]], b + np.arange(spare_of.size)]
        if spares > 1:
            cu, cv = np.triu_indices(spares, 1)
            su.append(b + cu)
            sv.append(b + cv)
        gu = np.concatenate(su).astype(np.int64)
        gv = np.concatenate(sv).astype(np.int64)
        zero = np.zeros((1, gu.size), dtype=np.int64)
        return exact.solve(n, gu, gv, zero, [1], duals=False) is not None

    def _mate_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The current optimum's pairs ``(u, v)``, ``u < v``, as two arrays (kept until the
        optimum changes)."""
        if self._arrays is None or self._arrays[0] is not self.mate:
            # (in numpy, the pairs in the order of the dict: rebuilt after every accepted
            # change of the optimum, some 500 times in a 1,000-player round)
            size = len(self.mate)
            keys = np.fromiter(self.mate.keys(), dtype=np.int64, count=size)
            values = np.fromiter(self.mate.values(), dtype=np.int64, count=size)
            first = keys < values
            mu, mv = keys[first], values[first]
            row = np.full(self.vertices, -1, dtype=np.int64)
            at = np.arange(mu.size, dtype=np.int64)
            row[mu] = at
            row[mv] = at
            self._arrays = (self.mate, mu, mv, row)
        return self._arrays[1], self._arrays[2]

    def _swap(self, pred: Mask, pair: tuple[int, int], met: np.ndarray) -> bool:
        """Whether matching ``pair`` and the two partners it leaves alone instead of the
        current mates gives a matching of the optimum weight that meets ``pred`` (then it
        becomes the current one): the cheapest change that could pin ``pair``. ``met``:
        ``pred`` on the current optimum's pairs (in :meth:`_mate_arrays` order).

        Only two pairs change: the other pairs stay live and keep their ``met``, and the
        current optimum's weight is the optimum, so the swap keeps it exactly when the two
        new pairs weigh what the two old ones did."""
        p, q = pair
        a, b = self.mate[p], self.mate[q]
        new = [(min(p, q), max(p, q)), (min(a, b), max(a, b))]
        old = [(min(p, a), max(p, a)), (min(q, b), max(q, b))]  # live: the optimum's
        solver = self.solver
        cols = solver.columns(new + old)
        if cols is None or not solver.pairs_alive(new):
            return False
        assert self._arrays is not None
        row = self._arrays[3]
        others = np.ones(met.size, dtype=bool)
        others[[int(row[p]), int(row[q])]] = False
        mu = np.array([u for u, _ in new], dtype=np.int64)
        mv = np.array([v for _, v in new], dtype=np.int64)
        if not bool(np.all(pred(mu, mv))) or not bool(np.all(met[others])):
            return False
        # The two new pairs weigh what the two old ones did (limb by limb is not enough:
        # the limbs of a weight are not unique, so the totals are compared).
        limbs = cols.tolist()
        if sum((r[0] + r[1] - r[2] - r[3]) * m
               for r, m in zip(limbs, solver.multipliers, strict=True)) != 0:
            return False
        mate = dict(self.mate)
        mate[p], mate[q], mate[a], mate[b] = q, p, b, a
        self.mate = mate
        return True
