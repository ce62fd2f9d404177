"""Exact maximum weight perfect matching with its dual certificate, at scale.

Two layers, both general (nothing here knows about tournaments):

* :func:`solve` runs the compiled blossom algorithm (``swiss.pairing._blossom``: LEMON's
  ``MaxWeightedPerfectMatching`` over exact 128- or 256-bit integers, see
  ``swiss/pairing/_native``) on ``n`` vertices and edges ``(us[e], vs[e])`` whose weight is
  ``sum_c benefits[c, e] * multipliers[c]`` (non-negative int64 components, Python-int
  multipliers: a lexicographic weight vector) and returns a :class:`Solution`: the mates and
  the dual solution, vertex potentials ``y`` and blossom values ``z`` with their members, all
  scaled by 4. :func:`solve_int` does the same for plain ``(u, v, weight)`` triples.
* :func:`solve_with_pricing` solves a *sparse* candidate graph, then prices every edge of the
  full graph (given block by block, never stored whole) against the dual solution, adds the
  edges whose reduced cost ``y_u + y_v + sum(z_B for B holding u and v) - 4 w_uv`` is negative
  and solves again, until none is. It then checks the complete certificate exactly: ``z >= 0``,
  every edge of the full graph has reduced cost >= 0, every matched edge 0, and every blossom
  with ``z > 0`` holds ``(|B| - 1) / 2`` matched edges. By LP duality for the perfect matching
  polytope (Edmonds), the matching is then a maximum weight perfect matching of the full graph.

The weights must stay below ``2**WEIGHT_BITS`` (240 bits); the solver uses 128-bit integers
below 2**120 and 256-bit ones above.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

from swiss.pairing import _blossom  # type: ignore[attr-defined]

# blocks(solution) yields every edge of the full graph that could violate the solution's duals
# (all of them when solution is None); a caller may skip edges it can bound.
Blocks = Callable[["Solution | None"], Iterable[tuple[np.ndarray, np.ndarray]]]
Benefits = Callable[[np.ndarray, np.ndarray], np.ndarray]
# full_pass(solution, laminar, narrow) -> (keys u * n + v of the violated edges, their reduced
# costs, edges priced): a whole pricing pass in one call, replacing blocks + benefits.
FullPass = Callable[["Solution", "_Laminar", bool], tuple[np.ndarray, np.ndarray, int]]


# The solver's 256-bit integers, with room for its scaled duals (and
# swiss.pairing.weights.MAX_WEIGHT_BITS, the packed weights' bound, is the same).
WEIGHT_BITS = 240
POOL_PER_VERTEX = 40  # violated edges per vertex remembered between pricing passes
# How often a solve may shrink its graph to the edges tight under its duals when the graph
# passes solve_with_pricing's max_edges; past that (never seen: at 10,000 players a round
# adds about 50 edges per player in all), the graph grows as the pricing needs, still exact.
MAX_PRUNES = 8
# Up to this many vertices, a solve that needs no duals (the simulator's) runs the O(n^3)
# dense solver (``_native/dense_matching.h``): 2-4x faster than LEMON there, whose set-up
# (graph, maps, heaps) dominates small solves. Same optimum weight; among tied optima either
# may be returned.
SMALL_VERTICES = 128


class CertificateError(RuntimeError):
    """The dual certificate did not check out (a bug, never an expected outcome)."""


@dataclass(slots=True)
class Solution:
    """A perfect matching and its dual solution (all duals scaled by 4).

    ``mate[v]`` is the vertex matched to ``v``; ``y[v]`` its potential; ``blossoms`` are
    ``(z, members)`` pairs. ``wide`` says whether 256-bit arithmetic was needed.
    """

    mate: np.ndarray
    y: list[int]
    blossoms: list[tuple[int, np.ndarray]]
    wide: bool
    stats: dict[str, int] = field(default_factory=dict)
    # With solve(..., tight=True) when the dense solver solved it: the indices of the edges
    # given whose reduced cost under these duals is zero (None: not listed).
    tight: np.ndarray | None = None
    # As a warm start (solve's ``start``): the potentials warm_start gives, as the compiled
    # module's bytes, when the caller has them already (None: computed from y and blossoms).
    warm_y: bytes | None = None

    def pairs(self) -> list[tuple[int, int]]:
        """The matched pairs ``(u, v)`` with ``u < v``, sorted."""
        return [(u, int(v)) for u, v in enumerate(self.mate.tolist()) if u < v]


def _to_bytes(values: Iterable[int]) -> bytes:
    """256-bit little-endian two's complement words (the compiled module's integers)."""
    values = list(values)
    if len(values) > 8:
        # Many values (duals) usually fit in 64 bits: the upper three words are then the
        # sign extension of the lowest, written for all of them at once.
        try:
            low = np.array(values, dtype=np.int64)
        except OverflowError:
            low = None
        if low is not None:
            words = np.empty((low.size, 4), dtype="<i8")
            words[:, 0] = low
            words[:, 1:] = (low >> 63)[:, None]
            return words.tobytes()
    return b"".join(int(v).to_bytes(32, "little", signed=True) for v in values)


def _from_bytes(data: bytes) -> list[int]:
    """The integers of :func:`_to_bytes`'s words."""
    if len(data) > 8 * 32:
        words = np.frombuffer(data, dtype="<i8").reshape(-1, 4)
        low = words[:, 0]
        if bool((words[:, 1:] == (low >> 63)[:, None]).all()):  # every value fits 64 bits
            return low.tolist()
    return [
        int.from_bytes(data[i : i + 32], "little", signed=True) for i in range(0, len(data), 32)
    ]


def _i64(a: np.ndarray) -> np.ndarray:
    # The compiled module reads any contiguous buffer: no copy into bytes when the array is
    # already contiguous int64.
    return np.ascontiguousarray(a, dtype="<i8")


def solve(
    n: int,
    us: np.ndarray,
    vs: np.ndarray,
    benefits: np.ndarray,
    multipliers: list[int],
    *,
    wide: bool = False,
    duals: bool = True,
    start: Solution | None = None,
    dense: bool = False,
    tight: bool = False,
) -> Solution | None:
    """Maximum weight perfect matching of the given graph, or ``None`` if it has none.

    ``benefits`` has shape ``(len(multipliers), len(us))`` and non-negative entries.
    ``wide=True`` forces the 256-bit arithmetic (tests use it to cover that path);
    ``duals=False`` leaves ``y`` and ``blossoms`` empty (the simulator needs only the mates);
    up to :data:`SMALL_VERTICES` vertices it then uses the light dense solver.
    ``start``, a solution of another graph on the same vertices (any edges, any weights),
    warm-starts the solve from its matching and duals (see :func:`warm_start`): the optimum
    is the same, only the work differs. ``stats["freed"]`` counts the vertices the solve
    started unmatched (all of them when cold). ``dense=True`` lets a cold solve with duals
    of up to :data:`SMALL_VERTICES` vertices run the dense solver (its duals checked as a
    certificate, LEMON when they cannot be): the same optimum weight, but among tied optima
    it may return another matching than LEMON (callers whose result must not depend on
    that, such as the FIDE Dutch engine's exact tie-break tests, opt in). ``tight=True``
    asks the dense solver also for the edges of reduced cost zero (``Solution.tight``: its
    certificate check prices every edge anyway); left ``None`` when LEMON solved.
    """
    if n == 0:
        return Solution(np.zeros(0, dtype=np.int64), [], [], False)
    if n % 2:
        return None
    comps = np.ascontiguousarray(benefits, dtype="<i8")
    if comps.size and comps.min() < 0:
        raise ValueError("benefit components must be non-negative")
    if not duals and start is None and not wide and n <= SMALL_VERTICES:
        mate_small = _blossom.solve_small(
            n, _i64(us), _i64(vs), comps, len(multipliers), _to_bytes(multipliers)
        )
        if mate_small is None:
            return None
        if mate_small is not False:  # False: weights too large for it, LEMON below
            return Solution(np.frombuffer(mate_small, dtype="<i8").astype(np.int64), [], [],
                            False, {"freed": n})
    warm: tuple[bytes, np.ndarray] | tuple[()] = ()
    if start is not None:
        if start.warm_y is not None and start.mate.size == n:
            warm = (start.warm_y, _i64(start.mate))
        else:
            y0, mate0 = warm_start(start, n)
            warm = (_to_bytes(y0), _i64(mate0))
    raw = None
    if dense and duals and start is None and not wide and n <= SMALL_VERTICES and us.size:
        # A cold solve of a small graph (a 100-player FIDE Dutch bracket: some 4,500
        # edges): the dense solver with its duals, about 3x faster than LEMON there; it
        # checks its own certificate exactly and says False (LEMON below) when it cannot.
        raw = _blossom.solve_dense(
            n, _i64(us), _i64(vs), comps, len(multipliers), _to_bytes(multipliers), tight)
        if raw is None:
            return None
    if not raw:
        raw = _blossom.solve(
            n, _i64(us), _i64(vs), comps, len(multipliers), _to_bytes(multipliers), wide,
            *warm,
        )
    if raw is None:
        return None
    # Empty arrays come back as None (a NULL buffer).
    mate_b, y_b, z_b, zoff_b, zmem_b = (b or b"" for b in raw[:5])
    used_wide = raw[5]
    stats = {"freed": int(raw[6])}
    mate = np.frombuffer(mate_b, dtype="<i8").astype(np.int64)
    if not duals:
        return Solution(mate, [], [], bool(used_wide), stats)
    zoff = np.frombuffer(zoff_b, dtype="<i8")
    zmem = np.frombuffer(zmem_b, dtype="<i8").astype(np.int64)
    zvals = _from_bytes(z_b)
    blossoms = [(z, zmem[zoff[b] : zoff[b + 1]]) for b, z in enumerate(zvals)]
    listed = (np.frombuffer(raw[7] or b"", dtype="<i8").astype(np.int64)
              if len(raw) > 7 else None)
    return Solution(mate, _from_bytes(y_b), blossoms, bool(used_wide), stats, listed)


def warm_start(solution: Solution, n: int) -> tuple[list[int], np.ndarray]:
    """The potentials and matching a warm-started solve begins from (``n`` vertices).

    The solver's warm start takes no blossoms, so each blossom's value is spread over its
    members: ``y'_v = y_v + sum(ceil(z_B / 2) : B holds v)``. An edge inside a blossom keeps
    (at least) its reduced cost, an edge leaving it only gains slack, so every edge that was
    feasible stays feasible; the matched edges that leave a blossom (one per blossom: its
    base's) lose their tightness and the solver frees their ends, then every end of an edge
    the new graph adds in violation, and re-augments from those vertices only.
    """
    y = list(solution.y) if len(solution.y) == n else [0] * n
    if solution.blossoms:
        # The sum over the blossoms holding v is cumz of its innermost one in the laminar tree
        # (one addition per blossom, not one per member of every nesting level).
        halves = _Laminar(n, [(-(-z // 2) if z > 0 else 0, members)
                              for z, members in solution.blossoms])
        inner, cum = halves.inner.tolist(), halves.cumz
        y = [value + cum[b] if b >= 0 else value for value, b in zip(y, inner, strict=True)]
    mate = solution.mate if solution.mate.size == n else np.full(n, -1, dtype=np.int64)
    return y, mate


def warm_potentials(solution: Solution, n: int) -> bytes:
    """:func:`warm_start`'s potentials as ``Solution.warm_y`` (for many warm starts from the
    same duals with other matchings)."""
    return _to_bytes(warm_start(solution, n)[0])


def solve_int(
    n: int, edges: list[tuple[int, int, int]], *, wide: bool = False,
    start: Solution | None = None, duals: bool = True, dense: bool = False,
    tight: bool = False,
) -> Solution | None:
    """:func:`solve` for plain ``(u, v, weight)`` triples with arbitrary Python-int weights."""
    if not edges:
        return solve(n, np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((1, 0)), [1],
                     duals=duals)
    us = np.array([min(u, v) for u, v, _w in edges], dtype=np.int64)
    vs = np.array([max(u, v) for u, v, _w in edges], dtype=np.int64)
    low = min(w for _u, _v, w in edges)
    shifted = [w - low for _u, _v, w in edges]
    words = max(1, -(-max(shifted).bit_length() // 62))
    limbs = [[(w >> (62 * j)) & ((1 << 62) - 1) for w in shifted] for j in range(words)]
    comps = np.array([*limbs, [1] * len(edges)], dtype=np.int64)
    return solve(n, us, vs, comps, [1 << (62 * j) for j in range(words)] + [low], wide=wide,
                 start=start, duals=duals, dense=dense, tight=tight)


class _Laminar:
    """The blossoms as a laminar tree: the sum of ``z`` over the blossoms holding two vertices
    is ``cumz[lca(inner[u], inner[v])]``."""

    def __init__(self, n: int, blossoms: list[tuple[int, np.ndarray]]) -> None:
        order = sorted(range(len(blossoms)), key=lambda b: -blossoms[b][1].size)
        inner = np.full(n, -1, dtype=np.int64)
        parent = np.full(len(blossoms), -1, dtype=np.int64)
        depth = np.zeros(len(blossoms), dtype=np.int64)
        cumz = [0] * len(blossoms)
        # Larger blossoms first: a blossom's parent is the innermost one seen so far holding it.
        for b in order:
            z, members = blossoms[b]
            outer = int(inner[members[0]]) if members.size else -1
            parent[b] = outer
            depth[b] = depth[outer] + 1 if outer >= 0 else 0
            cumz[b] = z + (cumz[outer] if outer >= 0 else 0)
            inner[members] = b
        self.inner, self.parent, self.depth = inner, parent, depth
        self.cumz = cumz

    def args(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, bytes]:
        return _i64(self.inner), _i64(self.parent), _i64(self.depth), _to_bytes(self.cumz)


def price(
    solution: Solution,
    n: int,
    us: np.ndarray,
    vs: np.ndarray,
    benefits: np.ndarray,
    multipliers: list[int],
    laminar: _Laminar | None = None,
    narrow: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """The edges whose reduced cost against ``solution``'s duals is negative: their indices
    and (approximately, as floats) their reduced costs.

    ``narrow=True`` computes in 128 bits: only when every weight is below 2**120 and every
    dual below 2**124 in absolute value (see :func:`fits_narrow`).
    """
    if not us.size:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    lam = laminar or _Laminar(n, solution.blossoms)
    comps = np.ascontiguousarray(benefits, dtype="<i8")
    bad, slack = _blossom.price(
        n, _i64(us), _i64(vs), comps, len(multipliers), _to_bytes(multipliers),
        _to_bytes(solution.y), *lam.args(), narrow,
    )
    return (np.frombuffer(bad or b"", dtype="<i8").astype(np.int64),
            np.frombuffer(slack or b"", dtype="<f8"))


def fits_narrow(solution: Solution, max_weight: int | None) -> bool:
    """Whether pricing against ``solution`` may use 128-bit arithmetic (no overflow)."""
    if max_weight is None or max_weight >= 2**120:
        return False
    limit = 2**124
    return (all(-limit < y < limit for y in solution.y)
            and sum(abs(z) for z, _m in solution.blossoms) < limit)


def solve_with_pricing(
    n: int,
    us: np.ndarray,
    vs: np.ndarray,
    multipliers: list[int],
    benefits: Benefits,
    blocks: Blocks,
    *,
    widen: Callable[[], tuple[np.ndarray, np.ndarray] | None] | None = None,
    per_vertex: int = 5,
    max_weight: int | None = None,
    full_pass: FullPass | None = None,
    start: Solution | None = None,
    max_edges: int | None = None,
) -> Solution | None:
    """Maximum weight perfect matching of the full graph, solved on candidate edges.

    ``(us, vs)`` are the candidate edges (``us < vs``), ``benefits(us, vs)`` gives any edges'
    component matrix and ``blocks(solution)`` yields, in blocks, every edge of the full graph
    that may violate ``solution``'s duals (every edge when it is ``None``). ``max_weight``, an
    upper bound of the weights, lets pricing run on 128-bit integers when they are small.
    When the candidates have no perfect matching, ``widen()`` supplies more candidate edges
    (``None`` once it has given the whole graph); ``None`` is returned when the full graph has
    no perfect matching. ``full_pass``, when given, does a whole pricing pass in one call (a
    compiled one, say) instead of ``blocks`` and ``benefits``. ``start`` warm-starts the first
    solve (see :func:`solve`; its duals need not be feasible for the candidate edges: only
    the work changes). ``max_edges`` bounds the solved graph: when the edges priced in would
    take it past that, it keeps only the edges (nearly) tight under the last duals and the
    new ones (an edge dropped comes back if pricing finds it violated again: the optimum is
    the same), at most :data:`MAX_PRUNES` times. Each solve adds at most ``per_vertex`` edges
    per vertex, and at most :data:`POOL_PER_VERTEX` per vertex are kept for the cheap rounds.
    ``Solution.stats`` reports the edges of the last graph solved on (``candidate_edges``)
    and of the largest (``largest_graph``), the edges priced (whose weight was computed),
    the number of solves (``rounds``), of full pricing passes, of the cheap rounds in between
    that price only the pool of edges found violated before, and of prunes.

    The certificate is checked exactly whatever the arithmetic of the solve; should a 128-bit
    solve ever fail it (an overflow of the duals), the whole solve is redone in 256 bits.
    """
    args = (n, us, vs, multipliers, benefits, blocks)
    try:
        return _solve_with_pricing(*args, widen=widen, per_vertex=per_vertex,
                                   max_weight=max_weight, wide=False, full_pass=full_pass,
                                   start=start, max_edges=max_edges)
    except CertificateError:
        return _solve_with_pricing(*args, widen=widen, per_vertex=per_vertex,
                                   max_weight=None, wide=True, full_pass=full_pass,
                                   max_edges=max_edges)


def _solve_with_pricing(
    n: int,
    us: np.ndarray,
    vs: np.ndarray,
    multipliers: list[int],
    benefits: Benefits,
    blocks: Blocks,
    *,
    widen: Callable[[], tuple[np.ndarray, np.ndarray] | None] | None,
    per_vertex: int,
    max_weight: int | None,
    wide: bool,
    full_pass: FullPass | None = None,
    start: Solution | None = None,
    max_edges: int | None = None,
) -> Solution | None:
    keys = _unique_sorted(us * n + vs)
    rounds = priced = full_passes = pool_rounds = prunes = largest = 0
    pool = np.zeros(0, dtype=np.int64)  # violated edges kept for the next, cheap rounds
    full_tried = False
    last = start  # the previous solve's solution: the next one starts from it
    freed = 0
    while True:
        rounds += 1
        largest = max(largest, int(keys.size))
        cu, cv = keys // n, keys % n
        sol = solve(n, cu, cv, benefits(cu, cv), multipliers, wide=wide, start=last)
        if sol is None:
            extra = widen() if widen is not None else None
            if extra is None:
                if full_tried:
                    return None
                extra = _all_edges(blocks)
                full_tried = True
            keys = np.union1d(keys, extra[0] * n + extra[1])
            continue
        if last is not None:
            freed += sol.stats["freed"]
        last = sol
        lam = _Laminar(n, sol.blossoms)
        narrow = fits_narrow(sol, max_weight)
        if pool.size:
            # A cheap round first: the edges found violated before but not yet added. Only
            # when none of them is violated any more does a full pricing pass run.
            pu, pv = pool // n, pool % n
            priced += pool.size
            bad, slack = price(sol, n, pu, pv, benefits(pu, pv), multipliers, lam, narrow)
            pool = pool[bad]
            if bad.size:
                pool_rounds += 1
                chosen = _violation_rank(pool, slack, n) < per_vertex
                if max_edges is not None and prunes < MAX_PRUNES \
                        and keys.size + int(chosen.sum()) > max_edges:
                    keys = _tight_only(keys, sol, n, benefits, multipliers, lam, narrow)
                    prunes += 1
                keys = _add(keys, pool[chosen])
                pool = pool[~chosen]
                continue
        new: list[np.ndarray] = []
        slacks: list[np.ndarray] = []
        full_passes += 1
        if full_pass is not None:
            found, slack, count = full_pass(sol, lam, narrow)
            priced += count
            if found.size:
                new.append(found)
                slacks.append(slack)
        else:
            for bu, bv in blocks(sol):
                priced += bu.size
                bad, slack = price(sol, n, bu, bv, benefits(bu, bv), multipliers, lam, narrow)
                if bad.size:
                    new.append(bu[bad] * n + bv[bad])
                    slacks.append(slack)
        if not new:
            _check_certificate(sol, n, benefits, multipliers)
            sol.stats = {"candidate_edges": int(keys.size), "priced_edges": priced,
                         "rounds": rounds, "full_pricing_passes": full_passes,
                         "pool_rounds": pool_rounds, "warm_freed": freed,
                         "largest_graph": largest, "prunes": prunes}
            return sol
        violated = np.concatenate(new)
        rank = _violation_rank(violated, np.concatenate(slacks), n)
        added = violated[rank < per_vertex]
        if max_edges is not None and prunes < MAX_PRUNES and keys.size + added.size > max_edges:
            keys = _tight_only(keys, sol, n, benefits, multipliers, lam, narrow)
            prunes += 1
        keys = _add(keys, added)
        # (a violated edge is never in the solved graph: _add checks it)
        pool = np.sort(violated[(rank >= per_vertex) & (rank < POOL_PER_VERTEX)])


def _tight_only(
    keys: np.ndarray, sol: Solution, n: int, benefits: Benefits, multipliers: list[int],
    lam: _Laminar, narrow: bool,
) -> np.ndarray:
    """The edges of ``keys`` whose reduced cost under ``sol``'s duals is below 2 (tight, the
    matched ones among them, or nearly): priced against potentials lowered by 1 each, which
    takes 2 off every edge's reduced cost (the other edges only leave the graph; pricing
    brings back any that the later duals violate)."""
    lowered = Solution(sol.mate, [value - 1 for value in sol.y], sol.blossoms, sol.wide)
    ku, kv = keys // n, keys % n
    near, _slack = price(lowered, n, ku, kv, benefits(ku, kv), multipliers, lam, narrow)
    return keys[np.sort(near)]


def _unique_sorted(keys: np.ndarray) -> np.ndarray:
    """``np.unique`` by sorting (numpy's hash-based unique is slower on large int64 keys)."""
    keys = np.sort(keys)
    return keys[np.r_[True, keys[1:] != keys[:-1]]] if keys.size else keys


def _add(keys: np.ndarray, added: np.ndarray) -> np.ndarray:
    """``keys`` (sorted, unique) with the unique ``added`` merged in."""
    if keys.size:
        pos = np.minimum(np.searchsorted(keys, added), keys.size - 1)
        added = added[keys[pos] != added]
    if not added.size:
        raise CertificateError("an edge of the solved graph violates its own dual solution")
    return np.sort(np.concatenate((keys, added)))


def _violation_rank(keys: np.ndarray, slack: np.ndarray, n: int) -> np.ndarray:
    """Per violated edge (unique keys), its rank among the violated edges of its endpoints,
    most violated first (the smaller of its two ranks).

    Adding every violated edge can take most of a dense graph into the next solve; the few
    ranked below ``per_vertex`` per vertex (the most negative reduced costs first) keep the
    solved graph sparse, and the next pricing round brings back whatever is still violated.
    """
    order = np.argsort(slack, kind="stable")
    ordered = keys[order]
    best = np.full(keys.size, np.iinfo(np.int64).max, dtype=np.int64)
    for ends in (ordered // n, ordered % n):
        # rank of each edge among its endpoint's violated edges, most violated first
        idx = np.argsort(ends, kind="stable")
        sorted_ends = ends[idx]
        starts = np.searchsorted(sorted_ends, sorted_ends, side="left")
        rank = np.empty(keys.size, dtype=np.int64)
        rank[idx] = np.arange(keys.size) - starts
        np.minimum(best, rank, out=best)
    out = np.empty(keys.size, dtype=np.int64)
    out[order] = best
    return out


def _all_edges(blocks: Blocks) -> tuple[np.ndarray, np.ndarray]:
    parts = list(blocks(None))
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def _check_certificate(
    sol: Solution, n: int, benefits: Benefits, multipliers: list[int]
) -> None:
    """Complementary slackness on the matching and ``z >= 0`` (feasibility was priced)."""
    if any(z < 0 for z, _members in sol.blossoms):
        raise CertificateError("a blossom dual is negative")
    pairs = sol.pairs()
    if len(pairs) * 2 != n:
        raise CertificateError("the matching is not perfect")
    us = np.array([u for u, _v in pairs], dtype=np.int64)
    vs = np.array([v for _u, v in pairs], dtype=np.int64)
    comps = benefits(us, vs)
    weights = [0] * len(pairs)
    for c, mult in enumerate(multipliers):
        weights = [w + b * mult for w, b in zip(weights, comps[c].tolist(), strict=True)]
    lam = _Laminar(n, sol.blossoms)
    inner, parent, depth, cumz = lam.inner, lam.parent, lam.depth, lam.cumz
    for (u, v), w in zip(pairs, weights, strict=True):
        bu, bv = int(inner[u]), int(inner[v])
        z = 0
        if bu >= 0 and bv >= 0:
            while depth[bu] > depth[bv]:
                bu = int(parent[bu])
            while depth[bv] > depth[bu]:
                bv = int(parent[bv])
            while bu != bv and bu >= 0 and bv >= 0:
                bu, bv = int(parent[bu]), int(parent[bv])
            if bu >= 0 and bu == bv:
                z = cumz[bu]
        if sol.y[u] + sol.y[v] + z != 4 * w:
            raise CertificateError(f"matched edge ({u}, {v}) is not tight")
    mate = sol.mate
    for z, members in sol.blossoms:
        if z > 0:
            inside = np.isin(mate[members], members).sum() // 2
            if inside != (members.size - 1) // 2:
                raise CertificateError("a blossom with a positive dual is not full")
