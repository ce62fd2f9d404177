"""What the team pairing systems know of a team: its pairing number and its past matches."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Literal

Colour = Literal["w", "b"]
ColourModel = Literal["type-a", "type-b", "none"]
ScoreName = Literal["mp", "gp"]


class MatchKind(Enum):
    """How a team's round went, as far as pairing cares."""

    PLAYED = "played"  # over the board (a few boards may have been forfeited)
    FORFEIT_WIN = "forfeit-win"  # the opponent did not come: counts as a win, not as played
    FORFEIT_LOSS = "forfeit-loss"
    PAB = "pab"  # the pairing-allocated bye
    FULL_BYE = "full-bye"  # a requested or organiser's bye worth a win (bars the PAB too)
    ABSENT = "absent"  # not paired (zero or half-point bye, withdrawal)


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One team's result in one round."""

    round: int
    kind: MatchKind
    opponent: int | None = None  # the opponent's pairing number (also for forfeits)
    colour: Colour | None = None  # board 1's colour, only when the match was played
    match_points: Fraction = Fraction(0)
    game_points: Fraction = Fraction(0)
    # Per board, in board order: the member's colour and TRF result code ("w", "1"; "-", "U";
    # "", "" when the member has no entry). Only the board-level tie-breaks read it.
    boards: tuple[tuple[str, str], ...] = ()

    @property
    def played(self) -> bool:
        return self.kind is MatchKind.PLAYED


@dataclass(slots=True)
class Team:
    """A team: its tournament pairing number (TPN), name, members in board order, history."""

    tpn: int
    name: str
    members: tuple[int, ...] = ()
    history: list[MatchRecord] = field(default_factory=list)

    def score(self, which: ScoreName) -> Fraction:
        """Match points or game points over all rounds in the history."""
        if which == "mp":
            return sum((m.match_points for m in self.history), Fraction(0))
        return sum((m.game_points for m in self.history), Fraction(0))

    def played_colours(self) -> list[Colour]:
        """Board 1's colour in each match actually played, oldest first."""
        return [m.colour for m in self.history if m.played and m.colour is not None]

    def had_bye_or_forfeit_win(self) -> bool:
        """C.04.6 criterion C2: such a team cannot get the pairing-allocated bye."""
        return any(m.kind in (MatchKind.PAB, MatchKind.FORFEIT_WIN, MatchKind.FULL_BYE)
                   for m in self.history)

    def opponents(self) -> set[int]:
        """Every team played over the board (C1 forbids meeting them again); a forfeited
        match was not played, so those two teams may still meet."""
        return {m.opponent for m in self.history if m.played and m.opponent is not None}


@dataclass(frozen=True, slots=True)
class TeamRules:
    """The competition's choices that C.04.6 leaves open."""

    colour_model: ColourModel = "type-a"
    primary: ScoreName = "mp"
    use_secondary: bool = True  # the secondary score picks the first-team for colours
    initial_colour: Colour = "w"  # drawn by lot before round 1: board 1's colour of TPN 1

    @property
    def secondary(self) -> ScoreName:
        return "gp" if self.primary == "mp" else "mp"


@dataclass(frozen=True, slots=True)
class TeamPair:
    """A match: ``white`` has White on board 1 (and on the odd boards)."""

    white: int
    black: int

    def board_colours(self, boards: int) -> list[tuple[int, int]]:
        """Per board, (team with White, team with Black): the colours alternate by board."""
        return [(self.white, self.black) if board % 2 == 0 else (self.black, self.white)
                for board in range(boards)]


@dataclass(frozen=True, slots=True)
class TeamPairing:
    """A paired round: the matches in board order and the team with the bye, if any."""

    round: int
    pairs: tuple[TeamPair, ...]
    bye: int | None = None
