"""What the FIDE Dutch rules need to know about each player before a round is paired.

Derived from :func:`swiss.state.player_states` with the conventions of FIDE C.04.1/C.04.2:
only played games count as meetings and for colours; forfeits score but are "unplayed".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from swiss.acceleration import pairing_acceleration
from swiss.model import ByeKind, Color, Outcome, Tournament, has_double_rounds
from swiss.state import Float, PlayerState, player_states

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
    # The pairing number among the players who take part (E.5 alternates on it, see
    # engine._hi_color): paired now, or a game or the PAB in an earlier round.
    colour_rank: int = 0
    real_score: Fraction | None = None  # the score without acceleration (None: same as score)

    def standing_score(self) -> Fraction:
        """The score without acceleration (the board order uses it)."""
        return self.score if self.real_score is None else self.real_score

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
    tournament: Tournament, round_number: int, to_pair: list[int], rules: Rules,
    states: Mapping[int, PlayerState] | None = None,
) -> dict[int, DutchPlayer]:
    """The :class:`DutchPlayer` of every player in ``to_pair`` before ``round_number``.

    ``states``: ``player_states(tournament)`` when the caller has them (only read; checked
    to be of this tournament's players and rounds), else they are walked here."""
    if states is None:
        states = player_states(tournament)
    else:
        _check_states(tournament, states)
    scoring = tournament.scoring
    last_round = bool(tournament.total_rounds) and round_number == tournament.total_rounds
    # Topscorers (A.7): more than 50% of the maximum possible score, in the last round only,
    # on the pairing score (extra points included, as the endorsed engine decides them).
    max_score = scoring.win * (round_number - 1)
    # Accelerated pairings (TRF XXA): extra points for pairing this round only.
    acceleration = accelerated_points(tournament, rules)
    extra = acceleration.get(round_number, {})
    game_floats = _accelerated_game_floats(tournament, states, acceleration)
    # The fields of each player; rank and colour_rank need everyone's score first.
    result: dict[int, dict[str, Any]] = {}
    seeds = {p.id: p.seed for p in tournament.players}  # (Tournament.player is a scan)
    for pid in to_pair:
        st = states[pid]
        colors = tuple(c for c in st.colors if c is not Color.NONE)
        cd = sum(1 for c in colors if c is Color.WHITE) - sum(
            1 for c in colors if c is Color.BLACK)
        pref, strength = _preference(colors, cd)
        # The floats of the last two rounds (C12-C15 look no further back).
        floats = _floats(st, scoring.loss, rules, game_floats.get(pid),
                         start=max(0, len(st.floats) - 2))
        forfeit_wins = sum(1 for o in st.outcomes if o is Outcome.FORFEIT_WIN)
        full_byes = sum(1 for b in st.byes if b in (ByeKind.PAIRING, ByeKind.FULL))
        can_pab = st.pairing_byes == 0 and forfeit_wins == 0 and full_byes == 0
        result[pid] = dict(
            id=pid,
            seed=seeds[pid],
            score=st.score + extra[pid] if pid in extra else st.score,
            real_score=st.score,
            played=frozenset(st.opponents),
            colors=colors,
            cd=cd,
            pref=pref,
            strength=strength,
            can_pab=can_pab,
            float_prev=floats[-1] if floats else Float.NONE,
            float_prev2=floats[-2] if len(floats) >= 2 else Float.NONE,
            topscorer=last_round and (st.score + extra.get(pid, 0)) * 2 > max_score,
            history=tuple(st.colors),
            unplayed=len(st.colors) - len(colors),
        )
    # The order of A.2 (DutchPlayer.rank_key), with each score replaced by its place among
    # the distinct scores (comparing Fractions costs microseconds).
    place = {s: i for i, s in enumerate(sorted({f["score"] for f in result.values()},
                                               reverse=True))}
    ordered = sorted(result.values(), key=lambda f: (place[f["score"]], f["seed"]))
    taking_part = sorted(
        (p for p in tournament.players
         if p.id in result or states[p.id].pairing_byes or any(
             o is not None for o in states[p.id].outcomes)),
        key=lambda p: (p.seed, p.id))
    colour_rank = {p.id: i for i, p in enumerate(taking_part, start=1)}
    return {f["id"]: DutchPlayer(**f, rank=i, colour_rank=colour_rank[f["id"]])
            for i, f in enumerate(ordered, start=1)}


def _check_states(tournament: Tournament, states: Mapping[int, PlayerState]) -> None:
    """Refuse states that cannot be ``tournament``'s: other players or another number of
    rounds (a double round counts twice, as :func:`swiss.state.player_states` counts it)."""
    if len(states) != len(tournament.players) or any(
            p.id not in states for p in tournament.players):
        raise ValueError("the player states given are not of this tournament's players")
    played = tournament.rounds_played
    walked = len(next(iter(states.values())).outcomes) if states else played
    if walked != played and (walked < played or not has_double_rounds(tournament)):
        raise ValueError(f"the player states given are of {walked} rounds, not of this "
                         f"tournament's {played}")


def accelerated_points(tournament: Tournament, rules: Rules
                       ) -> Mapping[int, Mapping[int, Fraction]]:
    """Round -> player -> extra pairing points of edition ``rules``.

    XXA/250 acceleration in both editions; the Baku method of a ``192 ..._BAKU`` code
    (``Tournament.baku``) in 2025 only: bbpPairings 6.0.0 applies it, 5.0.1 (the 2017
    engine) ignores 192 lines altogether (black-box checked, docs/fide-dutch.md).
    """
    if rules == "2025":
        return pairing_acceleration(tournament)
    return tournament.acceleration


def _accelerated_game_floats(tournament: Tournament, states: Mapping[int, PlayerState],
                             acceleration: Mapping[int, Mapping[int, Fraction]]
                             ) -> dict[int, list[Float]]:
    """The floats of played games when earlier rounds were accelerated, per player and round.

    A game floats its players when their *pairing* scores differed, and the pairing score of
    an accelerated round includes that round's extra points (XXA): the endorsed engine counts
    a round-1 game between a player with 3 extra points and one without as a downfloat and an
    upfloat, although both had 0 points (black-box checked: tests/fixtures/dutch-xxa/
    float-history.trf). Empty when no played round was accelerated.
    """
    played = tournament.rounds_played
    if not any(1 <= r <= played and extra for r, extra in acceleration.items()):
        return {}
    out = {pid: list(st.floats) for pid, st in states.items()}
    for rnd in tournament.rounds:
        extra = acceleration.get(rnd.number, {})
        if not extra:
            continue
        index = rnd.number - 1
        for game in rnd.games:
            if not game.result.is_played:
                continue
            a, b = game.white, game.black
            sa = states[a].scores_before[index] + extra.get(a, 0)
            sb = states[b].scores_before[index] + extra.get(b, 0)
            fa = Float.NONE if sa == sb else (Float.DOWN if sa > sb else Float.UP)
            fb = Float.NONE if sa == sb else (Float.UP if sa > sb else Float.DOWN)
            out[a][index], out[b][index] = fa, fb
    return out


def _floats(st: PlayerState, loss: Fraction, rules: Rules,
            game_floats: list[Float] | None = None, start: int = 0) -> list[Float]:
    """Per round from round ``start + 1`` on: the float the player received (C.04.3 A.4 /
    2025 art. 1.4).

    A played game against a different score floats both players. 2025 (art. 1.4.3): any round
    scored without playing for more than a loss (PAB, forfeit win, half- or full-point bye) is
    a downfloat. 2017 (A.4.b): "A player who, for whatever reason, does not play in a round,
    also receives a downfloat": forfeit losses, zero-point byes and absences as well.
    """
    out: list[Float] = []
    states_floats = st.floats if game_floats is None else game_floats
    for index in range(start, len(states_floats)):
        fl = states_floats[index]
        outcome = st.outcomes[index]
        bye = st.byes[index]
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
