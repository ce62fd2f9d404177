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


# FIDE B.02 table 8.1(b): the expected score (in hundredths) of the higher-rated player for a
# rating difference; each entry is (largest difference of the band, pd). Above 735: 1.00.
_PD_BANDS: tuple[tuple[int, int], ...] = (
    (3, 50), (10, 51), (17, 52), (25, 53), (32, 54), (39, 55), (46, 56), (53, 57), (61, 58),
    (68, 59), (76, 60), (83, 61), (91, 62), (98, 63), (106, 64), (113, 65), (121, 66),
    (129, 67), (137, 68), (145, 69), (153, 70), (162, 71), (170, 72), (179, 73), (188, 74),
    (197, 75), (206, 76), (215, 77), (225, 78), (235, 79), (245, 80), (256, 81), (267, 82),
    (278, 83), (290, 84), (302, 85), (315, 86), (328, 87), (344, 88), (357, 89), (374, 90),
    (391, 91), (411, 92), (432, 93), (456, 94), (484, 95), (517, 96), (559, 97), (619, 98),
    (735, 99),
)


def _pd_table() -> tuple[int, ...]:
    table: list[int] = []
    for upper, pd in _PD_BANDS:
        table.extend([pd] * (upper + 1 - len(table)))
    table.extend([100] * (801 - len(table)))
    return tuple(table)


PD_TABLE: tuple[int, ...] = _pd_table()  # index: rating difference 0..800


def expected_score(rating: int, opponent: int) -> Fraction:
    """FIDE expected score of ``rating`` against ``opponent`` (differences capped at 800)."""
    diff = max(-800, min(800, opponent - rating))
    if diff < 0:
        return Fraction(PD_TABLE[-diff], 100)
    return Fraction(100 - PD_TABLE[diff], 100)


def perfect_performance(score: Fraction, ratings: Sequence[int]) -> int:
    """PTP (C.07 art. 10.3): the lowest rating whose expected score reaches ``score``.

    0 points: the lowest opponent rating - 800; more points than games: highest + 800. Without
    rated opponents 0 (callers that must tell "no value" apart check ``ratings`` first).
    """
    if not ratings:
        return 0
    if score <= 0:
        return min(ratings) - 800
    if score > len(ratings):
        return max(ratings) + 800

    def reaches(candidate: int) -> bool:
        return sum((expected_score(candidate, r) for r in ratings), Fraction(0)) >= score

    # The expected score grows with the rating and reaches len(ratings) at max + 736, so the
    # answer lies in (min - 801, max + 736]: bisect on integers for the lowest that reaches.
    low, high = min(ratings) - 801, max(ratings) + 736
    while high - low > 1:
        middle = (low + high) // 2
        if reaches(middle):
            high = middle
        else:
            low = middle
    return high
