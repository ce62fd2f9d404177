"""Single-elimination brackets (the top cut after a Swiss): seeding order and advancing winners.

Pure: no I/O. Seeds are 1 (best) to ``entrants``; the bracket has ``size`` slots, the smallest
power of two that holds every entrant, and the missing seeds (``entrants + 1 .. size``) are
byes. With the standard seeding order a bye is always met by one of the top seeds, and seeds 1
and 2 sit in opposite halves, so they can only meet in the final (1 and 2 beat everyone else).

A bracket is described by its entrants and the winners decided so far::

    >>> matches = build(4, {})
    >>> [(m.high, m.low) for m in matches[0]]
    [(1, 4), (2, 3)]
    >>> matches = build(4, {(1, 0): 1, (1, 1): 3})
    >>> (matches[1][0].high, matches[1][0].low)
    (1, 3)

Rounds are numbered from 1 (the first playoff round); ``(round, index)`` names a match, with
``index`` from 0 in bracket order (top to bottom).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

MAX_ENTRANTS = 32


def bracket_size(entrants: int) -> int:
    """The smallest power of two holding ``entrants`` (at least 2)."""
    if entrants < 2:
        raise ValueError("a bracket needs at least 2 entrants")
    size = 2
    while size < entrants:
        size *= 2
    return size


def rounds_of(entrants: int) -> int:
    """How many rounds the bracket plays (log2 of its size)."""
    return bracket_size(entrants).bit_length() - 1


def seeding_order(size: int) -> list[int]:
    """The seeds in bracket order (top to bottom) for a bracket of ``size`` (a power of two).

    Built by doubling: each seed ``s`` of the smaller bracket is followed by its opponent
    ``2 * n + 1 - s``, so every first-round pair adds up to ``size + 1`` (1 v 8, 4 v 5, ...)
    and the halves of every sub-bracket are balanced; 1 and 2 are in opposite halves.

    >>> seeding_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    if size < 2 or size & (size - 1):
        raise ValueError(f"a bracket size is a power of two, not {size}")
    order = [1, 2]
    while len(order) < size:
        n = len(order) * 2
        order = [s for seed in order for s in (seed, n + 1 - seed)]
    return order


@dataclass(frozen=True, slots=True)
class Match:
    """One match of the bracket. ``high`` / ``low``: the seeds meeting (the better seed is
    ``high``); ``None`` while undecided (an earlier match is not over) or a bye (``bye``)."""

    round: int
    index: int
    high: int | None
    low: int | None
    winner: int | None
    bye: bool = False

    @property
    def playable(self) -> bool:
        """Both sides are known and it is not a bye: a game to play (or being played)."""
        return self.high is not None and self.low is not None and not self.bye


def build(entrants: int, winners: Mapping[tuple[int, int], int]) -> list[list[Match]]:
    """Every match of the bracket, round by round, from the winners decided so far
    (``winners[(round, index)]`` = the winning seed). A bye's winner is decided at once.

    Byes only occur in round 1: each first-round pair is ``(s, size + 1 - s)`` with
    ``s <= size / 2 < entrants``, so every first-round match has a real top seed. In later
    rounds a missing side (``None``) means "not decided yet".

    Raises ``ValueError`` for a winner who is not in that match.
    """
    size = bracket_size(entrants)
    slots: list[int | None] = [s if s <= entrants else None for s in seeding_order(size)]
    rounds: list[list[Match]] = []
    number = 1
    while len(slots) > 1:
        matches: list[Match] = []
        next_slots: list[int | None] = []
        for index in range(len(slots) // 2):
            a, b = slots[2 * index], slots[2 * index + 1]
            present = sorted(s for s in (a, b) if s is not None)
            high = present[0] if present else None
            low = present[1] if len(present) > 1 else None
            bye = number == 1 and low is None
            winner: int | None
            if bye:
                winner = high
            else:
                winner = winners.get((number, index))
                if winner is not None and (low is None or winner not in (high, low)):
                    raise ValueError(f"seed {winner} does not play match {number}.{index + 1}")
            matches.append(Match(number, index, high, low, winner, bye))
            next_slots.append(winner)
        rounds.append(matches)
        slots = next_slots
        number += 1
    return rounds


def champion(entrants: int, winners: Mapping[tuple[int, int], int]) -> int | None:
    """The winner of the final, once decided."""
    return build(entrants, winners)[-1][0].winner


def eliminated_in(entrants: int, winners: Mapping[tuple[int, int], int]) -> dict[int, int]:
    """Seed -> the bracket round it lost (byes are not losses). Winners are not in it."""
    out: dict[int, int] = {}
    for matches in build(entrants, winners):
        for m in matches:
            if m.playable and m.winner is not None:
                loser = m.low if m.winner == m.high else m.high
                assert loser is not None
                out[loser] = m.round
    return out


def stage_name(rounds_total: int, round_number: int) -> str:
    """"Final", "Semi-finals", "Quarter-finals", "Round of 16", "Round of 32"."""
    remaining = rounds_total - round_number  # 0 for the final
    return {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}.get(
        remaining, f"Round of {2 ** (remaining + 1)}"
    )


def placing_name(rounds_total: int, lost_in: int | None) -> str:
    """The placing of a seed who lost in bracket round ``lost_in`` (None: the winner)."""
    if lost_in is None:
        return "Winner"
    remaining = rounds_total - lost_in
    return {0: "Finalist", 1: "Semi-finalist", 2: "Quarter-finalist"}.get(
        remaining, f"Round of {2 ** (remaining + 1)}"
    )
