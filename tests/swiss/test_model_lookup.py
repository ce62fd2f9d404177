"""Tournament.player: lookups by id survive every way a Tournament is remade."""

from __future__ import annotations

import dataclasses
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from swiss.model import Player, Tournament


@given(st.lists(st.integers(min_value=1, max_value=10_000), min_size=1, max_size=40,
                unique=True))
def test_player_finds_every_id_and_only_those(ids: list[int]) -> None:
    t = Tournament(players=tuple(Player(i, f"P{i}", 2000 - k) for k, i in enumerate(ids)))
    for i in ids:
        assert t.player(i).id == i
    with pytest.raises(KeyError):
        t.player(max(ids) + 1)


def test_lookup_follows_replace_and_pickle() -> None:
    t = Tournament(players=(Player(1, "A", 2000), Player(2, "B", 1900)))
    fewer = dataclasses.replace(t, players=(Player(7, "C", 1800),))
    assert fewer.player(7).name == "C"
    with pytest.raises(KeyError):
        fewer.player(1)
    again = pickle.loads(pickle.dumps(t))
    assert again.player(2).name == "B"
    assert again == t
    assert "_index" not in repr(t)


def test_duplicate_ids_are_refused() -> None:
    with pytest.raises(ValueError, match="duplicate player ids"):
        Tournament(players=(Player(1, "A", 2000), Player(1, "B", 1900)))
