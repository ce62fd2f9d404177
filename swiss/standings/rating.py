"""Rating-based tiebreaks: ARO (average rating of opponents, with cuts) and TPR.

Both use games played over the board only (forfeits and byes have no opponent rating).
Unrated opponents (rating 0) are left out; a player with no rated opponent gets 0.

* ARO is rounded to the nearest integer, 0.5 rounded up (C.07 art. 10).
* TPR = ARO + dp(p), where p is the player's score in those games (1 / ½ / 0 whatever the
  event's scoring) divided by their number, rounded to two decimals (0.005 up), and dp comes
  from the FIDE Rating Regulations (B.02) table 8.1(a) below.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

# FIDE B.02 table 8.1(a): dp for p = 0.00, 0.01, ..., 1.00 (index = round(100 p)).
# fmt: off
DP_TABLE: tuple[int, ...] = (
    -800,
    -677, -589, -538, -501, -470, -444, -422, -401, -383, -366,
    -351, -336, -322, -309, -296, -284, -273, -262, -251, -240,
    -230, -220, -211, -202, -193, -184, -175, -166, -158, -149,
    -141, -133, -125, -117, -110, -102, -95, -87, -80, -72,
    -65, -57, -50, -43, -36, -29, -21, -14, -7, 0,
    7, 14, 21, 29, 36, 43, 50, 57, 65, 72,
    80, 87, 95, 102, 110, 117, 125, 133, 141, 149,
    158, 166, 175, 184, 193, 202, 211, 220, 230, 240,
    251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
)
# fmt: on


def round_half_up(value: Fraction) -> int:
    """Nearest integer, halves rounded up (FIDE's rounding)."""
    return int((value + Fraction(1, 2)).__floor__())


def average_rating(ratings: Sequence[int]) -> int:
    """ARO of ``ratings``: their mean rounded half up; 0 when there are none."""
    if not ratings:
        return 0
    return round_half_up(Fraction(sum(ratings), len(ratings)))


def dp_for(score: Fraction, games: int) -> int:
    """The FIDE dp for ``score`` out of ``games`` (p rounded to two decimals, half up)."""
    if games <= 0:
        raise ValueError("dp needs at least one game")
    index = round_half_up(Fraction(score) * 100 / games)
    return DP_TABLE[index]


def performance(score: Fraction, ratings: Sequence[int]) -> int:
    """TPR: ARO plus dp; 0 without rated opponents."""
    if not ratings:
        return 0
    return average_rating(ratings) + dp_for(score, len(ratings))
