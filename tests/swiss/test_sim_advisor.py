"""The advisor (swiss.sim.advisor): every system, deterministic counts, the recommendation rule,
the "too few rounds" sentence, the time-budgeted schedule, and match scoring in the simulator."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import replace
from fractions import Fraction

import pytest

from swiss.model import Result
from swiss.pairing import SYSTEMS
from swiss.sim.advice_rules import (
    Comparison,
    Figure,
    RoundsCheck,
    choose,
    figure,
    rounds_advice,
    tiebreak_advice,
    too_few_rounds,
)
from swiss.sim.advisor import (
    CLEAR_WINNER,
    MIN_TOURNAMENTS,
    AdviceRequest,
    Batch,
    BatchResult,
    advise,
    format_table,
    play_batch,
    sample,
)
from swiss.sim.runner import SimulationConfig, play_tournament
from swiss.state import scores


def versus(a: str, b: str, tau: float, half: float, floats: float = 0.0,
           floats_half: float = 0.05) -> list[Comparison]:
    """The comparisons of a against b and back (paired differences)."""
    return [Comparison(a, b, 100, Figure(tau, half), Figure(floats, floats_half)),
            Comparison(b, a, 100, Figure(-tau, half), Figure(-floats, floats_half))]


# -- the whole advisor ---------------------------------------------------------------------------
def test_every_system_of_the_engine_is_simulated_and_the_advice_is_deterministic() -> None:
    request = AdviceRequest(players=10, rounds=4, tournaments=MIN_TOURNAMENTS, seed=3)
    first = advise(request)
    assert {r.system for r in first.systems} == set(SYSTEMS)  # the registry, whatever it holds
    assert all(r.tournaments == MIN_TOURNAMENTS and r.comparable for r in first.systems)
    assert first == advise(request)  # same seed, same counts: the same advice
    assert first != advise(replace(request, seed=4))
    taus = [r.tau.mean for r in first.systems]
    assert taus == sorted(taus, reverse=True)  # best ranking first
    assert first.recommended in SYSTEMS
    assert first.sentence.startswith((f"Use {first.recommended}:", "No clear difference"))
    assert first.sentence.endswith(".")
    table = format_table(first)
    assert table.splitlines()[0].split()[:3] == ["system", "events", "tau"]
    assert len(table.splitlines()) == 1 + len(SYSTEMS)


@pytest.mark.slow
def test_too_few_rounds_for_64_players_in_3_rounds() -> None:
    # 64 players, 3 rounds: 8 players on average still have 3/3 after the last round (fewer
    # with draws), so first place is nearly always shared; 5 rounds mostly separate it.
    request = AdviceRequest(players=64, rounds=3, tournaments=12,
                            systems=("burstein", "dutch"), seed=1)
    advice = advise(request)
    best = advice.row(advice.recommended or "")
    assert best.sole_winner.high < CLEAR_WINNER  # clearly below half, interval and all
    assert advice.rounds_sentence is not None
    assert advice.rounds_sentence.startswith(
        "3 rounds are too few for 64 players to find a clear winner")
    checked = [c.rounds for c in advice.rounds_checks]
    assert checked[0] == 4 and checked == sorted(checked) and set(checked) <= {4, 5}
    last = advice.rounds_checks[-1]
    if last.sole_winner.high >= CLEAR_WINNER:
        assert f"; {last.rounds} rounds " in advice.rounds_sentence
    else:
        assert "; even 5 would not" in advice.rounds_sentence
    assert "±" in advice.rounds_sentence  # every share with its interval
    assert all(c.tournaments == 12 for c in advice.rounds_checks)


def test_enough_rounds_say_nothing_about_rounds() -> None:
    # 8 players, 6 rounds: nearly always one player alone on top.
    advice = advise(AdviceRequest(players=8, rounds=6, tournaments=MIN_TOURNAMENTS,
                                  systems=("burstein", "monrad")))
    assert advice.row(advice.recommended or "").sole_winner.mean >= CLEAR_WINNER
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

    def runner(self, batches: Sequence[Batch]) -> Iterator[BatchResult]:
        for batch in batches:  # lazily, as run_here: the advisor may stop between two
            self.batches.append(batch)
            result = play_batch(batch)
            seconds = self.cost[batch.system] * len(result.samples)
            self.now += seconds
            yield replace(result, seconds=seconds)


def test_the_budget_shares_time_and_marks_a_slow_system() -> None:
    fake = FakeTime({"burstein": 0.002, "dutch": 0.004, "fide-dutch": 0.1})
    request = AdviceRequest(players=8, rounds=3, seconds=0.3,
                            systems=("burstein", "dutch", "fide-dutch"))
    advice = advise(request, runner=fake.runner, clock=fake.clock)
    counts = {r.system: r.tournaments for r in advice.systems}
    # fide-dutch: too slow to reach the events a comparison needs in the time given.
    assert counts["fide-dutch"] < MIN_TOURNAMENTS
    assert "not compared" in advice.row("fide-dutch").note
    assert not advice.row("fide-dutch").comparable
    # The others share the time: the cheaper system plays about twice as many events.
    assert counts["burstein"] >= MIN_TOURNAMENTS and counts["dutch"] >= MIN_TOURNAMENTS
    assert 1.5 < counts["burstein"] / counts["dutch"] < 3.5  # (the last turn may stop early)
    assert fake.now <= request.seconds * 1.1  # the budget holds (one batch of slack)
    # Every system's events are 0..k-1: the advice equals a fixed-count run with those counts.
    for name, count in counts.items():
        starts = sorted(b.start for b in fake.batches if b.system == name)
        assert starts[0] == 0
        assert sum(b.stop - b.start for b in fake.batches if b.system == name) == count
    assert advice.recommended in ("burstein", "dutch")


def test_too_few_events_keep_the_default_and_say_so() -> None:
    # A busy machine or a large field: not even the default reaches the events a comparison
    # needs. The answer is still the default, never whichever system happened to be first.
    fake = FakeTime({"burstein": 1.0, "dutch": 1.0, "monrad": 1.0})
    advice = advise(AdviceRequest(players=8, rounds=3, seconds=2.0,
                                  systems=("monrad", "burstein", "dutch")),
                    runner=fake.runner, clock=fake.clock)
    assert advice.recommended == "dutch"
    assert advice.sentence.startswith("Too few events could be simulated in the time given to "
                                      "compare the systems: use dutch (the default)")


def test_a_slow_system_cannot_starve_the_others() -> None:
    # One TCEC event costs more than the whole budget (as at 200 players on a busy machine):
    # the fast systems still play their events first, and an answer comes.
    fake = FakeTime({"burstein": 0.01, "dutch": 0.01, "tcec": 100.0})
    request = AdviceRequest(players=8, rounds=3, seconds=2.0,
                            systems=("tcec", "burstein", "dutch"))
    advice = advise(request, runner=fake.runner, clock=fake.clock)
    assert advice.row("burstein").tournaments >= MIN_TOURNAMENTS
    assert advice.row("dutch").tournaments >= MIN_TOURNAMENTS
    assert advice.recommended in ("burstein", "dutch")
    assert not advice.row("tcec").comparable


# -- the recommendation rule -----------------------------------------------------------------------
def test_a_clearly_better_system_is_recommended_with_its_paired_difference() -> None:
    system, sentence = choose(["dutch", "burstein"], "dutch",
                              versus("burstein", "dutch", 0.040, 0.010), label="the default")
    assert system == "burstein"
    assert sentence == ("Use burstein: it ranks the players better than dutch (the default) by "
                        "+0.040±0.010 tau on the same simulated fields.")


@pytest.mark.parametrize(("tau", "half"), [(0.030, 0.035), (0.008, 0.002), (-0.02, 0.01)])
def test_no_clear_difference_keeps_the_reference(tau: float, half: float) -> None:
    # Not significant (the interval holds 0), or significant but below the practical
    # threshold of 0.01 tau, or worse: the default stays.
    system, sentence = choose(["dutch", "random2"], "dutch",
                              versus("random2", "dutch", tau, half), label="the default")
    assert system == "dutch"
    assert sentence.startswith("No clear difference: use dutch (the default).")


def test_a_few_hundredths_of_a_float_are_not_called_fairer() -> None:
    # The old rule recommended random2 over burstein (0.615 ± 0.008 against 0.592) for 0.01
    # fewer floats a round; floats are only mentioned when clearly different.
    comparisons = (versus("burstein", "dutch", 0.040, 0.010, floats=-0.01)
                   + versus("random2", "dutch", 0.015, 0.010, floats=-0.02)
                   + versus("random2", "burstein", -0.023, 0.008, floats=-0.01))
    system, sentence = choose(["dutch", "burstein", "random2"], "dutch", comparisons,
                              label="the default")
    assert system == "burstein"
    assert "float" not in sentence
    comparisons = versus("burstein", "dutch", 0.040, 0.010, floats=0.3)
    assert "it floats more players to other score groups (+0.30±0.05 per round)" in choose(
        ["dutch", "burstein"], "dutch", comparisons, label="the default")[1]


def test_among_clearly_better_systems_the_unbeaten_first_in_the_engine_s_order() -> None:
    comparisons = (versus("burstein", "dutch", 0.040, 0.010)
                   + versus("posterior", "dutch", 0.035, 0.010)
                   + versus("burstein", "posterior", 0.005, 0.010)
                   + versus("random2", "dutch", 0.020, 0.005)
                   + versus("burstein", "random2", 0.020, 0.005)
                   + versus("posterior", "random2", 0.015, 0.005))
    system, sentence = choose(["dutch", "burstein", "random2", "posterior"], "dutch",
                              comparisons, label="the event's system")
    assert system == "burstein"
    assert "than dutch (the event's system)" in sentence
    assert "; posterior ranks about as well" in sentence


def test_an_equal_of_the_clearly_better_system_first_in_the_engine_s_order() -> None:
    # rating-gap is clearly better than dutch; burstein is ahead but not significantly on
    # these events, and not clearly worse than rating-gap: burstein, the first in the
    # engine's order, so that noise between the two does not change the answer.
    comparisons = (versus("rating-gap", "dutch", 0.042, 0.026)
                   + versus("burstein", "dutch", 0.023, 0.030)
                   + versus("rating-gap", "burstein", 0.019, 0.030))
    system, sentence = choose(["dutch", "burstein", "rating-gap"], "dutch", comparisons,
                              label="the default")
    assert system == "burstein"
    assert sentence.startswith("Use burstein: rating-gap ranks the players clearly better than "
                               "dutch (the default), by +0.042±0.026 tau")


def test_the_rounds_and_tiebreak_sentences_give_intervals() -> None:
    checks = [RoundsCheck(4, 100, Figure(0.30, 0.09), Figure(0.2, 0.08)),
              RoundsCheck(5, 100, Figure(0.62, 0.10), Figure(0.3, 0.09))]
    assert rounds_advice(64, 3, Figure(0.05, 0.04), checks) == (
        "3 rounds are too few for 64 players to find a clear winner (one player alone on the "
        "top score in 5±4% of the simulated events); 5 rounds would (62±10%, and the strongest "
        "player wins 30±9%).")
    assert too_few_rounds(Figure(0.4, 0.05)) and not too_few_rounds(Figure(0.45, 0.06))
    unsure = [RoundsCheck(4, 40, Figure(0.45, 0.16), Figure(0.15, 0.11))]
    assert "; 4 rounds might (45±16%" in rounds_advice(64, 3, Figure(0.0, 0.0), unsure)
    gain = tiebreak_advice("burstein", Figure(0.06, 0.01))
    assert "+0.060±0.010" in gain and "FIDE C.07" in gain and "not bound by FIDE" in gain
    assert "no clear gain" in tiebreak_advice("burstein", Figure(0.004, 0.01))


def test_intervals_use_student_s_t_for_few_events() -> None:
    few = figure([0.0, 1.0, 0.0, 1.0, 0.5])
    assert few.mean == 0.5
    assert math.isclose(few.half, 2.776 * 0.5 / math.sqrt(5), rel_tol=1e-9)  # sd 0.5
    assert math.isnan(figure([1.0]).half) and not figure([1.0]).above(0.0)


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
    # (the reference is not among them, so no comparison is settled early)
    advice = advise(AdviceRequest(players=4, rounds=2, seconds=1.0,
                                  systems=("burstein", "dutch"), current="monrad"),
                    runner=fake.runner, clock=fake.clock)
    assert [r.tournaments for r in advice.systems] == [25, 25]
