"""One FIDE Dutch bracket's weighted graph and its exact solves (:class:`Solver`).

Small graphs are solved whole by the compiled exact solver; big ones from a sparse candidate
graph (:mod:`swiss.pairing.fide_dutch.candidates`) priced against the duals, their separable
edges possibly left implicit (:mod:`swiss.pairing.fide_dutch.implicit`). After the first
optimum only its tight edges are kept (:meth:`Solver.tight`): the tie-break tests
(:mod:`swiss.pairing.fide_dutch.tiebreak`) need no others.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from swiss.pairing import exact
from swiss.pairing.fide_dutch.candidates import sparse_candidates
from swiss.pairing.fide_dutch.implicit import Implicit
from swiss.pairing.matching import MAX_WEIGHT_BITS, WeightOverflowError, max_weight_matching

# A tie-break constraint: which edges (given as arrays of endpoints, u < v) it keeps.
Mask = Callable[[np.ndarray, np.ndarray], np.ndarray]

# Edges per vertex (as each end) in the sparse candidate graph of a priced solve.
CANDIDATES_PER_VERTEX = 6
# Whether a bracket with implicit edges also takes every edge between two of its ``focus``
# vertices into its candidates (off: its few edges per vertex are enough).
SPARSE_FOCUS_DENSE = False
# From this many edges a graph is solved by pricing from sparse candidates; a smaller one is
# solved whole, which costs less.
PRICING_MIN_EDGES = 20000


def mate_map(mates: set[tuple[int, int]]) -> dict[int, int]:
    """Each matched vertex's partner, both ways."""
    m: dict[int, int] = {}
    for u, v in mates:
        m[u] = v
        m[v] = u
    return m


class Solver:
    """One bracket's weighted graph, solved with some edges masked out.

    The weight of edge ``e`` is ``sum_j limbs[j, e] * multipliers[j]`` (non-negative int64
    limbs, Python-int multipliers). The default backend is the compiled exact solver
    (:func:`swiss.pairing.exact.solve`, LEMON's blossom algorithm over 128/256-bit
    integers), which takes the limbs as they are; each tie-break test only selects the live
    edges with a numpy mask. The reference backends (``networkx``, and ``rustworkx``, the old
    name of the compiled solver's dense path) solve the live edges as Python-int triples
    through :func:`swiss.pairing.matching.max_weight_matching` instead.
    """

    def __init__(self, vertices: int, us: np.ndarray, vs: np.ndarray, limbs: np.ndarray,
                 multipliers: list[int], backend: str, imp: Implicit | None = None) -> None:
        self.vertices = vertices
        # The separable edges left implicit (big brackets, see implicit.py), or None.
        self.imp = imp
        # A perfect matching of the graph known to the caller (pairs u < v), put in the
        # candidate graph of implicit solves so that it has a perfect matching.
        self.hint: list[tuple[int, int]] = []
        self.backend = "exact" if backend in ("auto", "exact") else backend
        self.us, self.vs = us, vs
        self.limbs = limbs
        self.multipliers = multipliers
        self.alive = np.ones(us.size, dtype=bool)
        keys = us * max(vertices, 1) + vs
        # The edges in key order (None: they are in that order already; a bracket's pairs
        # are listed row by row, so no sort and no index array of millions of edges).
        self._order: np.ndarray | None = None
        if keys.size < 2 or bool((keys[1:] > keys[:-1]).all()):
            self._keys = keys
        else:
            self._order = np.argsort(keys, kind="stable")
            self._keys = keys[self._order]
        del keys
        self.last: exact.Solution | None = None  # the last exact solution with duals
        self._last_edges: np.ndarray | None = None  # the edges it was solved on
        self.solves = 0
        # When set: the edges each solve starts from; the others are priced against the
        # duals and added when they violate them (exact.solve_with_pricing).
        self.candidate: np.ndarray | None = None
        # The dual solution every live edge is tight under (set by :meth:`tight`): solves
        # may warm-start from it.
        self.base: exact.Solution | None = None
        # The warm start's raised potentials of implicit test solves: (top, y, warm bytes).
        self._test_start: tuple[int, list[int], bytes] | None = None
        self._max_weight: int | None = None

    @property
    def max_weight(self) -> int:
        """A bound on every edge's weight (computed when first needed: pricing only)."""
        if self._max_weight is None:
            highs = self.limbs.max(axis=1, initial=0)
            if self.imp is not None:  # (no copy of the limbs beside the implicit columns)
                highs = np.maximum(highs, self.imp.col.max(axis=1, initial=0))
            self._max_weight = sum(int(high) * m
                                   for high, m in zip(highs.tolist(), self.multipliers,
                                                      strict=True))
        return self._max_weight

    def narrow(self, mask: np.ndarray, block: np.ndarray | None = None) -> None:
        """Keep only the listed edges of ``mask`` and the implicit edges of no ``block``-ed
        vertex."""
        self.alive &= mask
        if self.imp is not None and block is not None:
            self.imp.blocked |= block

    def block_of(self, pred: Mask) -> np.ndarray | None:
        """The vertices whose implicit edges ``pred`` leaves out (None: no implicit edges).

        Every tie-break constraint is about bracket players, and treats all R players alike
        (none is in the bracket, pinned or in a remainder): ``pred`` is evaluated on each F
        vertex's edge to the first R player, and must keep the edges inside R."""
        imp = self.imp
        if imp is None or imp.r_end <= imp.f:
            return None
        fv = np.arange(imp.f, dtype=np.int64)
        block = np.zeros(self.vertices, dtype=bool)
        block[:imp.f] = ~pred(fv, np.full(imp.f, imp.f, dtype=np.int64))
        if imp.r_end - imp.f >= 2:
            r = np.array([imp.f], dtype=np.int64)
            if not bool(pred(r, r + 1)[0]):
                raise AssertionError("a tie-break constraint on the edges inside R")
        return block

    def covers(self, mask: np.ndarray, block: np.ndarray | None = None) -> bool:
        """Whether every vertex keeps a live edge in ``mask`` (a perfect matching needs it).
        (Implicit edges: every R vertex and every unblocked F vertex with an R partner
        counts as covered: a weaker test, never a wrong "no".)"""
        keep = self.alive & mask
        touched = np.zeros(self.vertices, dtype=bool)
        touched[self.us[keep]] = True
        touched[self.vs[keep]] = True
        if self.imp is not None:
            imp = self.imp
            touched[imp.f:imp.r_end] = True
            touched |= imp.has_r & imp.usable(np.arange(self.vertices), block)
        return bool(touched.all())

    def _implicit(self, us: np.ndarray, vs: np.ndarray) -> np.ndarray:
        """Which pairs ``us < vs`` are implicit (not listed) edges."""
        if self.imp is None:
            return np.zeros(us.size, dtype=bool)
        return self.imp.in_r(vs)

    def columns(self, pairs: list[tuple[int, int]]) -> np.ndarray | None:
        """The limbs of pairs ``(u, v)``, ``u < v``, or None if one is not an edge."""
        us = np.array([u for u, _ in pairs], dtype=np.int64)
        vs = np.array([v for _, v in pairs], dtype=np.int64)
        imp = self._implicit(us, vs)
        out = np.zeros((self.limbs.shape[0], us.size), dtype=np.int64)
        if imp.any():
            assert self.imp is not None
            if not bool(self.imp.is_edge(us[imp], vs[imp]).all()):
                return None
            out[:, imp] = self.imp.col[:, us[imp]]
        listed = np.flatnonzero(~imp)
        if listed.size:
            idx = self.find([pairs[i] for i in listed.tolist()])
            if idx is None:
                return None
            out[:, listed] = self.limbs[:, idx]
        return out

    def pairs_alive(self, pairs: list[tuple[int, int]], mask: np.ndarray | None = None,
                    block: np.ndarray | None = None) -> bool:
        """Whether every pair ``(u, v)``, ``u < v``, is a live edge (and in ``mask`` /
        not ``block``-ed)."""
        us = np.array([u for u, _ in pairs], dtype=np.int64)
        vs = np.array([v for _, v in pairs], dtype=np.int64)
        imp = self._implicit(us, vs)
        if imp.any():
            assert self.imp is not None
            iu, iv = us[imp], vs[imp]
            if not bool((self.imp.is_edge(iu, iv) & self.imp.usable(iu, block)).all()):
                return False
        listed = [pairs[i] for i in np.flatnonzero(~imp).tolist()]
        if listed:
            idx = self.find(listed)
            if idx is None:
                return False
            ok = self.alive[idx] if mask is None else self.alive[idx] & mask[idx]
            if not bool(ok.all()):
                return False
        return True

    def _edge_at(self, at: np.ndarray | int) -> np.ndarray | int:
        """The edge indices at positions ``at`` of the key order."""
        return at if self._order is None else self._order[at]

    def _edge_index(self, pairs: list[tuple[int, int]]) -> np.ndarray:
        keys = np.array([u * max(self.vertices, 1) + v for u, v in pairs], dtype=np.int64)
        return self._edge_at(np.searchsorted(self._keys, keys))

    def find(self, pairs: list[tuple[int, int]]) -> np.ndarray | None:
        """The indices of edges ``(u, v)``, ``u < v``, or None if one is not in the graph."""
        keys = np.array([u * max(self.vertices, 1) + v for u, v in pairs], dtype=np.int64)
        at = np.minimum(np.searchsorted(self._keys, keys), max(self._keys.size - 1, 0))
        if not self._keys.size or not bool((self._keys[at] == keys).all()):
            return None
        return self._edge_at(at)

    def live(self, pair: tuple[int, int]) -> bool:
        """Whether edge ``pair`` (``u < v``) is in the graph and live."""
        key = pair[0] * max(self.vertices, 1) + pair[1]
        at = int(self._keys.searchsorted(key))
        return (at < self._keys.size and int(self._keys[at]) == key
                and bool(self.alive[self._edge_at(at)]))

    def weight(self, pairs: list[tuple[int, int]]) -> int:
        """The total weight of matched pairs ``(u, v)``, ``u < v``."""
        if self.imp is not None:
            cols = self.columns(pairs)
            assert cols is not None
            sums = cols.sum(axis=1).tolist()
        else:
            idx = self._edge_index(pairs)
            sums = self.limbs[:, idx].sum(axis=1).tolist()
        return sum(int(s) * m for s, m in zip(sums, self.multipliers, strict=True))

    def solve(self, mask: np.ndarray | None = None, duals: bool = False,
              start: exact.Solution | None = None, block: np.ndarray | None = None
              ) -> tuple[int, set[tuple[int, int]]] | None:
        """The best perfect matching on the live edges (and ``mask``; implicit edges: of no
        ``block``-ed vertex): its weight and pairs, or ``None`` when there is no perfect
        matching."""
        if self.imp is not None:
            self.solves += 1
            return self._solve_implicit(mask, block, duals)
        keep = self.alive if mask is None else self.alive & mask
        idx = np.flatnonzero(keep)
        self.solves += 1
        if self.backend == "exact" and self.candidate is not None:
            sol = self._solve_priced(idx)
            if sol is None:
                return None
            if duals:
                self.last = sol
            pairs = sol.pairs()
            self.candidate[self._edge_index(pairs)] = True
        elif self.backend == "exact":
            # dense: the tie-break tests are exact, so which optimum (and duals) comes back
            # changes no pairing.
            sol = exact.solve(self.vertices, self.us[idx], self.vs[idx],
                              self.limbs[:, idx], self.multipliers, duals=duals, start=start,
                              dense=True, tight=duals)
            if sol is None:
                return None
            if duals:
                self.last = sol
                self._last_edges = idx  # what sol.tight indexes
            pairs = sol.pairs()
        else:
            edges = [(int(self.us[e]), int(self.vs[e]), self._python_weight(int(e)))
                     for e in idx]
            found = max_weight_matching(self.vertices, edges,
                                        self.backend)  # type: ignore[arg-type]
            if len(found) * 2 < self.vertices:
                return None
            pairs = sorted((min(u, v), max(u, v)) for u, v in found)
        return self.weight(pairs), set(pairs)

    def _solve_implicit(self, mask: np.ndarray | None, block: np.ndarray | None,
                        duals: bool) -> tuple[int, set[tuple[int, int]]] | None:
        """:meth:`solve` with implicit edges: solved on candidate edges (the listed
        candidates, the implicit edges found so far, :attr:`hint`) and priced against every
        live listed edge and, by structure, every implicit one.

        A tie-break test (``mask`` or ``block``) is solved as a maximum weight perfect
        matching of every live edge with one more component above all others: 1 on the
        edges the test keeps. The current optimum (the hint) is a perfect matching of those
        edges, so the candidate graph always has one; the test passes exactly when the
        optimum keeps to the test on every pair and weighs the best weight."""
        imp = self.imp
        assert imp is not None
        n = self.vertices
        test = mask is not None or block is not None
        live = np.flatnonzero(self.alive)
        mults = list(self.multipliers)
        top = 0
        kept = np.ones(self.us.size, dtype=bool) if mask is None else mask
        if test:
            top = self.max_weight * (n // 2) + 1  # above any matching's total of the rest
            mults = [top, *mults]
        if ((self.max_weight + top) * max(n, 1)).bit_length() > MAX_WEIGHT_BITS:
            raise WeightOverflowError(
                f"fide-dutch tie-break weights need {(self.max_weight + top).bit_length()} "
                f"bits; the compiled solver takes {MAX_WEIGHT_BITS}")

        def listed_rows(idx: np.ndarray) -> np.ndarray:
            rows = self.limbs[:, idx]
            return np.vstack((kept[idx].astype(np.int64), rows)) if test else rows

        def implicit_rows(us: np.ndarray, _vs: np.ndarray) -> np.ndarray:
            rows = imp.col[:, us]
            if not test:
                return rows
            # (the edges inside R are always kept: their lower end is in R)
            keep = np.ones(us.size, dtype=bool) if block is None else (us >= imp.f) | ~block[us]
            return np.vstack((keep.astype(np.int64), rows))

        def benefits(bu: np.ndarray, bv: np.ndarray) -> np.ndarray:
            out = np.empty((len(mults), bu.size), dtype=np.int64)
            at = imp.in_r(bv)
            if at.any():
                out[:, at] = implicit_rows(bu[at], bv[at])
            other = ~at
            if other.any():
                idx = self._edge_at(np.searchsorted(self._keys, bu[other] * n + bv[other]))
                out[:, other] = listed_rows(idx)
            return out

        hard = None if test else block  # a test's block is a component, not a cut

        priced: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (the same every pass)

        def full_pass(sol: exact.Solution, lam: exact._Laminar, narrow: bool
                      ) -> tuple[np.ndarray, np.ndarray, int]:
            if not priced:
                at = live if test or mask is None else live[mask[live]]
                if not test and at.size == self.us.size:
                    # Every listed edge, as they are (the first solve of a big bracket: no
                    # copy of its millions of edges and limbs).
                    priced.append((self.us, self.vs, self.limbs))
                else:
                    priced.append((self.us[at], self.vs[at],
                                   np.ascontiguousarray(listed_rows(at))))
            lu, lv, rows = priced[0]
            bad, slack = exact.price(sol, n, lu, lv, rows, mults, lam, narrow)
            keys = [lu[bad] * n + lv[bad]]
            slacks = [slack]
            more, more_slack, count = imp.violated(sol, lam, narrow, mults, implicit_rows,
                                                   hard if not test else block, top)
            keys.append(more)
            slacks.append(more_slack)
            return np.concatenate(keys), np.concatenate(slacks), int(lu.size) + count

        def blocks(_sol: exact.Solution | None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
            # Only when the candidates have no perfect matching after widening: every edge
            # (the first bracket of a round that may have no pairing at all).
            yield self.us[live], self.vs[live]
            rr = np.arange(imp.f, imp.r_end, dtype=np.int64)
            for x in range(imp.r_end):
                u = np.full(rr.size, x, dtype=np.int64)
                ok = imp.is_edge(u, rr) & imp.usable(u, hard)
                if ok.any():
                    yield u[ok], rr[ok]

        def widen() -> tuple[np.ndarray, np.ndarray] | None:
            if imp.near_k >= imp.r_end - imp.f:
                return None
            imp.near_k *= 4
            more = imp.near(imp.near_k)
            more = more[imp.usable(more // n, hard)]
            return more // n, more % n

        cand = live if self.candidate is None else live[self.candidate[live]]
        if not test and mask is not None:
            cand = cand[mask[cand]]
        if not imp.near_k:
            imp.near_k = CANDIDATES_PER_VERTEX
            imp.pool = imp.near(imp.near_k)
        pool = imp.pool[imp.usable(imp.pool // n, hard)]
        hint = np.array([u * n + v for u, v in self.hint], dtype=np.int64)
        keys = exact._unique_sorted(np.concatenate((self.us[cand] * n + self.vs[cand], pool,
                                                    hint)))
        start = None
        if test and self.base is not None and len(self.hint) * 2 == n:
            # The current optimum with the first optimum's duals, each potential raised by
            # the test's component: feasible on every edge (those the test leaves out gain
            # slack), tight on the optimum's pairs the test keeps. The solve re-augments
            # only from the ends of the pairs it leaves out.
            mate = np.empty(n, dtype=np.int64)
            for u, v in self.hint:
                mate[u], mate[v] = v, u
            if self._test_start is None or self._test_start[0] != top:
                # The same raised duals for every test of the bracket (base and top are
                # fixed): their warm-start potentials are converted once, not per solve.
                raised = exact.Solution(mate, [y + 2 * top for y in self.base.y],
                                        self.base.blossoms, self.base.wide)
                self._test_start = (top, raised.y, exact.warm_potentials(raised, n))
            start = exact.Solution(mate, self._test_start[1], self.base.blossoms,
                                   self.base.wide, warm_y=self._test_start[2])
        sol = exact.solve_with_pricing(n, keys // n, keys % n, mults, benefits, blocks,
                                       max_weight=self.max_weight + top,
                                       full_pass=full_pass, widen=widen, start=start)
        if sol is None:
            return None
        pairs = sol.pairs()
        pu = np.array([u for u, _ in pairs], dtype=np.int64)
        pv = np.array([v for _, v in pairs], dtype=np.int64)
        at = imp.in_r(pv)
        imp.pool = np.union1d(imp.pool, pu[at] * n + pv[at])
        if self.candidate is not None and (~at).any():
            self.candidate[self._edge_index([pairs[i] for i in np.flatnonzero(~at)])] = True
        if test:
            if not bool(benefits(pu, pv)[0].all()):
                return None  # the test's edges have no perfect matching
        elif duals:
            self.last = sol
        return self.weight(pairs), set(pairs)

    def sparsify(self, dense: np.ndarray) -> bool:
        """Solve from now on by pricing from a sparse candidate graph (see
        :func:`sparse_candidates`), if the graph is large enough for that to pay; return
        whether it is."""
        if self.backend != "exact" or self.us.size < PRICING_MIN_EDGES:
            return False  # small enough: solving the whole graph costs less than pricing
        if self.imp is not None and not SPARSE_FOCUS_DENSE:
            dense = np.zeros(self.vertices, dtype=bool)
        self.candidate = sparse_candidates(self.us, self.vs, self.vertices, dense,
                                           CANDIDATES_PER_VERTEX)
        return True

    def _solve_priced(self, idx: np.ndarray) -> exact.Solution | None:
        """The best perfect matching on edges ``idx``, solved on the candidate ones among
        them and priced against the duals (exact: the dual certificate is checked)."""
        n = self.vertices
        if idx.size == self.us.size:  # every edge (the first solve): no copies
            us, vs, limbs = self.us, self.vs, self.limbs
        else:
            us, vs, limbs = self.us[idx], self.vs[idx], self.limbs[:, idx]
        assert self.candidate is not None
        start = self.candidate[idx]

        def benefits(bu: np.ndarray, bv: np.ndarray) -> np.ndarray:
            return self.limbs[:, self._edge_at(np.searchsorted(self._keys, bu * n + bv))]

        def blocks(_sol: exact.Solution | None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
            yield us, vs

        def full_pass(sol: exact.Solution, lam: exact._Laminar, narrow: bool
                      ) -> tuple[np.ndarray, np.ndarray, int]:
            bad, slack = exact.price(sol, n, us, vs, limbs, self.multipliers, lam, narrow)
            return us[bad] * n + vs[bad], slack, int(idx.size)

        def widen() -> tuple[np.ndarray, np.ndarray] | None:
            raise _NoCandidateMatching

        try:
            return exact.solve_with_pricing(n, us[start], vs[start], self.multipliers,
                                            benefits, blocks, max_weight=self.max_weight,
                                            full_pass=full_pass, widen=widen)
        except _NoCandidateMatching:
            # The candidates have no perfect matching: solve the whole graph at once (it
            # usually has none either: a rejected tie-break test).
            return exact.solve(n, us, vs, limbs, self.multipliers)

    def _python_weight(self, e: int) -> int:
        return sum(int(self.limbs[j, e]) * m for j, m in enumerate(self.multipliers))

    def _release(self) -> None:
        """Drop the edge arrays (the solver is not used after this)."""
        empty = np.zeros(0, dtype=np.int64)
        self.us = self.vs = self._keys = empty
        self._order = None
        self.limbs = np.zeros((self.limbs.shape[0], 0), dtype=np.int64)
        self.alive = np.zeros(0, dtype=bool)
        self.candidate = None

    def tight(self, sol: exact.Solution, dense: np.ndarray) -> Solver:
        """The same graph with only the live edges whose reduced cost under ``sol``'s duals
        is zero (``sol`` solved this graph's live edges), solved from then on by pricing
        from a sparse candidate graph: the edges of ``sol``, every edge between two
        ``dense`` vertices and a few edges per vertex."""
        idx = np.flatnonzero(self.alive)
        last = self._last_edges
        if (sol is self.last and sol.tight is not None and last is not None
                and np.array_equal(last, idx)):
            # The dense solver listed them while checking its certificate on these edges.
            keep = idx[sol.tight]
        else:
            # Reduced costs are y_u + y_v + z_uv - 4 w >= 0, in integers. With every dual
            # and weight scaled by 4 and 2 taken from each vertex potential they become
            # 4 r - 4: negative exactly for the tight edges (r = 0), which the compiled
            # pricing loop lists. (The same as 1 added to each scaled weight, without a row
            # of ones stacked under a copy of every limb.)
            scaled = exact.Solution(sol.mate, [4 * y - 2 for y in sol.y],
                                    [(4 * z, m) for z, m in sol.blossoms], True)
            every = idx.size == self.us.size  # (then no copies of the edge arrays)
            if every:
                idx = np.zeros(0, dtype=np.int64)  # (the identity: not kept beside the rest)
            mults = [4 * m for m in self.multipliers]
            # In 128 bits when nothing can overflow (weights of a 100-player round need some
            # 60 bits): the same exact reduced costs, a third cheaper than 256 bits.
            narrow = exact.fits_narrow(scaled, 4 * self.max_weight + 1)
            tight, _slack = exact.price(scaled, self.vertices,
                                        self.us if every else self.us[idx],
                                        self.vs if every else self.vs[idx],
                                        self.limbs if every else self.limbs[:, idx],
                                        mults, narrow=narrow)
            keep = tight if every else idx[tight]
            del tight, _slack
        del idx
        # (the key order and masks first: not alive beside the tight edges' new arrays)
        self._keys = np.zeros(0, dtype=np.int64)
        self._order = self.candidate = None
        self.alive = np.zeros(0, dtype=bool)
        us, vs, limbs = self.us[keep], self.vs[keep], self.limbs[:, keep]
        # The caller replaces this solver by the result (``solver = solver.tight(...)``):
        # its edge arrays are released before the new solver builds its own.
        self._release()
        out = Solver(self.vertices, us, vs, limbs, self.multipliers, self.backend,
                     self.imp)
        out.solves = self.solves
        out.base = sol
        if not out.sparsify(dense):
            return out
        assert out.candidate is not None
        matched = [(u, int(v)) for u, v in enumerate(sol.mate.tolist()) if u < v]
        if self.imp is not None:
            matched = [(u, v) for u, v in matched if not self.imp.in_r(np.array([v]))[0]]
        out.candidate[out._edge_index(matched)] = True
        return out


class _NoCandidateMatching(Exception):
    """The sparse candidate graph has no perfect matching."""
