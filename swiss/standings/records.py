"""Per-round records: what each round meant for each player, as the tiebreaks need it.

:func:`build_records` walks the rounds once and classifies every (player, round) cell into one
:class:`RoundKind`. The classification is the one FIDE C.07 (tie-break regulations, edition in
force from 1 August 2024) uses in its article 16 on unplayed rounds; the older C.02 rule (13.15,
the virtual opponent) works from the same cells.

Pending games (a pairing without a result yet) are recorded as ``PENDING``: they score nothing
and count for no tiebreak, as if the round had not happened for those two players.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from fractions import Fraction

from swiss.model import ByeKind, Color, Outcome, Points, Tournament
from swiss.state import player_states


class RoundKind(enum.Enum):
    """What one round was for one player."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    FORFEIT_WIN = "forfeit_win"
    FORFEIT_LOSS = "forfeit_loss"  # includes a double forfeit
    PAIRING_BYE = "pairing_bye"  # PAB
    FULL_BYE = "full_bye"  # requested / assigned full-point bye
    HALF_BYE = "half_bye"
    ZERO_BYE = "zero_bye"
    ABSENT = "absent"  # not paired at all: withdrawn, late entry, unannounced absence
    PENDING = "pending"

    @property
    def is_played(self) -> bool:
        """A game actually played over the board."""
        return self in (RoundKind.WIN, RoundKind.DRAW, RoundKind.LOSS)

    @property
    def is_voluntary_unplayed(self) -> bool:
        """A VUR of C.07 (2024-08) art. 16: requested byes, absences and forfeit losses.

        A pairing-allocated bye, a full-point bye and a forfeit win are unplayed too, but the
        player did not choose to miss the game, so they are not VURs.
        """
        return self in (
            RoundKind.FORFEIT_LOSS,
            RoundKind.HALF_BYE,
            RoundKind.ZERO_BYE,
            RoundKind.ABSENT,
        )


_OUTCOME_KIND = {
    Outcome.WIN: RoundKind.WIN,
    Outcome.DRAW: RoundKind.DRAW,
    Outcome.LOSS: RoundKind.LOSS,
    Outcome.FORFEIT_WIN: RoundKind.FORFEIT_WIN,
    Outcome.FORFEIT_LOSS: RoundKind.FORFEIT_LOSS,
}
_BYE_KIND = {
    ByeKind.PAIRING: RoundKind.PAIRING_BYE,
    ByeKind.FULL: RoundKind.FULL_BYE,
    ByeKind.HALF: RoundKind.HALF_BYE,
    ByeKind.ZERO: RoundKind.ZERO_BYE,
}


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One player's round ``number``: kind, opponent (games only), colour, points scored.

    ``games_won`` / ``games_lost`` are the game wins inside a match (card games), when known.
    """

    number: int
    kind: RoundKind
    points: Points
    opponent: int | None = None
    color: Color = Color.NONE
    games_won: int | None = None
    games_lost: int | None = None

    @property
    def has_opponent(self) -> bool:
        """Paired against a real opponent (played, forfeited or pending)."""
        return self.opponent is not None


@dataclass(slots=True)
class PlayerRecord:
    """A player's identity, final points and one :class:`RoundRecord` per round considered."""

    id: int
    name: str
    rating: int
    seed: int
    points: Points = Fraction(0)
    rounds: list[RoundRecord] = field(default_factory=list)

    def points_after(self, round_number: int) -> Points:
        """Points after ``round_number`` rounds."""
        return sum((r.points for r in self.rounds[:round_number]), Fraction(0))


def build_records(tournament: Tournament, rounds: int | None = None) -> dict[int, PlayerRecord]:
    """One :class:`PlayerRecord` per player, over the first ``rounds`` rounds (default: all).

    Final points come from :func:`swiss.state.player_states` so standings and pairing always
    agree on scores; the per-round points here add up to the same totals.
    """
    upto = tournament.rounds_played if rounds is None else min(rounds, tournament.rounds_played)
    if upto < 0:
        raise ValueError(f"rounds must be >= 0, got {rounds}")
    scoring = tournament.scoring
    states = player_states(tournament, upto)
    records = {
        p.id: PlayerRecord(id=p.id, name=p.name, rating=p.rating, seed=p.seed)
        for p in tournament.players
    }
    for rnd in tournament.rounds[:upto]:
        cells: dict[int, RoundRecord] = {}
        for game in rnd.games:
            for pid in game.players:
                outcome = game.outcome_for(pid)
                own = game.white_games if pid == game.white else game.black_games
                other = game.black_games if pid == game.white else game.white_games
                if outcome is None:
                    kind, points = RoundKind.PENDING, Fraction(0)
                else:
                    kind, points = _OUTCOME_KIND[outcome], scoring.for_outcome(outcome)
                colored = kind.is_played and tournament.use_colors
                color = game.color_of(pid) if colored else Color.NONE
                cells[pid] = RoundRecord(
                    number=rnd.number,
                    kind=kind,
                    points=points,
                    opponent=game.opponent_of(pid),
                    color=color,
                    games_won=own,
                    games_lost=other,
                )
        for bye in rnd.byes:
            cells[bye.player] = RoundRecord(
                number=rnd.number, kind=_BYE_KIND[bye.kind], points=scoring.for_bye(bye.kind)
            )
        for pid, record in records.items():
            cell = cells.get(pid) or RoundRecord(
                number=rnd.number, kind=RoundKind.ABSENT, points=scoring.absent
            )
            record.rounds.append(cell)
    for pid, record in records.items():
        record.points = states[pid].score
    return records
