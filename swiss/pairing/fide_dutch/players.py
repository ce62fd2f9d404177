"""What the FIDE Dutch rules need to know about each player before a round is paired.

Derived from :func:`swiss.state.player_states` with the conventions of FIDE C.04.1/C.04.2:
only played games count as meetings and for colours; forfeits score but are "unplayed".
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from swiss.model import ByeKind, Color, Outcome, Tournament
from swiss.state import Float, player_states

Rules = str  # "2025" or "2017"


@dataclass(frozen=True, slots=True)
class DutchPlayer:
    """One player to pair: score, pairing number, colour data, float history, bye eligibility."""

    id: int
    seed: int  # pairing number (initial ranking)
    score: Fraction
    played: frozenset[int]  # opponents met over the board
    colors: tuple[Color, ...]  # colours of played games, oldest first
    cd: int  # colour difference (white minus black, played games)
    pref: Color  # colour preference (Color.NONE: none)
    strength: int  # 3 absolute, 2 strong, 1 mild, 0 none
    can_pab: bool  # C2: may still receive the pairing-allocated bye
    float_prev: Float  # float received in the previous round
    float_prev2: Float  # float received two rounds before
    topscorer: bool
    history: tuple[Color, ...]  # colour per round (NONE when unplayed)
    unplayed: int = 0  # rounds without a played game (byes, forfeits, absences)
    rank: int = 0  # position (from 1) among the players paired, in the order of A.2
    # The same position by the score without acceleration (XXA): what E.5 alternates on.
    colour_rank: int = 0
    real_score: Fraction | None = None  # the score without acceleration (None: same as score)

    def standing_score(self) -> Fraction:
        """The score without acceleration (board order and E.5 use it)."""
        return self.score if self.real_score is None else self.real_score
    first_round: bool = False

    def rank_key(self) -> tuple[Fraction, int]:
        """Order of C.04.3 A.2: score descending, then pairing number."""
        return (-self.score, self.seed)


def _preference(colors: tuple[Color, ...], cd: int) -> tuple[Color, int]:
    if not colors:
        return Color.NONE, 0
    last = colors[-1]
    if cd > 1 or cd < -1:
        return (Color.BLACK if cd > 1 else Color.WHITE), 3
    if len(colors) >= 2 and colors[-1] == colors[-2]:
        return last.opposite, 3
    if cd == 1:
        return Color.BLACK, 2
    if cd == -1:
        return Color.WHITE, 2
    return last.opposite, 1


def dutch_players(
    tournament: Tournament, round_number: int, to_pair: list[int], rules: Rules
) -> dict[int, DutchPlayer]:
    """The :class:`DutchPlayer` of every player in ``to_pair`` before ``round_number``."""
    states = player_states(tournament)
    scoring = tournament.scoring
    last_round = bool(tournament.total_rounds) and round_number == tournament.total_rounds
    # Topscorers (A.7): more than 50% of the maximum possible score, in the last round only.
    max_score = scoring.win * (round_number - 1)
    # Accelerated pairings (TRF XXA): extra points for pairing this round only.
    extra = tournament.acceleration.get(round_number, {})
    result: dict[int, DutchPlayer] = {}
    for pid in to_pair:
        st = states[pid]
        colors = tuple(c for c in st.colors if c is not Color.NONE)
        cd = sum(1 for c in colors if c is Color.WHITE) - sum(
            1 for c in colors if c is Color.BLACK)
        pref, strength = _preference(colors, cd)
        floats = _floats(st, scoring.loss, rules)
        forfeit_wins = sum(1 for o in st.outcomes if o is Outcome.FORFEIT_WIN)
        full_byes = sum(1 for b in st.byes if b in (ByeKind.PAIRING, ByeKind.FULL))
        can_pab = st.pairing_byes == 0 and forfeit_wins == 0 and full_byes == 0
        result[pid] = DutchPlayer(
            id=pid,
            seed=tournament.player(pid).seed,
            score=st.score + extra.get(pid, 0),
            real_score=st.score,
            played=frozenset(st.opponents),
            colors=colors,
            cd=cd,
            pref=pref,
            strength=strength,
            can_pab=can_pab,
            float_prev=floats[-1] if floats else Float.NONE,
            float_prev2=floats[-2] if len(floats) >= 2 else Float.NONE,
            topscorer=last_round and st.score * 2 > max_score,
            history=tuple(st.colors),
            unplayed=len(st.colors) - len(colors),
        )
    ordered = sorted(result.values(), key=DutchPlayer.rank_key)
    real = sorted(result, key=lambda pid: (-states[pid].score, result[pid].seed))
    colour_rank = {pid: i for i, pid in enumerate(real, start=1)}
    first = round_number == 1
    return {p.id: replace(p, rank=i, colour_rank=colour_rank[p.id], first_round=first)
            for i, p in enumerate(ordered, start=1)}


def _floats(st: object, loss: Fraction, rules: Rules) -> list[Float]:
    """Per round: the float the player received (C.04.3 A.4 / 2025 art. 1.4).

    A played game against a different score floats both players. 2025 (art. 1.4.3): any round
    scored without playing for more than a loss (PAB, forfeit win, half- or full-point bye) is
    a downfloat. 2017 (A.4.b): "A player who, for whatever reason, does not play in a round,
    also receives a downfloat": forfeit losses, zero-point byes and absences as well.
    """
    out: list[Float] = []
    states_floats = st.floats  # type: ignore[attr-defined]
    for index, fl in enumerate(states_floats):
        outcome = st.outcomes[index]  # type: ignore[attr-defined]
        bye = st.byes[index]  # type: ignore[attr-defined]
        if rules == "2017" and (outcome is None or not outcome.is_played):
            # 2017 A.4.b: "A player who, for whatever reason, does not play in a round,
            # also receives a downfloat" (byes, forfeits either way, absences).
            out.append(Float.DOWN)
            continue
        if rules in ("2025", "2017"):  # see the docstring
            if outcome is Outcome.FORFEIT_WIN or bye in (ByeKind.PAIRING, ByeKind.FULL,
                                                        ByeKind.HALF):
                out.append(Float.DOWN)
                continue
            if outcome is Outcome.FORFEIT_LOSS:
                out.append(Float.NONE)
                continue
        out.append(fl)
    return out
