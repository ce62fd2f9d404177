"""The e-sports Swiss stage against the Counter-Strike Major Supplemental Rulebook's rules and
worked examples (tests/fixtures/esports-swiss/rulebook.json names the source of each case)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swiss.pairing.types import PairingError
from swiss.teams.esports import (
    PRIORITY_TABLE,
    StageMatch,
    StageRules,
    pair_stage,
    standings,
)
from tests.paths import FIXTURES

CASES = json.loads((FIXTURES / "esports-swiss" / "rulebook.json")
                   .read_text(encoding="utf-8"))
SEEDS = list(range(1, 17))


def matches(rows: list[list[int]]) -> list[StageMatch]:
    return [StageMatch(r, w, lo) for r, w, lo in rows]


@pytest.mark.parametrize("case", CASES["cases"], ids=lambda c: c["name"])
def test_rulebook_cases(case: dict) -> None:
    seeds = list(range(1, case.get("teams", 16) + 1))
    pairing = pair_stage(seeds, matches(case["results"]), case["round"])
    assert [[a, b] for a, b, _bo in pairing.matches] == case["pairs"], case["source"]
    if "best_of" in case:
        assert [bo for _a, _b, bo in pairing.matches] == case["best_of"]


def test_difficulty_score_is_the_rulebooks_example() -> None:
    # Team A (seed 1) met a 2-0 team (2) and a 1-1 team (3): difficulty 3 - 1 = 2.
    # Team B (seed 4) met two 1-1 teams (3 and 6): difficulty 0.
    results = matches([[1, 2, 1], [1, 3, 4], [1, 5, 6], [1, 7, 8],
                       [2, 1, 3], [2, 2, 5], [2, 6, 4], [2, 8, 7]])
    table = standings(list(range(1, 9)), results)
    assert (table[2].wins, table[2].losses, table[3].wins, table[3].losses) == (2, 0, 1, 1)
    assert table[1].difficulty == 2
    assert table[4].difficulty == 0


def test_the_priority_table_is_every_pairing_of_six() -> None:
    seen = {frozenset(frozenset(p) for p in row) for row in PRIORITY_TABLE}
    assert len(seen) == 15  # the 15 ways to pair six teams, each once


def play(seed: int, rules: StageRules | None = None, teams: int = 16
         ) -> tuple[list[StageMatch], list]:
    rng = random.Random(seed)
    results: list[StageMatch] = []
    pairings = []
    for round_number in range(1, 20):
        pairing = pair_stage(list(range(1, teams + 1)), results, round_number,
                             rules or StageRules())
        if not pairing.matches and pairing.bye is None:
            return results, pairings
        pairings.append(pairing)
        if pairing.bye is not None:
            results.append(StageMatch(round_number, pairing.bye, None))
        for a, b, _bo in pairing.matches:
            winner = a if rng.random() < 0.5 + (b - a) / 40 else b
            results.append(StageMatch(round_number, winner, b if winner == a else a))
    raise AssertionError("the stage did not end")


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_a_sixteen_team_stage_ends_after_five_rounds_with_eight_through(seed: int) -> None:
    results, pairings = play(seed)
    table = standings(SEEDS, results)
    assert len(pairings) == 5
    assert sorted(t.wins for t in table.values()).count(3) == 8
    assert all(t.wins == 3 or t.losses == 3 for t in table.values())
    met = set()
    for pairing in pairings:
        for a, b, best_of in pairing.matches:
            # same record, no rematch, best of three exactly for the deciding matches
            before = standings(SEEDS, [m for m in results if m.round < pairing.round])
            assert (before[a].wins, before[a].losses) == (before[b].wins, before[b].losses)
            assert frozenset((a, b)) not in met
            met.add(frozenset((a, b)))
            decides = before[a].wins == 2 or before[a].losses == 2
            assert best_of == (3 if decides else 1)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([8, 16, 32]), st.integers(2, 4))
def test_any_even_field_and_threshold_ends_with_every_team_decided(seed: int, teams: int,
                                                                   wins: int) -> None:
    rules = StageRules(wins_to_advance=wins, losses_to_eliminate=wins)
    results, pairings = play(seed, rules, teams)
    table = standings(list(range(1, teams + 1)), results)
    assert all(t.wins == wins or t.losses == wins for t in table.values())
    for pairing in pairings:
        seeds = [s for a, b, _ in pairing.matches for s in (a, b)]
        assert len(seeds) == len(set(seeds))  # nobody twice in a round


def test_best_of_is_configurable() -> None:
    rules = StageRules(decider_best_of=5, other_best_of=3)
    _results, pairings = play(7, rules)
    assert {bo for p in pairings for *_ab, bo in p.matches} == {3, 5}


def test_an_odd_field_gives_the_lowest_ranked_team_a_bye_once() -> None:
    assert pair_stage([1, 2, 3], [], 1).bye == 3
    second = pair_stage([1, 2, 3], [StageMatch(1, 3, None), StageMatch(1, 1, 2)], 2)
    assert second.bye == 2  # 3 had the bye already
    with pytest.raises(PairingError, match="even number of teams"):
        pair_stage([1], [StageMatch(1, 1, None)], 2)


def test_a_result_naming_an_unknown_seed_is_refused() -> None:
    with pytest.raises(ValueError, match="seed 99 is not in the stage"):
        pair_stage(SEEDS, [StageMatch(1, 99, 1)], 2)
