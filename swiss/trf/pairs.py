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
