"""TCEC seeding: the unique seed number every player gets before round 1.

The TCEC page (seed 002, "Seeding") defines two procedures, both here as pure functions that
return the players in seed order with :attr:`Player.order` set to the seed number (1 = first
seed), so that :attr:`Player.seed` -- the order the TCEC engine uses -- is the new seed:

* :func:`random_seeding`: a shuffle driven by a seeded generator (reproducible).
* :func:`group_seeding`: players ordered by strength are cut into groups, the stronger groups
  one larger when the division is not even; seeds are then dealt round-robin across the groups,
  always the strongest unseeded player of each group.

The page also mentions "equal distance seeding" without defining it; it is not implemented.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from swiss.model import Player


def _numbered(players: Sequence[Player]) -> list[Player]:
    """The players with ``order`` set to their 1-based position: their TCEC seed number."""
    return [replace(p, order=number) for number, p in enumerate(players, start=1)]


def random_seeding(players: Sequence[Player], seed: int) -> list[Player]:
    """Random seeding: a shuffle of ``players`` by ``random.Random(seed)``, numbered 1..n.

    The same players (in the same input order) and the same ``seed`` always give the same seeds.
    """
    shuffled = list(players)
    random.Random(seed).shuffle(shuffled)
    return _numbered(shuffled)


def group_sizes(player_count: int, groups: int) -> list[int]:
    """Sizes of the seeding groups A, B, ...: as equal as possible, the stronger ones larger.

    ``group_sizes(11, 4) == [3, 3, 3, 2]`` and ``group_sizes(15, 4) == [4, 4, 4, 3]``.
    """
    if groups < 1:
        raise ValueError(f"the number of seeding groups must be at least 1 (got {groups})")
    if groups > player_count:
        raise ValueError(
            f"cannot split {player_count} players into {groups} non-empty seeding groups"
        )
    base, extra = divmod(player_count, groups)
    return [base + 1] * extra + [base] * (groups - extra)


def group_seeding(players_by_strength: Sequence[Player], groups: int) -> list[Player]:
    """Group seeding of players given strongest first; returns them in seed order, numbered.

    The players are cut into ``groups`` consecutive groups (A = strongest) of
    :func:`group_sizes`; seed 1 is the strongest of A, seed 2 the strongest of B, ... and after
    the last group the deal starts again at A with each group's strongest unseeded player.
    The page says the number of groups *should* be even (so that round 1, seed2-seed1, pairs
    group A with group B); an odd number is accepted because the procedure is well defined.
    """
    sizes = group_sizes(len(players_by_strength), groups)
    cut: list[list[Player]] = []
    start = 0
    for size in sizes:
        cut.append(list(players_by_strength[start : start + size]))
        start += size
    seeded = [group[i] for i in range(sizes[0]) for group in cut if i < len(group)]
    return _numbered(seeded)


def suggested_group_count(player_count: int, group_size: int = 7) -> int:
    """The page's advice: ``round_to_even(number_of_players / group_size)``, at least 2.

    Rounds half up to the nearest even number: 50 players -> 8 groups, 40 -> 6, 28 -> 4.
    """
    if player_count < 2:
        raise ValueError("group seeding needs at least 2 players")
    if group_size < 1:
        raise ValueError(f"the group size must be at least 1 (got {group_size})")
    nearest_even = 2 * int(player_count / group_size / 2 + 0.5)
    return max(2, min(nearest_even, player_count - player_count % 2))
