"""The benchmark's event histories (swiss/histories.py): the shapes they promise, any size.

The benchmarks compare the engine across these shapes, so each must really be what its name
says (no rematches, a bye only when the count is odd and never twice, late entries absent
before they join, the draw-heavy shape drawing about half its games) and the same for the
same seed.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swiss.histories import KINDS, history
from swiss.model import Result
from swiss.state import player_states


@settings(max_examples=25, deadline=None)
@given(kind=st.sampled_from(KINDS), players=st.integers(2, 120), rounds=st.integers(0, 8),
       seed=st.integers(0, 2**16))
def test_every_shape_is_a_swiss_event_with_few_rematches(kind: str, players: int,
                                                         rounds: int, seed: int) -> None:
    event = history(kind, players, rounds, seed=seed)
    assert len(event.players) == players
    assert len(event.rounds) == rounds
    assert event.total_rounds == rounds + 1  # the next round can be paired
    met: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    for rnd in event.rounds:
        seen = [p for g in rnd.games for p in g.players] + [b.player for b in rnd.byes]
        assert len(seen) == len(set(seen)), "a player twice in one round"
        assert len(rnd.byes) <= 1
        assert all(g.result in (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)
                   for g in rnd.games)
        met.update(frozenset(g.players) for g in rnd.games)
        byes.update(b.player for b in rnd.byes)
    # A greedy pairing may be left with two players who met at the bottom of a round: at
    # most one rematch a round, and only where they cannot be helped.
    if players > 2 * rounds + 2:  # (fewer players must meet again)
        assert sum(times - 1 for times in met.values()) <= rounds
    if players > rounds + 1:
        assert max(byes.values(), default=1) == 1


@pytest.mark.parametrize("kind", KINDS)
def test_the_same_seed_gives_the_same_event_and_another_seed_another(kind: str) -> None:
    assert history(kind, 60, 4, seed=3) == history(kind, 60, 4, seed=3)
    assert history(kind, 60, 4, seed=3).rounds != history(kind, 60, 4, seed=4).rounds


def test_the_draw_heavy_shape_draws_half_and_has_late_entries() -> None:
    event = history("draws", 1000, 6, seed=1)
    games = [g for rnd in event.rounds for g in rnd.games]
    share = sum(g.result is Result.DRAW for g in games) / len(games)
    assert 0.45 < share < 0.55
    first = {p for g in event.rounds[0].games for p in g.players} | \
        {b.player for b in event.rounds[0].byes}
    late = [p.id for p in event.players if p.id not in first]
    assert len(late) == 100
    # every late entry plays from round 4 on
    fourth = {p for g in event.rounds[3].games for p in g.players} | \
        {b.player for b in event.rounds[3].byes}
    assert set(late) <= fourth


def test_the_dutch_shape_pairs_inside_score_groups_and_keeps_colours_near() -> None:
    event = history("dutch", 1000, 6, seed=1)
    before = player_states(event, rounds=5)
    last = event.rounds[5].games
    same_score = sum(before[g.white].score == before[g.black].score for g in last)
    assert same_score / len(last) > 0.9
    colour = Counter(abs(s.color_diff) for s in player_states(event).values())
    assert colour[0] + colour[2] > 0.9 * 1000


def test_an_unknown_shape_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown history 'swiss'; use one of project"):
        history("swiss", 10, 1)
