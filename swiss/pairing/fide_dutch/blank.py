"""Rounds where nothing but the scores tells the players apart (round 1): no graph needed.

When no player to pair has played a game, has a colour, a float, an unplayed round more
than another, or is barred from the pairing-allocated bye (PAB), and no pair of them is
forbidden, every criterion of C.04.3 (C1-C4 absolute, C5-C19 quality, the 2025 PAB
criteria) is met or missed alike by every pairing that keeps the same pairs per bracket and
floats the same scores. The Dutch pairing is then the first candidate of each bracket in the
Handbook's order of generation, which this module writes down directly in O(n), instead of
one maximum weight matching of n^2/2 edges (2.6 s and 330 MB at 1,000 players; at 10,000 the
graph does not fit in memory). docs/fide-dutch.md ("Round 1 without a graph") gives the rule
texts and why each criterion cannot tell the pairings apart;
``tests/swiss/test_fide_dutch_blank.py`` compares it with the full engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from swiss.model import Color
from swiss.pairing.fide_dutch.players import DutchPlayer
from swiss.state import Float


def is_blank_round(players: Mapping[int, DutchPlayer],
                   forbidden_pairs: frozenset[frozenset[int]]) -> bool:
    """Whether the round's players are indistinguishable but for score and pairing number.

    Each player: no game played (so no opponent met, no colour difference or preference:
    C1, C3, C8-C11 and E.1-E.4 have nothing to compare), no float one or two rounds before
    (C12-C19), the PAB allowed (C2), and every player the same number of unplayed rounds
    (the 2025 PAB criterion); and no forbidden pair among them.
    """
    unplayed: set[int] = set()
    for p in players.values():
        if (p.played or p.colors or p.pref is not Color.NONE or not p.can_pab
                or p.float_prev is not Float.NONE or p.float_prev2 is not Float.NONE):
            return False
        unplayed.add(p.unplayed)
        if len(unplayed) > 1:
            return False
    return not any(len(pair) == 2 and all(pid in players for pid in pair)
                   for pair in forbidden_pairs)


def first_candidates(players: Mapping[int, DutchPlayer], order: Sequence[int]
                     ) -> tuple[list[tuple[int, int]], int | None]:
    """The Dutch pairing of a blank round (see :func:`is_blank_round`): pairs (higher-ranked
    player first) and the PAB player.

    ``order`` is the players in the order of A.2 (score descending, then pairing number).
    Brackets from the top score down: a moved-down player (at most one: every bracket pairs
    all but at most one of its players) is paired with the first resident (the MDP-pairing's
    first candidate; pairing it beats floating it on the PSD, C6), then the homogeneous
    remainder pairs S1[i] with S2[i] (S1 its first half, rounded down), and an odd remainder
    floats the last player of S2 (the lowest-ranked): the next bracket's MDP, or in the last
    bracket the PAB (of the lowest score, as the 2025 edition asks first).
    """
    pairs: list[tuple[int, int]] = []
    mdp: int | None = None
    start = 0
    while start < len(order):
        score = players[order[start]].score
        end = start
        while end < len(order) and players[order[end]].score == score:
            end += 1
        residents = list(order[start:end])
        if mdp is not None:
            pairs.append((mdp, residents[0]))
            residents = residents[1:]
        half = len(residents) // 2
        pairs.extend(zip(residents[:half], residents[half:2 * half], strict=True))
        mdp = residents[-1] if len(residents) % 2 else None
        start = end
    return pairs, mdp
