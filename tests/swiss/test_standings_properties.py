"""Properties of the standings on random tournaments (hypothesis).

* the ranking is a total order: rows sorted, ranks shared exactly when points and every
  tiebreak tie, and every player appears once;
* tiebreaks never reorder players with different points;
* values and ranks do not depend on the order of the input (players, games, byes);
* the explanations report the same values as the standings.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swiss.model import Bye, ByeKind, Game, Player, Result, Round, Scoring, Tournament
from swiss.standings import (
    CATALOGUE,
    StandingRow,
    Standings,
    compute_standings,
    explain_player,
    parse_tiebreak,
)

EVERY_TIEBREAK = [
    "BH-C1", "BH", "BH-M1", "FB", "SB", "SB-C1", "PS", "PS-C1", "KS", "DE", "WIN", "WON",
    "BPG", "BWG", "ARO", "AROC", "TPR", "BYES", "MW%", "OMW%", "GW%", "OGW%", "OWP", "OOWP",
]
RESULTS = list(Result)  # pending games included: they must count for nothing


@st.composite
def tournaments(draw: st.DrawFn) -> Tournament:
    n = draw(st.integers(2, 9))
    ratings = draw(st.lists(st.sampled_from([0, 1400, 1800, 2000, 2200, 2500]), min_size=n,
                            max_size=n))
    players = tuple(Player(i + 1, f"P{i + 1}", ratings[i]) for i in range(n))
    rounds: list[Round] = []
    for number in range(1, draw(st.integers(0, 5)) + 1):
        order = draw(st.permutations(range(1, n + 1)))
        away = draw(st.integers(0, min(2, n - 2)))
        absent, present = order[:away], order[away:]
        byes = [Bye(p, draw(st.sampled_from([ByeKind.HALF, ByeKind.ZERO])))
                for p in absent if draw(st.booleans())]
        games = []
        for a, b in zip(present[0::2], present[1::2], strict=False):
            games.append(Game(a, b, draw(st.sampled_from(RESULTS))))
        if len(present) % 2:
            byes.append(Bye(present[-1], draw(st.sampled_from(list(ByeKind)))))
        rounds.append(Round(number, tuple(games), tuple(byes)))
    scoring = draw(st.sampled_from([Scoring.chess(), Scoring.match_points()]))
    return Tournament(players, tuple(rounds), scoring=scoring)


def shuffled(tournament: Tournament, seed: int) -> Tournament:
    """The same event with players, games and byes listed in another order."""
    rng = random.Random(seed)
    players = list(tournament.players)
    rng.shuffle(players)
    rounds = []
    for rnd in tournament.rounds:
        games, byes = list(rnd.games), list(rnd.byes)
        rng.shuffle(games)
        rng.shuffle(byes)
        rounds.append(replace(rnd, games=tuple(games), byes=tuple(byes)))
    return replace(tournament, players=tuple(players), rounds=tuple(rounds))


def sort_key(standings: Standings, row: StandingRow) -> tuple[Fraction | float, ...]:
    """Points then each tiebreak, every entry oriented so that smaller ranks higher."""
    key: list[Fraction | float] = [-row.points]
    for acronym, value in zip(standings.tiebreaks, row.values, strict=True):
        better_high = CATALOGUE[parse_tiebreak(acronym).base].higher_is_better
        key.append(-value if better_high else value)
    return tuple(key)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(tournaments(), st.sampled_from(["c07", "c02"]))
def test_ranking_is_a_total_order_and_respects_points(tournament: Tournament, rule: str) -> None:
    standings = compute_standings(tournament, EVERY_TIEBREAK, unplayed=rule)  # type: ignore[arg-type]
    rows = standings.rows
    assert sorted(r.player_id for r in rows) == sorted(tournament.player_ids)
    keys = [sort_key(standings, r) for r in rows]
    assert keys == sorted(keys)
    for i in range(1, len(rows)):
        assert rows[i - 1].points >= rows[i].points
        if keys[i] == keys[i - 1]:
            assert rows[i].rank == rows[i - 1].rank
        else:
            assert rows[i].rank == i + 1
    assert not rows or rows[0].rank == 1


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(tournaments(), st.integers(0, 1000), st.sampled_from(["c07", "c02"]))
def test_values_do_not_depend_on_input_order(tournament: Tournament, seed: int, rule: str) -> None:
    for final_key in ("order", "lot"):
        a = compute_standings(tournament, EVERY_TIEBREAK, unplayed=rule,  # type: ignore[arg-type]
                              final_key=final_key, lot_seed=seed)  # type: ignore[arg-type]
        b = compute_standings(shuffled(tournament, seed), EVERY_TIEBREAK,
                              unplayed=rule, final_key=final_key, lot_seed=seed)  # type: ignore[arg-type]
        assert a.rows == b.rows


@settings(max_examples=30, deadline=None)
@given(tournaments())
def test_cuts_only_lower_buchholz_and_explanations_agree(tournament: Tournament) -> None:
    standings = compute_standings(tournament, ["BH", "BH-C1", "BH-M1", "fb", "SB"])
    for row in standings.rows:
        bh, bh_c1, bh_m1 = row.values[:3]
        assert bh_m1 <= bh_c1 <= bh
    if standings.rows:
        pid = standings.rows[-1].player_id
        explained = explain_player(tournament, pid, ["BH", "BH-C1", "BH-M1", "fb", "SB"])
        assert tuple(e.value for e in explained) == standings.row(pid).values
        assert all(e.text for e in explained)
