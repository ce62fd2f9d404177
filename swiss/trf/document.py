"""A parsed TRF file: the tournament plus what only TRF holds, and how to write it back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from swiss.model import Tournament
from swiss.state import PlayerState
from swiss.trf.format import TrfPlayerInfo
from swiss.trf.writer import write_trf


@dataclass(frozen=True, slots=True)
class TrfTournament:
    """A parsed TRF file: the tournament, the TRF-only player fields and the uninterpreted lines."""

    tournament: Tournament
    players: Mapping[int, TrfPlayerInfo] = field(default_factory=dict)
    other_lines: tuple[str, ...] = ()
    total_rounds_line: int = 0  # the line of XXR/142, for messages about the rounds (0: none)
    # swiss.state.player_states(tournament), all rounds: the reader walks the rounds for its
    # own checks, and pairing the next round needs the same walk
    # (``pair_round(t.tournament, config, states=t.states)``). Not compared: it follows from
    # the tournament. Belongs to ``tournament`` only: a changed tournament needs its own.
    states: Mapping[int, PlayerState] | None = field(default=None, compare=False, repr=False)
    # The line in the file of each of ``other_lines`` (for messages; empty when not read from
    # a file). Not compared: the same lines elsewhere in a file are the same tournament.
    other_line_numbers: tuple[int, ...] = field(default=(), compare=False, repr=False)

    def to_text(self, newline: str = "\n") -> str:
        """Write the file back (:func:`write_trf` with the kept player fields and lines)."""
        return write_trf(
            self.tournament, players=self.players, other_lines=self.other_lines, newline=newline
        )
