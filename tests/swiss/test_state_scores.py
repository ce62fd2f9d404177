"""``player_states`` adds and compares scores as integers (speed): it must say exactly what
the plain Fraction walk of the rounds says, for any point system (hypothesis)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swiss.model import ByeKind, Color, Outcome, Scoring, Tournament
from swiss.state import Float, PlayerState, player_states
from tests.swiss.test_standings_properties import tournaments


def _reference(tournament: Tournament) -> dict[int, PlayerState]:
    """The walk as it was written first, with Fraction arithmetic (no double rounds)."""
    scoring = tournament.scoring
    states = {p.id: PlayerState(id=p.id) for p in tournament.players}
    for rnd in tournament.rounds:
        before = {pid: st.score for pid, st in states.items()}
        seen: set[int] = set()
        for game in rnd.games:
            for pid in game.players:
                st = states[pid]
                seen.add(pid)
                opp = game.opponent_of(pid)
                st.scores_before.append(before[pid])
                outcome = game.outcome_for(pid)
                played = game.result.is_played or game.result.is_pending
                st.outcomes.append(outcome)
                st.byes.append(None)
                st.colors.append(game.color_of(pid) if played and tournament.use_colors
                                 else Color.NONE)
                if played:
                    st.opponents[opp] += 1
                    if game.result.is_played:
                        st.games_played += 1
                    st.floats.append(Float.DOWN if before[pid] > before[opp] else
                                     Float.UP if before[pid] < before[opp] else Float.NONE)
                else:
                    st.forfeit_opponents[opp] += 1
                    st.floats.append(Float.NONE)
                if outcome is not None:
                    st.score += scoring.for_outcome(outcome)
                    if outcome is Outcome.FORFEIT_WIN:
                        st.unplayed_wins += 1
        for bye in rnd.byes:
            st = states[bye.player]
            seen.add(bye.player)
            st.scores_before.append(before[bye.player])
            st.outcomes.append(None)
            st.byes.append(bye.kind)
            st.colors.append(Color.NONE)
            st.score += scoring.for_bye(bye.kind)
            st.pairing_byes += bye.kind is ByeKind.PAIRING
            st.floats.append(Float.DOWN if bye.kind is ByeKind.PAIRING else Float.NONE)
            st.unplayed_wins += bye.kind in (ByeKind.PAIRING, ByeKind.FULL)
        for pid, st in states.items():
            if pid not in seen:
                st.scores_before.append(before[pid])
                st.outcomes.append(None)
                st.byes.append(None)
                st.colors.append(Color.NONE)
                st.floats.append(Float.NONE)
                st.score += scoring.absent
    return states


_POINTS = st.fractions(min_value=-3, max_value=5, max_denominator=12)


@st.composite
def _scorings(draw: st.DrawFn) -> Scoring:
    return Scoring(**{name: draw(_POINTS) for name in (
        "win", "draw", "loss", "forfeit_win", "forfeit_loss", "pairing_bye", "half_bye",
        "full_bye", "zero_bye", "absent")})


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(tournament=tournaments(), scoring=st.none() | _scorings(), colours=st.booleans())
def test_integer_scores_agree_with_the_fraction_walk(
    tournament: Tournament, scoring: Scoring | None, colours: bool
) -> None:
    if scoring is not None:
        tournament = replace(tournament, scoring=scoring)
    tournament = replace(tournament, use_colors=colours)
    got, want = player_states(tournament), _reference(tournament)
    assert got == want
    for st_ in got.values():
        assert isinstance(st_.score, Fraction)
        assert all(isinstance(s, Fraction) for s in st_.scores_before)
