"""swiss.bracket: seeding order, byes, advancing winners (property tests)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from swiss import bracket


def _play(entrants: int, pick: random.Random | None) -> dict[tuple[int, int], int]:
    """Play the whole bracket: the better seed wins (or a random side with ``pick``)."""
    winners: dict[tuple[int, int], int] = {}
    for k in range(1, bracket.rounds_of(entrants) + 1):
        for m in bracket.build(entrants, winners)[k - 1]:
            if m.playable:
                assert m.high is not None and m.low is not None
                winners[(k, m.index)] = pick.choice((m.high, m.low)) if pick else m.high
    return winners


def test_standard_order() -> None:
    assert bracket.seeding_order(2) == [1, 2]
    assert bracket.seeding_order(4) == [1, 4, 2, 3]
    assert bracket.seeding_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    with pytest.raises(ValueError):
        bracket.seeding_order(6)


@given(st.integers(min_value=2, max_value=bracket.MAX_ENTRANTS))
def test_every_seed_appears_once_and_byes_go_to_the_top_seeds(entrants: int) -> None:
    first = bracket.build(entrants, {})[0]
    seen = [s for m in first for s in (m.high, m.low) if s is not None]
    assert sorted(seen) == list(range(1, entrants + 1))
    byes = sorted(m.high for m in first if m.bye if m.high is not None)
    size = bracket.bracket_size(entrants)
    assert byes == list(range(1, size - entrants + 1))
    for m in first:  # first-round pairs add up to size + 1 (1 v N, 2 v N-1, ...)
        if m.playable:
            assert m.high is not None and m.low is not None
            assert m.high + m.low == size + 1


@given(st.integers(min_value=2, max_value=bracket.MAX_ENTRANTS),
       st.integers(min_value=0, max_value=10_000))
def test_1_and_2_only_meet_in_the_final(entrants: int, seed: int) -> None:
    rng = random.Random(seed)
    winners = _play(entrants, rng)
    rounds = bracket.build(entrants, winners)
    for matches in rounds[:-1]:
        for m in matches:
            assert {m.high, m.low} != {1, 2}
    # when the better seed always wins, the final is 1 v 2 and 1 wins
    chalk = bracket.build(entrants, _play(entrants, None))
    assert (chalk[-1][0].high, chalk[-1][0].low, chalk[-1][0].winner) == (1, 2, 1)
    # every entrant but the champion loses exactly once
    lost = bracket.eliminated_in(entrants, winners)
    champion = bracket.champion(entrants, winners)
    assert champion is not None and champion not in lost
    assert sorted([*lost, champion]) == list(range(1, entrants + 1))


def test_names_and_bad_winner() -> None:
    assert [bracket.stage_name(3, k) for k in (1, 2, 3)] == \
        ["Quarter-finals", "Semi-finals", "Final"]
    assert bracket.stage_name(5, 1) == "Round of 32"
    assert bracket.placing_name(3, None) == "Winner"
    assert bracket.placing_name(3, 2) == "Semi-finalist"
    with pytest.raises(ValueError):
        bracket.build(4, {(1, 0): 2})
    with pytest.raises(ValueError):
        bracket.bracket_size(1)
