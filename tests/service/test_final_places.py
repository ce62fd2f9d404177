"""The final result of an event with a top cut (``service.present.final_places``): the playoff
placing first, players knocked out in the same round sharing a place, then the Swiss order."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from service.present import final_places
from service.views import PlacingView, StandingsRowView, StandingsView

# The groups of a finished bracket of 2, 4, 8, ... players, best first, and their sizes.
GROUPS = (("Winner", 1), ("Finalist", 1), ("Semi-finalist", 2), ("Quarter-finalist", 4),
          ("Last 16", 8))


def _view(players: int, cut: int, order: list[int]) -> StandingsView:
    """``players`` in Swiss order (player id = Swiss rank); the top ``cut`` played the
    playoffs and finished in ``order`` (a permutation of 1..cut, best first)."""
    rows = tuple(StandingsRowView(rank=n, player_id=n, number=n, name=f"P{n}", user_id=None,
                                  points=Fraction(players - n), values=())
                 for n in range(1, players + 1))
    names = [name for name, size in GROUPS for _ in range(size)][:cut]
    placings = tuple(PlacingView(place=name, seed=seed, player_id=seed, name=f"P{seed}",
                                 user_id=None) for name, seed in zip(names, order, strict=True))
    return StandingsView(tournament_id=1, tournament_name="T", after_round=5, total_rounds=5,
                         final=True, tiebreaks=(), rows=rows, placings=placings)


@st.composite
def events(draw: st.DrawFn) -> tuple[int, int, list[int]]:
    cut = draw(st.sampled_from([2, 4, 8, 16]))
    players = draw(st.integers(min_value=cut, max_value=40))
    order = draw(st.permutations(list(range(1, cut + 1))))
    return players, cut, order


@given(events())
def test_the_playoffs_first_sharing_places_by_round_then_the_swiss(
    event: tuple[int, int, list[int]],
) -> None:
    players, cut, order = event
    view = _view(players, cut, order)
    places = final_places(view)
    assert sorted(places) == list(range(1, players + 1))
    # competition ranking: a place is one more than the number of players ahead
    for player, place in places.items():
        assert place == 1 + sum(1 for other in places.values() if other < place), player
    assert places[order[0]] == 1 and places[order[1]] == 2
    for group in (order[2:4], order[4:8], order[8:16]):
        assert len({places[p] for p in group}) <= 1  # knocked out together: one place
    assert all(places[p] <= cut for p in order)
    rest = [n for n in range(1, players + 1) if n not in order]  # Swiss order, one each
    assert [places[n] for n in rest] == list(range(cut + 1, players + 1))


def test_nothing_before_the_end_or_without_a_cut() -> None:
    from dataclasses import replace

    view = _view(6, 4, [4, 1, 2, 3])
    assert final_places(replace(view, final=False)) == {}
    assert final_places(replace(view, placings=())) == {}
