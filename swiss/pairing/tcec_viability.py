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
    """``auto`` means ``exact`` (:class:`AllowedGraph`, compiled); ``rustworkx`` and
    ``networkx`` answer each question with a fresh matching of that library (slower: kept as
    references). An unknown name is a clear :class:`ValueError`."""
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


class AllowedGraph:
    """The allowed pairs among the players of one round, for many viability questions.

    Built once per encounter history (a few matrix operations: no Python loop over pairs), it
    answers "do these players have a pairing?" with the compiled Edmonds search of
    :mod:`swiss.pairing.cover`, warm-started from a matching already known, so that a
    question costs the part of the graph the search touches, not a rebuild. Exact, like the
    matching libraries: the answer does not depend on which pairing is found.
    """

    def __init__(self, players: Sequence[int], wgd: Mapping[int, int],
                 blocked: Iterable[Set[int]]) -> None:
        self.players = list(players)
        self.index = {pid: i for i, pid in enumerate(self.players)}
        n = len(self.players)
        w = np.array([wgd[p] for p in self.players], dtype=np.int64)
        ok = np.abs(w[:, None] + w[None, :]) <= 2  # the colour condition
        np.fill_diagonal(ok, False)
        for pair in blocked:  # met in a round still in the history, or forbidden
            a, b = (self.index.get(p, -1) for p in pair)
            if a >= 0 and b >= 0:
                ok[a, b] = ok[b, a] = False
        self.ok = ok
        # The CSR rows straight from the matrix (row-major order is row order): each pair is
        # listed from both ends under two edge ids, all usable.
        rows, others = np.nonzero(ok)
        starts = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.count_nonzero(ok, axis=1), out=starts[1:])
        self.adjacency = Adjacency(starts, np.ascontiguousarray(others, dtype=np.int64),
                                   np.arange(rows.size, dtype=np.int64), int(rows.size))
        self.usable = np.ones(rows.size, dtype=bool)

    def allowed(self, a: int, b: int) -> bool:
        return bool(self.ok[self.index[a], self.index[b]])

    def complete(self, group: Sequence[int], partial: Mapping[int, int]) -> dict[int, int] | None:
        """A pairing of all of ``group`` (ids) that grows ``partial`` (pairs inside the group,
        both directions; its exposed players are matched by augmenting paths), or None when
        the group has no pairing at all."""
        k = len(group)
        if k % 2:
            return None
        local = {pid: i for i, pid in enumerate(group)}
        mate = np.full(k, -1, dtype=np.int64)
        for pid, other in partial.items():
            if pid in local and other in local:
                mate[local[pid]] = local[other]
        verts = np.fromiter((self.index[p] for p in group), dtype=np.int64, count=k)
        if not partial:
            self._greedy_start(verts, mate)
        need = np.ones(k, dtype=bool)
        if cover(self.adjacency, self.usable, verts, need, np.zeros(k, dtype=bool), mate) != -1:
            return None
        return {group[i]: group[j] for i, j in enumerate(mate.tolist())}

    def _greedy_start(self, verts: np.ndarray, mate: np.ndarray) -> None:
        """Match each player with the first allowed free one after him: in the dense graphs
        of a TCEC round that leaves few players to the search, which would otherwise shrink
        a blossom per matched pair it meets on its way to a free player."""
        sub = self.ok[np.ix_(verts, verts)]
        free = np.ones(verts.size, dtype=bool)
        for i in range(verts.size):
            if not free[i]:
                continue
            free[i] = False
            options = sub[i] & free
            j = int(options.argmax())
            if options[j]:
                free[j] = False
                mate[i], mate[j] = j, i
            else:
                free[i] = True
