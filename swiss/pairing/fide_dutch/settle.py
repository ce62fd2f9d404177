"""Tie-break tests settled without a solve: exact rejections and acceptances by matchings.

A tie-break test (tiebreak.py, ``TieBreak.accept``) asks whether some optimum of the bracket
graph keeps to a constraint: a perfect matching of the live edges the test keeps ("usable"),
of the best weight. The base duals (the first optimum's, ``solver.base``) stay optimal as
tests are accepted (every accepted test keeps the best weight, and the duals stay feasible on
fewer edges), so by complementary slackness every such optimum

* uses only edges tight under them: every live listed edge is (``Solver.tight``), and
* fills every blossom X of positive value: exactly ``(|X| - 1) / 2`` of its pairs lie inside
  X, so exactly one vertex of X is matched out of X.

:meth:`Settle.rejects` checks necessary conditions of that, each a question "can these
vertices all be matched?" answered exactly by the compiled Edmonds search
(:mod:`swiss.pairing.cover`), warm from the current optimum with the pairs the test breaks
undone, so a test costs about the part of the graph it touches. For each positive blossom X
with no R vertex (its inner edges are all listed):

1. X's usable inner edges must have a matching missing exactly one vertex (X and a hub
   joined to all of X: a perfect matching);
2. the vertex matched out of X is an *exit* of X: one whose removal leaves X a perfect
   matching. Given a matching missing only x0, the exits are the vertices an even
   alternating path from x0 reaches: the even vertices of the completed search from x0. So
   an optimum uses only *admissible* edges: usable, and leaving each such X by an exit;
3. some exit of X has an admissible edge out of X (listed), or an implicit one to R that is
   not blocked and may be tight (:func:`_maybe_tight_r`).

And 4. the bracket's players with no admissible edge out of it must all be matched inside it
on admissible edges (what ``TieBreak._bracket_can_match`` asks of LEMON, with spare
vertices). Nested blossoms, blossoms holding R players and the tightness of single implicit
edges are ignored: relaxations, so a "no" is still exact.

:meth:`Settle.augment` re-augments the current optimum (the pairs the test breaks undone) over
the usable listed edges; the engine (``TieBreak._checked``) keeps the result only if it is a
perfect matching of live, test-meeting edges of the best weight, checked exactly: then the
test is passed for certain.
Anything else leaves the decision to the solve.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from swiss.pairing.cover import HUB, Adjacency, cover
from swiss.pairing.exact import Solution
from swiss.pairing.fide_dutch.implicit import Implicit


class Settle:
    """The compiled decisions of one bracket's tie-break tests (the graph of ``us, vs``:
    the solver's listed edges, which never change; only their flags do)."""

    def __init__(self, vertices: int, us: np.ndarray, vs: np.ndarray, imp: Implicit | None,
                 base: Solution, multipliers: list[int], bracket: np.ndarray) -> None:
        self.vertices = vertices
        self.us, self.vs = us, vs
        self.imp = imp
        self.adj = Adjacency.of(vertices, us, vs)
        # Vertices all of whose edges are listed (not in R).
        self.listed = np.ones(vertices, dtype=bool)
        if imp is not None:
            self.listed[imp.f:imp.r_end] = False
        # Each positive blossom with no R vertex: its members, its inner edges, and the edges
        # leaving it with their end inside it.
        self.blossoms: list[_Set] = []
        for z, m in base.blossoms:
            if z > 0 and bool(self.listed[m].all()):
                self.blossoms.append(_Set.of(vertices, m, us, vs))
        # The exits of blossom i computed on the live edges alone (no inner edge left out by
        # the test): (how many live inner edges then, the exits).
        self._exit_cache: dict[int, tuple[int, tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}
        self.bracket = _Set.of(vertices, np.flatnonzero(bracket), us, vs)
        self.tight_r = _maybe_tight_r(imp, base, multipliers, vertices)
        # How many tests each way decided (reported by the benchmarks).
        self.stats = {"near_perfect": 0, "exits": 0, "bracket": 0, "augment_failed": 0}

    def _implicit_out(self, block: np.ndarray | None) -> np.ndarray:
        """The vertices that may have a tight implicit edge to R left (not blocked, not
        ``block``-ed)."""
        out = np.zeros(self.vertices, dtype=bool)
        imp = self.imp
        if imp is not None:
            out = imp.has_r & imp.usable(np.arange(self.vertices), block) & self.tight_r
        return out

    def _start(self, verts: np.ndarray, mate: dict[int, int], keep_pair: np.ndarray
               ) -> np.ndarray:
        """The pairs of ``mate`` inside ``verts`` that ``keep_pair`` keeps, in local indices
        (the hub, if last in ``verts``, matched to the one vertex matched out, if kept)."""
        k = verts.size
        local = np.full(self.vertices, -1, dtype=np.int64)
        real = verts[verts >= 0]
        local[real] = np.arange(real.size, dtype=np.int64)
        start = np.full(k, -1, dtype=np.int64)
        hub = k - 1 if verts[-1] < 0 else -1
        for x in real.tolist():
            y = mate[x]
            if not keep_pair[x]:
                continue
            if local[y] >= 0:
                start[local[x]] = local[y]
            elif hub >= 0 and start[hub] < 0:
                start[hub], start[local[x]] = local[x], hub
        return start

    def _exits(self, i: int, blossom: _Set, usable: np.ndarray, alive: np.ndarray,
               mate: dict[int, int], keep_pair: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """The exits of blossom ``i`` (odd): the vertices x such that its usable inner edges
        have a perfect matching of the others (x is then the one matched out of it), as a
        mask over all vertices, with the edges leaving it by a non-exit and by an exit;
        ``None`` when there is none. Kept while the blossom's inner edges stay (live edges
        only ever go: the same count is the same edges)."""
        # The usable inner edges are always a subset of the live ones when the exits were
        # cached (live edges only go), so the same count is the same edges.
        count = int(np.count_nonzero(usable & blossom.inner_flag))
        cached = self._exit_cache.get(i)
        if cached is not None and cached[0] == count:
            return cached[1]
        untouched = count == int(np.count_nonzero(alive & blossom.inner_flag))
        members = blossom.members
        k = members.size
        verts = np.append(members, HUB)
        start = self._start(verts, mate, keep_pair)
        every = np.ones(k + 1, dtype=bool)
        every[k] = False
        if cover(self.adj, usable, verts, np.ones(k + 1, dtype=bool), every, start) != -1:
            return None
        x = int(start[k])
        start = start[:k].copy()
        start[x] = -1
        even = np.zeros(k, dtype=bool)
        got = cover(self.adj, usable, members, np.ones(k, dtype=bool), np.zeros(k, dtype=bool),
                    start, even)
        assert got == x  # (the only exposed vertex of an odd set)
        exit_of = np.zeros(self.vertices, dtype=bool)
        exit_of[members[even]] = True
        by_exit = exit_of[blossom.end]
        found = (exit_of, blossom.cut[~by_exit], blossom.cut[by_exit])
        if untouched:
            self._exit_cache[i] = (count, found)
        return found

    def rejects(self, usable: np.ndarray, alive: np.ndarray, mate: dict[int, int],
                broken: np.ndarray, block: np.ndarray | None) -> bool:
        """Whether the test of live edges ``usable`` (``alive``: the live edges before the
        test) is certainly rejected. ``broken``: the vertices whose current pair the test
        breaks."""
        keep_pair = ~broken
        implicit = self._implicit_out(block)
        # An optimum matches each positive blossom X out by one vertex x, and the rest of X
        # inside X: so x is one of X's exits (X less x has a perfect matching of its inner
        # usable edges), and every edge it uses that leaves X leaves it by an exit.
        admissible = usable
        exits: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        for i, blossom in enumerate(self.blossoms):
            found = self._exits(i, blossom, usable, alive, mate, keep_pair)
            if found is None:
                self.stats["near_perfect"] += 1
                return True
            exits.append(found)
            bad = found[1]
            if bad.size:
                if admissible is usable:
                    admissible = usable.copy()
                admissible[bad] = False
        for exit_of, _bad, good in exits:
            if not bool(admissible[good].any()) and not bool((implicit & exit_of).any()):
                self.stats["exits"] += 1
                return True
        bracket = self.bracket
        members = bracket.members
        if not bool(broken[members].any()) and not exits:
            return False  # the current optimum's pairs of the bracket all stay
        out = implicit
        out[bracket.end[admissible[bracket.cut]]] = True
        need = ~out[members]
        start = self._start(members, mate, keep_pair)
        if cover(self.adj, admissible, members, need, np.zeros(members.size, dtype=bool),
                 start) != -1:
            self.stats["bracket"] += 1
            return True
        return False

    def augment(self, usable: np.ndarray, mate: dict[int, int], broken: np.ndarray
                ) -> dict[int, int] | None:
        """The current optimum re-augmented over the usable listed edges (the pairs the test
        breaks undone): a perfect matching, or ``None`` (no such re-augmentation: a pair with
        an R end broken, or no perfect matching found). Not checked for weight here."""
        listed = self.listed
        ends = np.flatnonzero(broken)
        if not bool(listed[ends].all()) or not bool(listed[[mate[x] for x in ends.tolist()]]
                                                    .all()):
            return None  # an R player freed: his new partner may be implicit
        # Vertices matched into R keep their pairs (the test keeps them).
        free_of_r = listed.copy()
        for x in np.flatnonzero(listed).tolist():
            if not listed[mate[x]]:
                free_of_r[x] = False
        verts = np.flatnonzero(free_of_r).astype(np.int64)
        k = verts.size
        start = self._start(verts, mate, ~broken)
        if cover(self.adj, usable, verts, np.ones(k, dtype=bool), np.zeros(k, dtype=bool),
                 start) != -1:
            self.stats["augment_failed"] += 1
            return None
        out = dict(mate)
        vl = verts.tolist()
        for i, j in enumerate(start.tolist()):
            out[vl[i]] = vl[j]
        return out


@dataclass(slots=True)
class _Set:
    """A vertex set of the listed graph: its members, its inner edges (a flag per edge), the
    edges leaving it (``cut``) and their ends inside it (``end``)."""

    members: np.ndarray
    inner_flag: np.ndarray  # per edge: both ends inside
    cut: np.ndarray
    end: np.ndarray

    @classmethod
    def of(cls, vertices: int, members: np.ndarray, us: np.ndarray, vs: np.ndarray) -> _Set:
        inside = np.zeros(vertices, dtype=bool)
        inside[members] = True
        iu, iv = inside[us], inside[vs]
        cut = np.flatnonzero(iu != iv)
        return cls(np.flatnonzero(inside).astype(np.int64), iu & iv, cut,
                   np.where(iu[cut], us[cut], vs[cut]))


def _maybe_tight_r(imp: Implicit | None, base: Solution, multipliers: list[int],
                   vertices: int) -> np.ndarray:
    """The F vertices that may have an implicit edge to R tight under ``base`` (a superset).

    An implicit edge's reduced cost is ``a(u) + a(v) + z_uv >= 0`` (implicit.py), with
    ``z_uv >= 0``: tight only if ``a(u) + a(v) <= 0``, so only if ``a(u) + min_R a <= 0``."""
    out = np.zeros(vertices, dtype=bool)
    if imp is None or imp.r_end <= imp.f:
        return out
    w, far = imp.weights(multipliers)
    y = base.y
    low = min(y[x] - 2 * far for x in range(imp.f, imp.r_end))
    for x in np.flatnonzero(imp.has_r[:imp.f]).tolist():
        out[x] = y[x] - 4 * w[x] + 2 * far + low <= 0
    return out
