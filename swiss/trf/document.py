"""A parsed TRF file: the tournament plus what only TRF holds, and how to write it back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from swiss.model import Tournament
from swiss.trf.format import TrfPlayerInfo
from swiss.trf.writer import write_trf


@dataclass(frozen=True, slots=True)
class TrfTournament:
    """A parsed TRF file: the tournament, the TRF-only player fields and the uninterpreted lines."""

    tournament: Tournament
    players: Mapping[int, TrfPlayerInfo] = field(default_factory=dict)
    other_lines: tuple[str, ...] = ()
    total_rounds_line: int = 0  # the line of XXR/142, for messages about the rounds (0: none)

    def to_text(self, newline: str = "\n") -> str:
        """Write the file back (:func:`write_trf` with the kept player fields and lines)."""
        return write_trf(
            self.tournament, players=self.players, other_lines=self.other_lines, newline=newline
        )
