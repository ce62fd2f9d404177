"""Perfect-matching existence for the TCEC viability check (the page's "Blossom algorithm").

The TCEC rules ask one yes/no question, many times per round: do these players have a pairing
in which every pair is allowed? That is "does the graph of allowed pairs have a perfect
matching", answered by a maximum cardinality matching (Edmonds' blossom algorithm). The answer
does not depend on which maximum matching a library returns, so rustworkx (fast, the default)
and networkx (the reference) always lead to the same TCEC pairing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from typing import Literal

from swiss.pairing.matching import max_weight_matching

MatchingBackend = Literal["rustworkx", "networkx"]


def resolve_backend(name: str) -> MatchingBackend:
    """``auto`` means rustworkx; an unknown name is a clear :class:`ValueError`."""
    if name in ("auto", "rustworkx"):
        return "rustworkx"
    if name == "networkx":
        return "networkx"
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
