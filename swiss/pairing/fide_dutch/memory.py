"""The memory budget of one FIDE Dutch round: refuse, before any graph is built, a round or a
bracket whose graphs would not fit in :data:`MEMORY_LIMIT` (a clear error instead of the
process being killed). docs/fide-dutch.md, "Memory of big brackets".
"""

from __future__ import annotations

from collections.abc import Sequence

from swiss.pairing.fide_dutch.context import Context
from swiss.pairing.types import PairingError

# Peak memory of a small round's bracket graphs and matchings per allowed pair of the
# players to pair (every bracket's graph spans all players still unpaired, so the first one
# has every allowed pair of the round; big rounds list fewer: BYTES_PER_LISTED_EDGE):
# measured with ``benchmarks/pairing.py`` after 6 rounds (process
# peak minus the interpreter's): 1,000 players 110 MB for 479,000 pairs (2017: 93 MB), 3,000
# players about 190 bytes a pair; rounded up. docs/fide-dutch.md, "Memory of big brackets".
BYTES_PER_EDGE = 240
# The same for the pairs listed by a big round's brackets with implicit edges (implicit.py:
# the bracket and the next scoregroup only), as :func:`_check_memory_implicit` counts them.
# Measured on the 10,000-player round of ``benchmarks/pairing.py`` (round 7, 2025 rules,
# h25-build's typed graphs; peak RSS of the whole bracket, tie-break tests included, less the
# ~80-120 MB the process held before it): 60-90 bytes a pair in its brackets of 1.9-6.8
# million listed pairs (docs/fide-dutch.md, "Memory of big brackets"); rounded up. (240
# before typed graphs: and even that was too low, 2.0 GB at 6.8 million pairs.) The graphs
# that list every pair of the players still unpaired keep BYTES_PER_EDGE.
BYTES_PER_LISTED_EDGE = 120
MEMORY_LIMIT = 2 << 30  # bytes: issue 13's budget for one pairing (2 GB)


class GraphTooLarge(PairingError):
    """The round's matching graph would need more memory than :data:`MEMORY_LIMIT`."""


def check_round_memory(ctx: Context, order: Sequence[int], implicit: bool) -> None:
    """Refuse, before any graph is built, a round whose graphs would not fit in
    :data:`MEMORY_LIMIT` (a clear error instead of the process being killed).

    ``implicit``: the round is big enough for its brackets to leave their separable edges
    implicit (:data:`swiss.pairing.fide_dutch.engine.IMPLICIT_MIN_PLAYERS`)."""
    n = len(order)
    if implicit:
        # (2017 too: its brackets paired on their own list the bracket and the next
        # scoregroup, their sinks implicit; the collapsed last bracket is checked when it
        # is built, by _pair_bracket)
        _check_memory_implicit(ctx, order)
        return
    inside = set(order)
    met = sum(len(ctx.players[p].played & inside) for p in order) // 2
    edges = n * (n - 1) // 2 - met
    need = edges * BYTES_PER_EDGE
    if need <= MEMORY_LIMIT:
        return
    top = ctx.players[order[0]].score
    first = sum(1 for p in order if ctx.players[p].score == top)
    most = int((2 * MEMORY_LIMIT / BYTES_PER_EDGE) ** 0.5)
    raise GraphTooLarge(
        f"fide-dutch cannot pair this round within its memory limit: each bracket is matched "
        f"together with every player still unpaired, so the first bracket ({first:,} players "
        f"on {float(top):g} points) needs a graph of all {n:,} players ({edges:,} allowed "
        f"pairs, about {need / 2**30:.1f} GB; the limit is {MEMORY_LIMIT / 2**30:.0f} GB, about "
        f"{most:,} players once games have been played). Round 1, and any round in which no "
        f"one has played yet, is paired for any number of players.")


def _check_memory_implicit(ctx: Context, order: Sequence[int]) -> None:
    """:func:`check_round_memory` for big rounds, whose brackets list only the pairs inside the
    bracket and the next scoregroup (implicit.py): the largest two consecutive scoregroups
    give the listed pairs (the few players floating down from above are checked bracket by
    bracket, :func:`check_bracket_memory`)."""
    sizes: list[int] = []
    last = None
    for p in order:
        score = ctx.players[p].score
        if score != last:
            sizes.append(0)
            last = score
        sizes[-1] += 1
    worst, at = 0, 0
    for i in range(len(sizes)):
        group = sum(sizes[i:i + 2])
        if group > worst:
            worst, at = group, i
    check_bracket_memory(worst, f"scoregroups {at + 1} and {at + 2} from the top")


def check_bracket_memory(players: int, what: str, per_pair: int | None = None) -> None:
    """Refuse a big round's bracket whose listed pairs (``players``: the bracket and the
    next scoregroup) would not fit in :data:`MEMORY_LIMIT`, at ``per_pair`` bytes a pair
    (:data:`BYTES_PER_LISTED_EDGE` when not given)."""
    per_pair = BYTES_PER_LISTED_EDGE if per_pair is None else per_pair
    edges = players * (players - 1) // 2
    need = edges * per_pair
    if need <= MEMORY_LIMIT:
        return
    most = int((2 * MEMORY_LIMIT / per_pair) ** 0.5)
    raise GraphTooLarge(
        f"fide-dutch cannot pair this round within its memory limit: a bracket is matched "
        f"with the pairs of its players and of the next scoregroup listed, and {what} hold "
        f"{players:,} players ({edges:,} pairs, about {need / 2**30:.1f} GB; the limit is "
        f"{MEMORY_LIMIT / 2**30:.0f} GB, about {most:,} players in two consecutive "
        f"scoregroups).")
