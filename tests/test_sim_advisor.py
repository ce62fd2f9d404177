"""The advisor (swiss.sim.advisor): every system, deterministic counts, the recommendation rule,
the "too few rounds" sentence, the time-budgeted schedule, and match scoring in the simulator."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

import pytest

from swiss.model import Result
from swiss.pairing import SYSTEMS
from swiss.sim.advisor import (
    CLEAR_WINNER,
    MIN_TOURNAMENTS,
    AdviceRequest,
    Batch,
    BatchResult,
    SystemAdvice,
    advise,
    format_table,
    play_batch,
    recommend,
    sample,
)
from swiss.sim.runner import SimulationConfig, play_tournament
from swiss.state import scores


def row(system: str, tau: float, half: float = 0.01, floats: float = 2.0, colour: float = 1.0,
        rematches: float = 0.0, tournaments: int = 50, note: str = "") -> SystemAdvice:
    return SystemAdvice(system, tournaments, tau, half, 0.3, 0.8, floats, colour, rematches, note)


# -- the whole advisor ---------------------------------------------------------------------------
def test_every_system_of_the_engine_is_simulated_and_the_advice_is_deterministic() -> None:
    request = AdviceRequest(players=10, rounds=4, tournaments=MIN_TOURNAMENTS, seed=3)
    first = advise(request)
    assert {r.system for r in first.systems} == set(SYSTEMS)  # the registry, whatever it holds
    assert all(r.tournaments == MIN_TOURNAMENTS and r.comparable for r in first.systems)
    assert first == advise(request)  # same seed, same counts: the same advice
    assert first != advise(replace(request, seed=4))
    taus = [r.tau for r in first.systems]
    assert taus == sorted(taus, reverse=True)  # best ranking first
    assert first.recommended in SYSTEMS
    assert first.sentence.startswith(f"Use {first.recommended}:")
    assert first.sentence.endswith(".")
    table = format_table(first)
    assert table.splitlines()[0].split()[:3] == ["system", "events", "tau"]
    assert len(table.splitlines()) == 1 + len(SYSTEMS)


def test_too_few_rounds_for_64_players_in_3_rounds() -> None:
    # 64 players, 3 rounds: 8 players on average still have 3/3 after the last round (fewer
    # with draws), so first place is nearly always shared; 5 rounds mostly separate it.
    request = AdviceRequest(players=64, rounds=3, tournaments=12,
                            systems=("burstein", "dutch"), seed=1)
    advice = advise(request)
    best = advice.row(advice.recommended or "")
    assert best.sole_winner < CLEAR_WINNER
    assert advice.rounds_sentence is not None
    assert advice.rounds_sentence.startswith(
        "3 rounds are too few for 64 players to find a clear winner")
    checked = [c.rounds for c in advice.rounds_checks]
    assert checked[0] == 4 and checked == sorted(checked) and set(checked) <= {4, 5}
    last = advice.rounds_checks[-1]
    if last.sole_winner >= CLEAR_WINNER:
        assert f"; {last.rounds} would (" in advice.rounds_sentence
    else:
        assert "; even 5 would not" in advice.rounds_sentence
    assert all(c.tournaments == 12 for c in advice.rounds_checks)


def test_enough_rounds_say_nothing_about_rounds() -> None:
    # 8 players, 6 rounds: nearly always one player alone on top.
    advice = advise(AdviceRequest(players=8, rounds=6, tournaments=MIN_TOURNAMENTS,
                                  systems=("burstein", "monrad")))
    assert advice.row(advice.recommended or "").sole_winner >= CLEAR_WINNER
    assert advice.rounds_sentence is None and advice.rounds_checks == ()


def test_a_system_that_cannot_pair_is_shown_but_not_recommended() -> None:
    # forbid-like failure: a pairing error inside a batch becomes the system's note.
    def runner(batches: Sequence[Batch]) -> list[BatchResult]:
        out = []
        for batch in batches:
            result = play_batch(batch)
            if batch.system == "burstein":
                result = BatchResult(batch, result.samples[:1], result.seconds, "no pairing")
            out.append(result)
        return out

    advice = advise(AdviceRequest(players=10, rounds=3, tournaments=MIN_TOURNAMENTS,
                                  systems=("burstein", "dutch")), runner=runner)
    assert advice.recommended == "dutch"
    assert advice.row("burstein").note == "could not pair: no pairing"
    assert advice.systems[-1].system == "burstein"  # not compared: last


# -- the time budget ------------------------------------------------------------------------------
class FakeTime:
    """A clock that only moves by the work done: each batch costs ``cost[system]`` per event."""

    def __init__(self, cost: dict[str, float]) -> None:
        self.now = 0.0
        self.cost = cost
        self.batches: list[Batch] = []

    def clock(self) -> float:
        return self.now

    def runner(self, batches: Sequence[Batch]) -> list[BatchResult]:
        out = []
        for batch in batches:
            self.batches.append(batch)
            result = play_batch(batch)
            seconds = self.cost[batch.system] * len(result.samples)
            self.now += seconds
            out.append(replace(result, seconds=seconds))
        return out


def test_the_budget_shares_time_and_stops_a_slow_system() -> None:
    fake = FakeTime({"burstein": 0.002, "dutch": 0.004, "fide-dutch": 0.1})
    request = AdviceRequest(players=8, rounds=3, seconds=0.3,
                            systems=("burstein", "dutch", "fide-dutch"))
    advice = advise(request, runner=fake.runner, clock=fake.clock)
    counts = {r.system: r.tournaments for r in advice.systems}
    # fide-dutch: one event costs more than its whole share (0.75 * 0.3 / 3 s): stopped.
    assert counts["fide-dutch"] == 1
    assert "too slow" in advice.row("fide-dutch").note
    assert not advice.row("fide-dutch").comparable
    # The others share the time: the cheaper system plays about twice as many events.
    assert counts["burstein"] >= MIN_TOURNAMENTS and counts["dutch"] >= MIN_TOURNAMENTS
    assert 1.5 < counts["burstein"] / counts["dutch"] < 2.5
    assert fake.now <= request.seconds * 1.1  # the budget holds (one turn of slack)
    # Every system's events are 0..k-1: the advice equals a fixed-count run with those counts.
    for name, count in counts.items():
        starts = sorted(b.start for b in fake.batches if b.system == name)
        assert starts[0] == 0
        assert sum(b.stop - b.start for b in fake.batches if b.system == name) == count
    assert advice.recommended in ("burstein", "dutch")


# -- the recommendation rule -----------------------------------------------------------------------
def test_the_best_tau_wins_when_it_is_clearly_best() -> None:
    rows = [row("burstein", 0.70), row("dutch", 0.60, floats=1.0)]
    system, sentence = recommend(rows)
    assert system == "burstein"
    assert sentence == ("Use burstein: it ranks the players best (tau 0.700 ± 0.010, next "
                        "dutch 0.600).")


def test_within_the_noise_a_fairer_system_is_preferred() -> None:
    rows = [row("burstein", 0.670, half=0.02, floats=2.5),
            row("random2", 0.660, half=0.02, floats=2.2),
            row("monrad", 0.50)]
    system, sentence = recommend(rows)
    assert system == "random2"
    assert "ranks as well as burstein within the noise" in sentence
    assert "2.20 floats per round against 2.50" in sentence


def test_within_the_noise_but_not_fairer_keeps_the_best_tau() -> None:
    # dutch overlaps but floats more: not fairer on every measure.
    rows = [row("burstein", 0.670, half=0.02, floats=2.0, colour=1.1),
            row("dutch", 0.660, half=0.02, floats=2.5, colour=1.0)]
    system, sentence = recommend(rows)
    assert system == "burstein"
    assert "within the noise but no fairer" in sentence


def test_too_few_events_are_never_recommended_and_the_current_system_is_named() -> None:
    rows = [row("fide-dutch", 0.90, tournaments=MIN_TOURNAMENTS - 1),
            row("burstein", 0.70), row("dutch", 0.60)]
    system, sentence = recommend(rows, current="dutch")
    assert system == "burstein"
    assert sentence.endswith("; the event now uses dutch (tau 0.600).")
    assert recommend([row("tcec", 0.5, note="too slow")])[0] is None


# -- the measures of one event ---------------------------------------------------------------------
@pytest.mark.parametrize("scoring", ["chess", "match"])
def test_a_sample_counts_sole_winners_and_rematches_from_the_games(scoring: str) -> None:
    config = SimulationConfig(players=5, rounds=4, scoring=scoring, strength_difference=False)
    for index in range(6):
        played = play_tournament(config, "dutch", index)
        got = sample(config, "dutch", index)
        points = scores(played.tournament)
        first, second = played.ranking[:2]
        assert got.sole_winner == (points[first] > points[second])
        seen: set[frozenset[int]] = set()
        rematches = 0
        for rnd in played.tournament.rounds:
            for g in rnd.games:
                rematches += frozenset((g.white, g.black)) in seen
                seen.add(frozenset((g.white, g.black)))
        assert got.rematches == rematches
        assert got.tau == played.measures.kendall_tau


# -- match scoring in the simulator ---------------------------------------------------------------
@pytest.mark.parametrize(
    "system", ["dutch", "burstein", "monrad", "random", "random2", "posterior"]
)
def test_match_scoring_fast_path_plays_the_engines_tournament(system: str) -> None:
    from swiss.sim.outcomes import EloLogistic

    config = SimulationConfig(players=11, rounds=5, scoring="match", model=EloLogistic(0.3),
                              tiebreaks="none", seed=7)
    for index in range(3):
        fast = play_tournament(config, system, index)
        reference = play_tournament(config, system, index, fast=False)
        assert fast.tournament.rounds == reference.tournament.rounds
        assert fast.measures == reference.measures


def test_match_scoring_changes_the_score_groups() -> None:
    from swiss.sim.outcomes import EloLogistic

    # With draws, 3/1/0 and 1/½/0 rank two draws differently from a win and a loss, so the
    # pairings part ways somewhere in these events.
    chess = SimulationConfig(players=12, rounds=5, model=EloLogistic(0.4), tiebreaks="none")
    match = replace(chess, scoring="match")
    differ = 0
    for index in range(6):
        a = play_tournament(chess, "dutch", index).tournament
        b = play_tournament(match, "dutch", index).tournament
        assert b.scoring.win == 3 and a.scoring.win == 1
        differ += a.rounds != b.rounds
        # points follow the scoring: a draw is worth 1 of 3
        draws = sum(g.result is Result.DRAW for r in b.rounds for g in r.games)
        wins = sum(g.result is not Result.DRAW for r in b.rounds for g in r.games)
        byes = sum(len(r.byes) for r in b.rounds)
        assert sum(scores(b).values()) == 2 * draws + 3 * wins + 3 * byes
    assert differ > 0


def test_bad_requests_are_refused() -> None:
    with pytest.raises(ValueError, match="rounds must be between 1 and players - 1"):
        AdviceRequest(players=8, rounds=8)
    with pytest.raises(ValueError, match="scoring"):
        AdviceRequest(players=8, rounds=3, scoring="go")
    with pytest.raises(ValueError, match="draw rate"):
        AdviceRequest(players=8, rounds=3, draw_rate=1.0)
    with pytest.raises(ValueError, match="unknown pairing system"):
        AdviceRequest(players=8, rounds=3, systems=("swiss-cheese",))
    with pytest.raises(ValueError, match="paper"):
        SimulationConfig(scoring="match", weights="paper")


def test_the_outcome_model_follows_scoring_and_draw_rate() -> None:
    assert AdviceRequest(8, 3).model().describe() == "milvang"
    assert AdviceRequest(8, 3, scoring="match").model().describe() == "elo"
    assert AdviceRequest(8, 3, draw_rate=0.25).model().describe() == "elo:0.25"
    assert AdviceRequest(8, 3, beta=Fraction(1)).config().beta == 1
    assert math.isclose(AdviceRequest(8, 3, draw_rate=0.1).model().probabilities(1800, 1800)[2],
                        0.1)


def test_tiny_events_stop_at_the_cap_even_when_time_stands_still(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import swiss.sim.advisor as advisor

    monkeypatch.setattr(advisor, "MAX_EVENTS", 25)
    fake = FakeTime({"burstein": 0.0, "dutch": 0.0})  # the budget never runs out
    advice = advise(AdviceRequest(players=4, rounds=2, seconds=1.0,
                                  systems=("burstein", "dutch")),
                    runner=fake.runner, clock=fake.clock)
    assert [r.tournaments for r in advice.systems] == [25, 25]
