"""The pairs output of bbpPairings (``-p``) and JaVaFo."""

from __future__ import annotations

from swiss.pairing.types import PairingResult


def format_pairs(result: PairingResult) -> str:
    """The pairs as bbpPairings (``-p``) and JaVaFo print them.

    First the number of pairs (boards, plus one for a pairing-allocated bye), then one
    ``WHITE BLACK`` line per board in board order, and the pairing-allocated bye as ``ID 0``
    last. Requested byes (half, full, zero) are not printed.
    """
    games = sorted(result.games, key=lambda g: g.board) if all(
        g.board for g in result.games) else list(result.games)
    lines = [f"{g.white} {g.black}" for g in games]
    pab = result.pairing_bye
    if pab is not None:
        lines.append(f"{pab} 0")
    return "\n".join([str(len(lines)), *lines]) + "\n"


def read_pairs(text: str) -> tuple[frozenset[tuple[int, int]], int | None]:
    """Read the pairs format :func:`format_pairs` writes: the coloured pairs and the PAB.

    The first line (the count) is skipped; each further line is ``WHITE BLACK``, with
    ``ID 0`` for the pairing-allocated bye. Used to compare an engine's output with ours.

    >>> read_pairs("3\\n1 4\\n5 2\\n3 0\\n")
    (frozenset({(1, 4), (5, 2)}), 3)
    """
    pairs: set[tuple[int, int]] = set()
    bye = None
    for line in text.split("\n")[1:]:
        if not line.strip():
            continue
        white, black = (int(x) for x in line.split())
        if black == 0:
            bye = white
        else:
            pairs.add((white, black))
    return frozenset(pairs), bye
