"""The separable edges of a big bracket graph, kept implicit and priced by structure.

With F the bracket and the next scoregroup and R the other unpaired players, an edge with an
end in R weighs what its column says: the F end's own column (``u`` in F) or the far column
(both in R) (:class:`swiss.pairing.fide_dutch.edges.Separable`). So its weight is
``w(u, v) = W(u)`` for ``u`` in F and ``W_far`` inside R, and its reduced cost against a dual
solution, ``y_u + y_v + z_uv - 4 w(u, v)``, is ``a(u) + a(v) + z_uv`` with

    a(x) = y_x - 4 W(x) + 2 W_far   (x in F),      a(x) = y_x - 2 W_far   (x in R),

exact integers. Blossom values are never negative, so an edge can be violated only when
``a(u) + a(v) < 0``: sorting R by ``a`` once per pricing pass, each vertex's candidates are a
prefix of that order (found by bisection, in exact Python integers), usually empty. Only those
candidates are priced exactly, blossom terms included, by the compiled pricing loop. No edge
of R is ever listed unless it is a candidate or has been added to the solved graph.
"""

from __future__ import annotations

import numpy as np

from swiss.pairing import exact
from swiss.pairing.fide_dutch.edges import Separable


class Implicit:
    """The implicit edges of one bracket graph: which exist, their columns, the vertices
    whose implicit edges accepted tie-break constraints have removed (``blocked``), and the
    implicit edges added to the solved graph so far (``pool``, keys ``u * vertices + v``)."""

    def __init__(self, sep: Separable, vertices: int, col: np.ndarray) -> None:
        self.f, self.r_end = sep.f, sep.r_end
        self.vertices = vertices
        self.col = col  # (limbs, vertices): F vertices their own column, R the far one
        self.has_r, self.far_ends = sep.has_r, sep.far_ends
        self.cls, self.bad_keys = sep.cls, sep.bad_keys
        self.blocked = np.zeros(vertices, dtype=bool)
        self.pool = np.zeros(0, dtype=np.int64)
        self.near_k = 0
        self._weights: tuple[tuple[int, ...], list[int]] | None = None  # (multipliers, w)

    def extended(self, rows: np.ndarray) -> Implicit:
        """The same edges with ``rows`` (per vertex, as ``col``) added below the columns."""
        out = Implicit.__new__(Implicit)
        out.f, out.r_end, out.vertices = self.f, self.r_end, self.vertices
        out.col = np.vstack((self.col, rows))
        out.has_r, out.far_ends, out.cls, out.bad_keys = (self.has_r, self.far_ends,
                                                         self.cls, self.bad_keys)
        out.blocked = self.blocked.copy()
        out.pool = self.pool.copy()
        out.near_k = self.near_k
        out._weights = None
        return out

    def in_r(self, v: np.ndarray) -> np.ndarray:
        return (v >= self.f) & (v < self.r_end)

    def is_edge(self, us: np.ndarray, vs: np.ndarray) -> np.ndarray:
        """Whether each pair ``us < vs`` is an implicit edge (allowed by C1-C3)."""
        ok = self.in_r(vs) & (us < vs)
        keys = us * self.vertices + vs
        if self.bad_keys.size:
            at = np.minimum(np.searchsorted(self.bad_keys, keys), self.bad_keys.size - 1)
            ok &= self.bad_keys[at] != keys
        cu, cv = self.cls[us], self.cls[np.minimum(vs, self.vertices - 1)]
        return ok & ~((cu == cv) & (cu != 0))

    def usable(self, us: np.ndarray, block: np.ndarray | None = None) -> np.ndarray:
        """Whether the implicit edges of (lower) ends ``us`` are not blocked."""
        ok = ~self.blocked[us]
        if block is not None:
            ok &= ~block[us]
        return ok

    def near(self, k: int) -> np.ndarray:
        """About ``k`` implicit edges per vertex as keys: each F vertex's spread over R, each
        R vertex's to the next ones in rank order (a ring: it has perfect matchings)."""
        f, r = self.f, self.r_end - self.f
        if r <= 0:
            return np.zeros(0, dtype=np.int64)
        steps = np.arange(k, dtype=np.int64)
        owners = np.flatnonzero(self.has_r & ~self.blocked)
        fu = np.repeat(owners, k)
        fv = f + (np.repeat(owners * k, k) + np.tile(steps, owners.size)) % r
        rr = np.arange(f, self.r_end, dtype=np.int64)
        ru = np.repeat(rr, k)
        rv = f + (np.repeat(rr - f, k) + 1 + np.tile(steps, rr.size)) % r
        us = np.concatenate((fu, np.minimum(ru, rv)))
        vs = np.concatenate((fv, np.maximum(ru, rv)))
        ok = self.is_edge(us, vs)
        return np.unique(us[ok] * self.vertices + vs[ok])

    def weights(self, multipliers: list[int], top: int = 0,
                block: np.ndarray | None = None) -> tuple[list[int], int]:
        """Each vertex's implicit weight (F: its column; R: unused) and the far weight, with
        ``top`` added to the edges a test keeps (not ``block``-ed; every edge inside R)."""
        key = tuple(multipliers)
        if self._weights is None or self._weights[0] != key:
            w = [0] * self.vertices
            for row, m in zip(self.col.tolist(), multipliers, strict=True):
                if m:
                    w = [a + b * m for a, b in zip(w, row, strict=True)]
            self._weights = (key, w)
        w = self._weights[1]
        far = w[self.f] if self.r_end > self.f else 0
        if top:
            kept = np.ones(self.vertices, dtype=bool) if block is None else ~block
            w = [a + top if k else a for a, k in zip(w, kept.tolist(), strict=True)]
            far += top
        return w, far

    def violated(self, sol: exact.Solution, lam: exact._Laminar, narrow: bool,
                 multipliers: list[int], rows: object, block: np.ndarray | None,
                 top: int = 0) -> tuple[np.ndarray, np.ndarray, int]:
        """The usable implicit edges whose reduced cost under ``sol`` is negative (keys,
        approximate reduced costs) and how many were priced exactly. ``rows(us, vs)`` gives
        the priced edges' component rows (``top``: the test's row comes first)."""
        f, r_end = self.f, self.r_end
        if r_end <= f:
            return np.zeros(0, dtype=np.int64), np.zeros(0), 0
        w, far = self.weights(multipliers if not top else multipliers[1:], top, block)
        y = sol.y
        usable = self.has_r & ~self.blocked
        if block is not None and not top:
            usable &= ~block
        a: dict[int, int] = {x: y[x] - 4 * w[x] + 2 * far
                             for x in np.flatnonzero(usable[:f]).tolist()}
        a.update((x, y[x] - 2 * far) for x in range(f, r_end))
        pu, pv = _candidates(a, f, r_end, sol.blossoms, self.vertices)
        if not pu:
            return np.zeros(0, dtype=np.int64), np.zeros(0), 0
        u, v = np.concatenate(pu), np.concatenate(pv)
        us, vs = np.minimum(u, v), np.maximum(u, v)
        keys = np.unique(us * self.vertices + vs)
        us, vs = keys // self.vertices, keys % self.vertices
        ok = self.is_edge(us, vs) & ~self.blocked[us]
        if block is not None and not top:
            ok &= ~block[us]
        us, vs = us[ok], vs[ok]
        if not us.size:
            return np.zeros(0, dtype=np.int64), np.zeros(0), 0
        bad, slack = exact.price(sol, self.vertices, us, vs, rows(us, vs),  # type: ignore[operator]
                                 multipliers, lam, narrow)
        return us[bad] * self.vertices + vs[bad], slack, int(us.size)


def _candidates(a: dict[int, int], f: int, r_end: int,
                blossoms: list[tuple[int, np.ndarray]], vertices: int
                ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Pairs ``(u, v)``, ``u`` a key of ``a``, ``v`` in R (``f <= v < r_end``), that may have
    ``a(u) + a(v) + z_uv < 0``: every such pair is listed (and some others).

    ``z_uv`` is the sum of the positive blossom values over the blossoms holding both ends,
    so the pairs are enumerated by their innermost common positive blossom N (or none, the
    root): for them ``z_uv = cumz(N)``, and the two ends lie in different children of N (or
    both directly in N). Within N each child's R vertices are sorted by ``a`` once, and each
    vertex takes from the other children the prefix with ``a(v) < -cumz(N) - a(u)`` (found by
    binary search in exact integers: numpy object arrays of Python ints). A big blossom over
    R whose value pays for the negative ``a`` of its members is so never enumerated pair by
    pair. Negative blossom values (not produced by a correct solver) are added to every
    threshold, keeping the list complete."""
    shift = -sum(z for z, _m in blossoms if z < 0)
    positive = [(z, m) for z, m in blossoms if z > 0]
    xs = np.array(list(a), dtype=np.int64)
    values = np.empty(xs.size, dtype=object)
    values[:] = [a[x] for x in xs.tolist()]
    direct = -2  # the group of a vertex held directly by a node
    if positive:
        lam = exact._Laminar(vertices, positive)
        cumz = lam.cumz
        # Each vertex (by position in xs) under each node holding it (-1: the root), with
        # the child of that node it lies in (``direct``: held by the node itself): walked
        # up the tree one level at a time for all vertices at once.
        at = np.arange(xs.size, dtype=np.int64)
        node = lam.inner[xs]
        child = np.full(xs.size, direct, dtype=np.int64)
        rec_i, rec_node, rec_child = [at], [node], [child]
        while True:
            up = node >= 0
            if not up.any():
                break
            at, child = at[up], node[up]
            node = lam.parent[child]
            rec_i.append(at)
            rec_node.append(node)
            rec_child.append(child)
        all_i, all_node = np.concatenate(rec_i), np.concatenate(rec_node)
        all_child = np.concatenate(rec_child)
        order = np.lexsort((all_i, all_node))
        all_i, all_node, all_child = all_i[order], all_node[order], all_child[order]
        cuts = np.flatnonzero(np.diff(all_node)) + 1
        nodes = [(int(all_node[s]), all_i[s:e], all_child[s:e])
                 for s, e in zip(np.r_[0, cuts].tolist(), np.r_[cuts, all_node.size].tolist(),
                                 strict=True)]
    else:
        cumz = []
        nodes = [(-1, np.arange(xs.size, dtype=np.int64), np.full(xs.size, direct))]
    pu: list[np.ndarray] = []
    pv: list[np.ndarray] = []
    for node, idx, group in nodes:
        in_r = xs[idx] >= f
        if not in_r.any():
            continue
        limit = (shift - (cumz[node] if node >= 0 else 0)) - values[idx]
        for h in np.unique(group[in_r]).tolist():
            pick = idx[in_r & (group == h)]
            order = np.argsort(values[pick], kind="stable")
            ranked_values, ranked = values[pick][order], xs[pick][order]
            counts = np.searchsorted(ranked_values, limit, side="left")
            if h != direct:
                counts[group == h] = 0  # (a pair inside one child: counted in that child)
            for i in np.flatnonzero(counts).tolist():
                k = int(counts[i])
                pu.append(np.full(k, xs[idx[i]], dtype=np.int64))
                pv.append(ranked[:k])
    return pu, pv
