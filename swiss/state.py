"""Per-player quantities derived from the rounds: score, colours, opponents, byes, floats.

Nothing here is stored: :func:`player_states` walks the rounds of a :class:`Tournament` once and
returns a :class:`PlayerState` per player. Conventions (as FIDE C.04 and the TRF engines use):

* Only *played* games count as meetings, for colours and for the colour difference; forfeited
  games score but leave no colour and do not stop a rematch.
* An "unplayed win" is a round a player scored a win's points without playing: a
  pairing-allocated bye, a requested full-point bye or a forfeit win. FIDE C.04 (criterion C2)
  makes such players ineligible for a further pairing-allocated bye; our engine uses the count
  as the multiplicity of a repeated bye.
* A float is a game against an opponent with a different score before that round (down for the
  higher score, up for the lower); a pairing-allocated bye is a down float.
"""

from __future__ import annotations

import enum
import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from swiss.model import (
    ByeKind,
    Color,
    Outcome,
    Points,
    Result,
    Tournament,
    has_double_rounds,
    split_double_rounds,
)


class Float(enum.Enum):
    NONE = "none"
    UP = "up"
    DOWN = "down"


@dataclass(slots=True)
class PlayerState:
    """What the rounds say about one player (after ``rounds_considered`` rounds)."""

    id: int
    score: Points = Fraction(0)
    colors: list[Color] = field(default_factory=list)  # one entry per round (NONE if unplayed)
    opponents: Counter[int] = field(default_factory=Counter)  # played games only
    forfeit_opponents: Counter[int] = field(default_factory=Counter)
    outcomes: list[Outcome | None] = field(default_factory=list)  # None: no game that round
    byes: list[ByeKind | None] = field(default_factory=list)
    floats: list[Float] = field(default_factory=list)
    scores_before: list[Points] = field(default_factory=list)  # score before each round
    pairing_byes: int = 0
    unplayed_wins: int = 0  # PAB, full-point byes, forfeit wins
    games_played: int = 0

    @property
    def color_diff(self) -> int:
        """Games with white minus games with black (played games only)."""
        return sum(1 for c in self.colors if c is Color.WHITE) - sum(
            1 for c in self.colors if c is Color.BLACK
        )

    @property
    def played_colors(self) -> list[Color]:
        return [c for c in self.colors if c is not Color.NONE]

    @property
    def last_color(self) -> Color | None:
        played = self.played_colors
        return played[-1] if played else None

    def due_color(self) -> Color | None:
        """The colour this player should get next: balance first, then alternation."""
        cd = self.color_diff
        if cd < 0:
            return Color.WHITE
        if cd > 0:
            return Color.BLACK
        last = self.last_color
        return last.opposite if last is not None else None

    def times_met(self, other: int) -> int:
        return self.opponents.get(other, 0)


def player_states(tournament: Tournament, rounds: int | None = None) -> dict[int, PlayerState]:
    """Derive every player's state from the first ``rounds`` rounds (default: all of them).

    A double round (each pair playing twice, TCEC) counts as two rounds here, so the per-round
    lists then have two entries for it.

    Pending games count for meetings and colours (the pairing is fixed) but score nothing.
    """
    upto = tournament.rounds_played if rounds is None else min(rounds, tournament.rounds_played)
    if has_double_rounds(tournament):  # TCEC double rounds: one game per model round
        tournament, ends = split_double_rounds(tournament)
        upto = ends[upto]
    scoring = tournament.scoring
    states = {p.id: PlayerState(id=p.id) for p in tournament.players}
    # Scores are added and compared as integers in units of 1/unit (Fraction arithmetic
    # costs microseconds per step, and this runs for every game of every round): the same
    # values, turned back into Fractions (one per distinct score) at the end.
    values = {o: Fraction(scoring.for_outcome(o)) for o in Outcome}
    bye_values = {k: Fraction(scoring.for_bye(k)) for k in ByeKind}
    absent_value = Fraction(scoring.absent)
    unit = math.lcm(*(v.denominator for v in
                      (*values.values(), *bye_values.values(), absent_value)))
    points: dict[Outcome | ByeKind | None, int] = {
        k: int(v * unit) for k, v in (*values.items(), *bye_values.items())}
    absent = int(absent_value * unit)
    fractions: dict[int, Fraction] = {}

    def fraction(units: int) -> Fraction:
        got = fractions.get(units)
        if got is None:
            got = fractions[units] = Fraction(units, unit)
        return got

    # Per result: counts as a meeting (played or pending), played over the board, and for
    # each side its outcome, its points and whether it is a forfeit win (properties looked up
    # once, not for every game). Keyed by the member's name: a str hash is cached, an
    # enum member's hash (and its ``name`` property) is a Python call.
    use_colors = tournament.use_colors
    none = Color.NONE
    kinds: dict[str, tuple[bool, bool, tuple[Outcome | None, Color, int, bool],
                           tuple[Outcome | None, Color, int, bool]]] = {}
    for r in Result:
        played, over_board = r.is_played or r.is_pending, r.is_played
        sides: list[tuple[Outcome | None, Color, int, bool]] = []
        for outcome, color in ((r.outcome_for_white(), Color.WHITE),
                               (r.outcome_for_black(), Color.BLACK)):
            sides.append((outcome, color if played and use_colors else none,
                          0 if outcome is None else points[outcome],
                          outcome is Outcome.FORFEIT_WIN))
        kinds[r._name_] = (played, over_board, sides[0], sides[1])
    total = dict.fromkeys(states, 0)
    befores: dict[int, list[int]] = {pid: [] for pid in states}
    for rnd in tournament.rounds[:upto]:
        before = dict(total)
        seen: set[int] = set()
        for game in rnd.games:
            played, over_board, white_side, black_side = kinds[game.result._name_]
            for pid, opp, (outcome, color, score, forfeit_win) in (
                    (game.white, game.black, white_side), (game.black, game.white, black_side)):
                st = states.get(pid)
                if st is None:
                    raise ValueError(f"round {rnd.number}: unknown player {pid}")
                if pid in seen:
                    raise ValueError(f"round {rnd.number}: player {pid} appears twice")
                seen.add(pid)
                mine = before[pid]
                befores[pid].append(mine)
                st.outcomes.append(outcome)
                st.byes.append(None)
                st.colors.append(color)
                if played:
                    opponents = st.opponents
                    opponents[opp] = opponents.get(opp, 0) + 1
                    if over_board:
                        st.games_played += 1
                    theirs = before[opp]
                    st.floats.append(Float.DOWN if mine > theirs else
                                     Float.UP if mine < theirs else Float.NONE)
                else:
                    st.forfeit_opponents[opp] += 1
                    st.floats.append(Float.NONE)
                total[pid] += score
                if forfeit_win:
                    st.unplayed_wins += 1
        for bye in rnd.byes:
            st = states.get(bye.player)
            if st is None:
                raise ValueError(f"round {rnd.number}: unknown player {bye.player}")
            if bye.player in seen:
                raise ValueError(f"round {rnd.number}: player {bye.player} appears twice")
            seen.add(bye.player)
            befores[bye.player].append(before[bye.player])
            st.outcomes.append(None)
            st.byes.append(bye.kind)
            st.colors.append(Color.NONE)
            total[bye.player] += points[bye.kind]
            if bye.kind is ByeKind.PAIRING:
                st.pairing_byes += 1
                st.floats.append(Float.DOWN)
            else:
                st.floats.append(Float.NONE)
            if bye.kind in (ByeKind.PAIRING, ByeKind.FULL):
                st.unplayed_wins += 1
        for pid, st in states.items():
            if pid not in seen:  # absent: withdrawn, late entry or simply not paired
                befores[pid].append(before[pid])
                st.outcomes.append(None)
                st.byes.append(None)
                st.colors.append(Color.NONE)
                st.floats.append(Float.NONE)
                total[pid] += absent
    for pid, st in states.items():
        st.score = fraction(total[pid])
        st.scores_before = [fraction(u) for u in befores[pid]]
    return states


def scores(tournament: Tournament, rounds: int | None = None) -> dict[int, Points]:
    """Each player's points after ``rounds`` rounds (default: all)."""
    return {pid: st.score for pid, st in player_states(tournament, rounds).items()}
