"""TCEC double rounds (each pair plays twice in one round) through state and standings."""

from __future__ import annotations

import random
from fractions import Fraction

from swiss.model import Player, Result, Round, Tournament, split_double_rounds
from swiss.pairing import PairingConfig, pair_round
from swiss.standings import compute_standings
from swiss.state import player_states


def _double_round_event(n: int, rounds: int, seed: int) -> Tournament:
    rng = random.Random(seed)
    t = Tournament(players=tuple(Player(i, f"E{i}", 3500 - i) for i in range(1, n + 1)),
                   total_rounds=rounds)
    config = PairingConfig(system="tcec", double_rounds=True)
    for _ in range(rounds):
        result = pair_round(t, config)
        games = tuple(
            g.with_result(rng.choice((Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)))
            for g in result.games
        )
        t = t.with_round(Round(result.round_number, games, result.byes))
    return t


def test_every_game_of_a_double_round_scores_and_the_bye_counts_twice() -> None:
    t = _double_round_event(5, 3, seed=1)
    states = player_states(t)
    for pid, st in states.items():
        expected = Fraction(0)
        for rnd in t.rounds:
            for g in rnd.games:
                if pid in g.players:
                    outcome = g.outcome_for(pid)
                    assert outcome is not None
                    expected += t.scoring.for_outcome(outcome)
            if any(b.player == pid for b in rnd.byes):
                expected += 2 * t.scoring.pairing_bye  # both bye games score as wins
        assert st.score == expected
        assert st.color_diff == 0  # W and B in every double round
    total_games = sum(len(r.games) for r in t.rounds)
    assert sum(st.score for st in states.values()) == total_games + 2 * 3  # 3 double byes


def test_standings_of_a_double_round_event() -> None:
    t = _double_round_event(6, 4, seed=2)
    standings = compute_standings(t, "tcec")
    scores = {pid: st.score for pid, st in player_states(t).items()}
    assert all(row.points == scores[row.player_id] for row in standings.rows)
    assert sum(row.points for row in standings.rows) == 6 * 4  # 3 pairs x 2 games x 4 rounds
    after_one = compute_standings(t, "tcec", rounds=1)
    assert sum(row.points for row in after_one.rows) == 6


def test_split_keeps_ordinary_rounds_untouched() -> None:
    t = _double_round_event(4, 2, seed=3)
    split, ends = split_double_rounds(t)
    assert ends == [0, 2, 4]
    assert all(len(r.games) == 2 for r in split.rounds)
