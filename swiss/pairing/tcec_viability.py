"""Perfect-matching existence for the TCEC viability check (the page's "Blossom algorithm").

The TCEC rules ask one yes/no question, many times per round: do these players have a pairing
in which every pair is allowed? That is "does the graph of allowed pairs have a perfect
matching", answered by a maximum cardinality matching (Edmonds' blossom algorithm). The answer
does not depend on which maximum matching a library returns, so the compiled search of
:class:`AllowedGraph` (the default), rustworkx and networkx (the reference) always lead to the
same TCEC pairing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence, Set
from typing import Literal

import numpy as np

from swiss.pairing.cover import Adjacency, cover
from swiss.pairing.matching import max_weight_matching

MatchingBackend = Literal["exact", "rustworkx", "networkx"]


def resolve_backend(name: str) -> MatchingBackend:
    """``auto`` means ``exact`` (:class:`AllowedGraph`, compiled); ``rustworkx`` (the old name
    of the compiled dense path) and ``networkx`` answer each question with a fresh matching of
    the whole allowed graph (slower: kept as references). An unknown name is a clear
    :class:`ValueError`."""
    if name in ("auto", "exact"):
        return "exact"
    if name in ("rustworkx", "networkx"):
        return name  # type: ignore[return-value]
    raise ValueError(f"unknown matching backend {name!r}; use 'auto', 'rustworkx' or 'networkx'")


def perfect_matching(
    players: Sequence[int],
    allowed: Mapping[int, Set[int]],
    backend: MatchingBackend = "rustworkx",
) -> dict[int, int] | None:
    """A perfect matching of ``players`` using only ``allowed`` pairs, or None if none exists.

    ``allowed[p]`` is the set of players p may be paired with (symmetric). The result maps each
    player to his partner (both directions). An empty list has the empty matching.
    """
    if len(players) % 2:
        return None
    if not players:
        return {}
    index = {pid: i for i, pid in enumerate(players)}
    edges: list[tuple[int, int]] = []
    for pid in players:
        i = index[pid]
        neighbours = [index[q] for q in allowed.get(pid, ()) if q in index and index[q] > i]
        if not neighbours and not any(q in index for q in allowed.get(pid, ())):
            return None  # an isolated player: no need to run the blossom algorithm
        edges.extend((i, j) for j in neighbours)
    # Unit weights: the maximum weight matching of maximum cardinality is a maximum matching.
    mates = max_weight_matching(len(players), [(u, v, 1) for u, v in edges], backend)
    if len(mates) * 2 != len(players):
        return None
    matching: dict[int, int] = {}
    for u, v in mates:
        matching[players[u]] = players[v]
        matching[players[v]] = players[u]
    return matching


class ReferenceViability:
    """The viability questions of one round answered by a fresh matching of a library each
    (``rustworkx`` or ``networkx``): the reference :class:`ExactViability` is checked against.

    ``witness`` is a pairing of the players not yet paired; :meth:`pair` keeps it one.
    """

    def __init__(self, players: Sequence[int], allowed: Mapping[int, Set[int]],
                 backend: MatchingBackend) -> None:
        self.allowed, self.backend = allowed, backend
        self.unpaired = list(players)
        self.witness = perfect_matching(self.unpaired, allowed, backend)

    @property
    def pairable(self) -> bool:
        return self.witness is not None

    def pair(self, first: int, second: int) -> bool:
        """Can ``first`` and ``second`` (an allowed pair) meet with the rest still paired?"""
        assert self.witness is not None
        if self.witness.get(first) == second:
            return True
        rest = [p for p in self.unpaired if p not in (first, second)]
        matching = perfect_matching(rest, self.allowed, self.backend)
        if matching is None:
            return False
        self.witness = {**matching, first: second, second: first}
        return True

    def remove(self, first: int, second: int) -> None:
        """``first`` and ``second`` were paired (after :meth:`pair` said they may be)."""
        self.unpaired = [p for p in self.unpaired if p not in (first, second)]


#: Allowed partners per player in the sparse graph tried before all allowed pairs: enough for
#: the few augmenting paths a question needs in the dense graphs of TCEC rounds.
SPARSE_DEGREE = 24


class ExactViability:
    """The viability questions of one round under one encounter history, answered exactly
    by a pairing kept up to date (the witness) and Edmonds' search when it must change.

    The allowed pairs are a matrix built without a Python loop over pairs: the colour
    condition from the players' white game differences, less the met and forbidden pairs.
    Most questions ("may first meet second with the rest still paired?") are settled by
    rearranging the witness: their two partners meet each other, or one other pair is split
    between them. Only when neither works does the compiled search of
    :mod:`swiss.pairing.cover` run, warm-started from the witness less those pairs, on the
    allowed pairs (a sparse part of them first). Exact, like the matching libraries:
    the answer does not depend on which pairing is found.
    """

    def __init__(self, players: Sequence[int], wgd: Mapping[int, int],
                 blocked: Iterable[Set[int]]) -> None:
        self.players = list(players)
        self.index = {pid: i for i, pid in enumerate(self.players)}
        n = len(self.players)
        # The colour condition |WGD(a) + WGD(b)| <= 2, by the few distinct WGD values: no
        # n-by-n array of integers on the way.
        values, kind = np.unique(np.array([wgd[p] for p in self.players], dtype=np.int64),
                                 return_inverse=True)
        table = np.abs(values[:, None] + values[None, :]) <= 2
        ok = table[kind[:, None], kind[None, :]]
        np.fill_diagonal(ok, False)
        for pair in blocked:  # met in a round still in the history, or forbidden
            a, b = (self.index.get(p, -1) for p in pair)
            if a >= 0 and b >= 0:
                ok[a, b] = ok[b, a] = False
        self.ok = ok
        self.alive = np.ones(n, dtype=bool)
        self.mate = np.full(n, -1, dtype=np.int64)
        self.pairable = self._start()

    def pair(self, first: int, second: int) -> bool:
        """Can ``first`` and ``second`` (an allowed pair) meet with the rest still paired?
        When they can, the witness pairs them."""
        i, j = self.index[first], self.index[second]
        a, b = int(self.mate[i]), int(self.mate[j])
        if a == j:
            return True
        if self.ok[a, b]:  # their partners meet each other
            self._join(a, b)
        elif not self._split_a_pair(i, j, a, b) and not self._search(i, j, a, b):
            return False
        self._join(i, j)
        return True

    def remove(self, first: int, second: int) -> None:
        """``first`` and ``second`` were paired (after :meth:`pair` said they may be)."""
        self.alive[self.index[first]] = self.alive[self.index[second]] = False

    def _join(self, a: int, b: int) -> None:
        self.mate[a], self.mate[b] = b, a

    def _start(self) -> bool:
        """A first witness: each player takes the first allowed free one after him, and the
        search pairs whoever is left (few, in the dense graphs of a TCEC round; starting the
        search from nothing would shrink a blossom per pair it meets)."""
        free = np.ones(self.ok.shape[0], dtype=bool)
        for i in range(free.size):
            if not free[i]:
                continue
            free[i] = False
            options = self.ok[i] & free
            j = int(options.argmax())
            if options[j]:
                free[j] = False
                self._join(i, j)
            else:
                free[i] = True
        left = np.flatnonzero(free).tolist()
        while len(left) >= 2 and self._match_two_free(left.pop(), left):
            pass
        return not left or self._cover(np.arange(free.size, dtype=np.int64))

    def _match_two_free(self, u: int, free: list[int]) -> bool:
        """Pair the free ``u`` with one of the ``free``: directly, or through one pair x-y of
        the witness (u-x, v-y). False (``u`` put back) when neither works for any of them."""
        for k, v in enumerate(free):
            if self.ok[u, v]:
                self._join(u, v)
                del free[k]
                return True
        for k, v in enumerate(free):
            xs = np.flatnonzero(self.ok[u] & (self.mate >= 0))
            ys = self.mate[xs]
            good = self.ok[v, ys]
            if good.any():
                x, y = int(xs[good.argmax()]), int(ys[good.argmax()])
                self._join(u, x)
                self._join(v, y)
                del free[k]
                return True
        free.append(u)
        return False

    def _split_a_pair(self, i: int, j: int, a: int, b: int) -> bool:
        """Pair ``i`` with ``j``: their partners ``a`` and ``b`` take over one other pair x-y
        of the witness (a-x, b-y), if some pair allows it."""
        xs = np.flatnonzero(self.alive & self.ok[a])
        ys = self.mate[xs]
        good = self.ok[b, ys] & (ys != i) & (ys != j) & (xs != i) & (xs != j)
        good &= (xs != b) & (ys != a) & (ys >= 0)
        if not good.any():
            return False
        k = int(good.argmax())
        x, y = int(xs[k]), int(ys[k])
        self._join(a, x)
        self._join(b, y)
        return True

    def _search(self, i: int, j: int, a: int, b: int) -> bool:
        """The exact question: do the players still unpaired, less ``i`` and ``j``, have a
        pairing? Edmonds' search from the witness less the pairs i-a and j-b."""
        self.alive[i] = self.alive[j] = False
        self.mate[a] = self.mate[b] = -1
        verts = np.flatnonzero(self.alive)
        if self._cover(verts):
            return True
        self.alive[i] = self.alive[j] = True  # no: the witness stays as it was
        self._join(i, a)
        self._join(j, b)
        return False

    def _cover(self, verts: np.ndarray) -> bool:
        """Complete the witness on ``verts`` (a pairing of all of them) if one exists; the
        witness is left unchanged when none does.

        First on a sparse part of the allowed pairs (the witness's own pairs and some
        :data:`SPARSE_DEGREE` others per player): a pairing found there is a pairing. Only
        when it finds none does the search run on every allowed pair among ``verts``, which
        at thousands of players is most of a gigabyte for a moment."""
        if verts.size % 2:
            return False
        sub = self.ok[np.ix_(verts, verts)]
        return self._cover_on(verts, self._sparse(verts, sub)) or \
            self._cover_on(verts, np.nonzero(sub))

    def _sparse(self, verts: np.ndarray, sub: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Edges (local indices) of the witness among ``verts`` and, per player, up to
        :data:`SPARSE_DEGREE` allowed partners spread evenly over his row."""
        local = np.full(self.ok.shape[0], -1, dtype=np.int64)
        local[verts] = np.arange(verts.size)
        partners = self.mate[verts]
        keep = partners >= 0
        us = [np.flatnonzero(keep)]
        vs = [local[partners[keep]]]
        for i in range(verts.size):
            row = np.flatnonzero(sub[i])
            if row.size > SPARSE_DEGREE:
                row = row[:: row.size // SPARSE_DEGREE]
            us.append(np.full(row.size, i, dtype=np.int64))
            vs.append(row)
        return np.concatenate(us), np.concatenate(vs)

    def _cover_on(self, verts: np.ndarray, edges: tuple[np.ndarray, np.ndarray]) -> bool:
        """The search on the graph of ``edges`` (local indices, either direction) among
        ``verts``, from the witness where its pairs are among them."""
        us, vs = (np.asarray(e, dtype=np.int64) for e in edges)
        k = verts.size
        both = np.concatenate((np.minimum(us, vs), np.maximum(us, vs)))
        pairs = np.unique(both[: us.size] * k + both[us.size :])
        pairs = pairs[pairs // k != pairs % k]
        adjacency = Adjacency.of(k, pairs // k, pairs % k)
        local = np.full(self.ok.shape[0], -1, dtype=np.int64)
        local[verts] = np.arange(k)
        partners = self.mate[verts]
        mate = np.where(partners >= 0, local[np.maximum(partners, 0)], -1)
        mate = np.where(mate >= 0, mate, -1)
        if cover(adjacency, np.ones(adjacency.edges, dtype=bool), np.arange(k, dtype=np.int64),
                 np.ones(k, dtype=bool), np.zeros(k, dtype=bool), mate) != -1:
            return False
        self.mate[verts] = verts[mate]
        return True
