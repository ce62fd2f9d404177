"""The simulator's vectorised pairing gives exactly the engine's pairings and colours."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from swiss.model import Tournament
from swiss.pairing import PairingError
from swiss.pairing.mwm_graph import _tiebreak
from swiss.pairing.weights import tiebreak_hash
from swiss.sim.runner import SimulationConfig, play_tournament
from swiss.state import player_states

SYSTEMS = ["dutch", "burstein", "monrad", "random", "random2", "posterior"]


def test_tiebreak_hash_matches_the_engine():
    rng = np.random.default_rng(0)
    a = rng.integers(1, 500, 300)
    b = rng.integers(1, 500, 300)
    for seed, rnd in ((0, 1), (2**31 - 2, 7), (123456, 3)):
        got = tiebreak_hash(seed, rnd, a, b)
        expected = [_tiebreak(seed, rnd, int(x), int(y)) for x, y in zip(a, b, strict=True)]
        assert got.tolist() == expected


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize(
    ("beta", "policy", "players", "rounds"),
    [
        (Fraction(2), "avoid", 16, 7),
        (Fraction(1, 10), "avoid", 12, 5),
        (Fraction(2), "forbid", 10, 5),
        (Fraction(2), "avoid", 11, 6),  # odd: the bye vertex
        # Under forbid the colour bound is absolute in both (beta 1: |cd_i + cd_j| < 2).
        (Fraction(1), "forbid", 9, 4),
        (Fraction(1, 10), "forbid", 10, 3),
    ],
)
def test_fast_path_plays_the_engines_tournament(system, beta, policy, players, rounds):
    config = SimulationConfig(
        players=players, rounds=rounds, beta=beta, policy=policy, tiebreaks="none", seed=5
    )
    for index in range(4):
        fast = play_tournament(config, system, index)
        reference = play_tournament(config, system, index, fast=False)
        # Same pairings, colours and boards every round, hence the same results and measures
        # (including the maximum strength difference matching behind strength_diff_ratio).
        assert fast.tournament.rounds == reference.tournament.rounds
        assert fast.measures == reference.measures
        if policy == "forbid":
            assert_within_colour_bound(fast.tournament, beta)


def assert_within_colour_bound(tournament: Tournament, beta: Fraction) -> None:
    for rnd in tournament.rounds:
        before = replace(tournament, rounds=tournament.rounds[:rnd.number - 1])
        cd = {pid: state.color_diff for pid, state in player_states(before).items()}
        for game in rnd.games:
            assert abs(cd[game.white] + cd[game.black]) < 2 * beta, (rnd.number, game)


def test_forbid_with_a_colour_bound_nobody_can_keep_fails_on_both_paths():
    # Strict alternation (beta 0.1) and no rematches: 9 players cannot play 4 such rounds.
    config = SimulationConfig(players=9, rounds=4, beta=Fraction(1, 10), policy="forbid",
                              tiebreaks="none", seed=5)
    for fast in (True, False):
        with pytest.raises(PairingError, match="colour bound is absolute"):
            play_tournament(config, "monrad", 0, fast=fast)
