"""The ``posterior`` system: the strength estimate, its order, and the tiers it shares."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize

from swiss.model import Game, Player, Result, Round, Tournament
from swiss.pairing import PairingConfig, pair_round
from swiss.pairing.mwm_graph import ranked_entrants
from swiss.pairing.posterior import (
    RATED_SD,
    UNRATED_SD,
    strength_estimates,
    tournament_estimates,
)
from swiss.state import player_states

K = math.log(10) / 400


def _neg_log_posterior(x, mean, sd, games):  # type: ignore[no-untyped-def]
    value = float(np.sum((x - mean) ** 2 / (2 * sd**2)))
    for a, b, s in games:
        p = 1 / (1 + math.exp(-K * (x[a] - x[b])))
        value -= s * math.log(p) + (1 - s) * math.log(1 - p)
    return value


def test_estimate_is_the_maximum_of_the_posterior():
    rng = random.Random(3)
    n = 12
    ratings = [rng.randint(1400, 2200) for _ in range(n)]
    ratings[4] = 0  # unrated: centred on the rated players' mean, with Glicko's 350
    games = []
    for _ in range(30):
        a, b = rng.sample(range(n), 2)
        games.append((a, b, rng.choice((0.0, 0.5, 1.0))))
    points = np.zeros(n)
    for a, b, s in games:
        points[a] += s
        points[b] += 1 - s
    got = strength_estimates(
        ratings, np.array([g[0] for g in games]), np.array([g[1] for g in games]),
        np.ones(len(games)), points,
    )
    rated = np.array(ratings) > 0
    mean = np.where(rated, ratings, np.mean(np.array(ratings)[rated]))
    sd = np.where(rated, RATED_SD, UNRATED_SD)
    best = minimize(_neg_log_posterior, mean.astype(float), args=(mean, sd, games),
                    method="BFGS", options={"gtol": 1e-10})
    assert np.abs(got - best.x).max() < 0.05  # rating points
    assert _neg_log_posterior(got, mean, sd, games) <= best.fun + 1e-9


def test_without_games_the_estimate_is_the_rating():
    got = strength_estimates([1800, 0, 1600], np.zeros(0), np.zeros(0), np.zeros(0),
                             np.zeros(3))
    assert got.tolist() == [1800.0, 1700.0, 1600.0]


def test_a_win_against_a_stronger_player_lifts_more_than_against_a_weaker_one():
    players = tuple(Player(i, f"P{i}", r) for i, r in
                    enumerate((1600, 1590, 1000, 2200), start=1))
    t = Tournament(players=players, total_rounds=3, seed=1).with_round(Round(1, (
        Game(1, 3, Result.WHITE_WINS, 1), Game(2, 4, Result.WHITE_WINS, 2))))
    est = tournament_estimates(t)
    assert est[2] - 1590 > est[1] - 1600 > 0
    assert est[2] > est[1]  # so the lower seed now ranks first in the 1-point group
    assert est[4] < 2200 and est[3] < 1000


def _swapping_tournament() -> Tournament:
    # Players 1 (1600) and 2 (1590) both win round 1; 2 beats a 2200, 1 a 1000.
    ratings = (1600, 1590, 1500, 1490, 1480, 1470, 1000, 2200)
    players = tuple(Player(i, f"P{i}", r) for i, r in enumerate(ratings, start=1))
    # 1 and 2 had white, 3 and 4 black: every winners' pair with different colours is open.
    round1 = Round(1, (
        Game(1, 7, Result.WHITE_WINS, 1), Game(2, 8, Result.WHITE_WINS, 2),
        Game(5, 3, Result.BLACK_WINS, 3), Game(6, 4, Result.BLACK_WINS, 4),
    ))
    return Tournament(players=players, total_rounds=5, seed=7).with_round(round1)


def test_score_groups_are_ordered_by_the_estimate():
    t = _swapping_tournament()
    est = tournament_estimates(t)
    by_seed = [e.player.id for e in ranked_entrants(t, "burstein")]
    by_estimate = [e.player.id for e in ranked_entrants(t, "posterior")]
    assert by_seed[:4] == [1, 2, 3, 4]
    assert by_estimate[:2] == [2, 1]
    scores = {pid: s.score for pid, s in player_states(t).items()}
    assert by_estimate == sorted(by_estimate, key=lambda pid: (-scores[pid], -est[pid]))


def test_posterior_pairs_the_estimated_top_against_the_estimated_bottom():
    t = _swapping_tournament()
    # The winners' group is {1, 2, 3, 4}; the colour term allows exactly 1-3/2-4 or 1-4/2-3.
    # Burstein (by seed) pairs 1-4 and 2-3; by estimate the order is 2, 1, ... so the top (2)
    # meets the group's bottom.
    burstein = pair_round(t, PairingConfig(system="burstein"))
    post = pair_round(t, PairingConfig(system="posterior"))
    pairs = {frozenset((g.white, g.black)) for g in post.games}
    assert frozenset((1, 4)) in {frozenset((g.white, g.black)) for g in burstein.games}
    est = tournament_estimates(t)
    bottom = min((3, 4), key=lambda pid: est[pid])
    assert frozenset((2, bottom)) in pairs


def test_posterior_is_deterministic_and_backends_agree():
    t = _swapping_tournament()
    results = [
        pair_round(t, PairingConfig(system="posterior", backend=backend))
        for backend in ("auto", "auto", "rustworkx", "networkx")
    ]
    games = [[(g.white, g.black) for g in r.games] for r in results]
    assert all(g == games[0] for g in games)


def _tier_totals(t: Tournament, games: tuple[Game, ...]) -> tuple[int, int, Fraction, int]:
    states = player_states(t)
    repeats = sum(states[g.white].times_met(g.black) for g in games)
    cds = [(states[g.white].color_diff, states[g.black].color_diff) for g in games]
    beyond = sum(1 for a, b in cds if abs(a + b) >= 4)
    score = sum((abs(states[g.white].score - states[g.black].score) for g in games), Fraction(0))
    colour = sum(abs(a + b) for a, b in cds)
    return repeats, beyond, score, colour


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    half=st.integers(2, 20),
    rounds=st.integers(1, 6),
    seed=st.integers(0, 10**6),
    unrated=st.floats(0, 1),
)
def test_posterior_keeps_burstein_s_tiers(half: int, rounds: int, seed: int, unrated: float):
    """Only the order inside the score groups changes: in every round the posterior pairing
    has exactly Burstein's totals of rematches, colour-bound breaches, score differences and
    colour terms (the tiers above the system term), so it is as much a Swiss as Burstein."""
    rng = random.Random(seed)
    n = 2 * half  # even: no bye, whose rank term would sit above the score difference
    players = tuple(
        Player(i, f"P{i}", 0 if rng.random() < unrated else rng.randint(1000, 2500))
        for i in range(1, n + 1)
    )
    t = Tournament(players=players, total_rounds=min(rounds, n - 1), seed=seed)
    for r in range(1, t.total_rounds + 1):
        post = pair_round(t, PairingConfig(system="posterior"))
        burstein = pair_round(t, PairingConfig(system="burstein"))
        assert _tier_totals(t, post.games) == _tier_totals(t, burstein.games)
        seen = sorted(p for g in post.games for p in g.players)
        assert seen == list(range(1, n + 1))  # a perfect matching of the field
        results = tuple(
            g.with_result(rng.choice((Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)))
            for g in post.games
        )
        t = t.with_round(Round(r, results, post.byes))


@pytest.mark.parametrize("players", [9, 16])
def test_simulated_posterior_tournaments_have_no_rematches(players: int):
    from swiss.sim.runner import SimulationConfig, play_tournament

    config = SimulationConfig(players=players, rounds=5, tiebreaks="none", seed=2)
    for index in range(3):
        played = play_tournament(config, "posterior", index)
        met: set[frozenset[int]] = set()
        for rnd in played.tournament.rounds:
            for g in rnd.games:
                pair = frozenset((g.white, g.black))
                assert pair not in met
                met.add(pair)


@pytest.mark.parametrize("scoring", ["chess", "match"])
def test_simulator_estimates_equal_the_engine_s(scoring: str):  # type: ignore[no-untyped-def]
    """The simulator's arrays give the same estimates as the tournament, whatever the scoring
    (3/1/0 points are not the evidence: the game results are)."""
    from swiss.model import ByeKind
    from swiss.sim.fastpair import PlainState, plain_estimates
    from swiss.sim.outcomes import EloLogistic
    from swiss.sim.runner import SimulationConfig, play_tournament

    config = SimulationConfig(players=9, rounds=4, scoring=scoring, model=EloLogistic(0.3),
                              tiebreaks="none", seed=3)
    played = play_tournament(config, "posterior", 1).tournament
    win, draw = (3, 1) if scoring == "match" else (2, 1)
    state = PlainState(9, win, draw, np.array([p.rating for p in played.players]))
    half = {Result.WHITE_WINS: 2, Result.DRAW: 1, Result.BLACK_WINS: 0}
    for rnd in played.rounds:
        bye = [b.player - 1 for b in rnd.byes if b.kind is ByeKind.PAIRING]
        state.record_round([(g.white - 1, g.black - 1, half[g.result]) for g in rnd.games],
                           bye[0] if bye else None)
    assert any(state.byes) and any(g.result is Result.DRAW for r in played.rounds
                                   for g in r.games)
    engine = tournament_estimates(played)
    got = plain_estimates(state)
    assert np.abs(got - np.array([engine[i + 1] for i in range(9)])).max() < 1e-6
