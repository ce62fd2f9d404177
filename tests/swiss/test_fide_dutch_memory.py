"""A round whose FIDE Dutch graphs would not fit in memory is refused before any is built.

Every bracket's matching graph spans all players still unpaired; a small round lists all
its pairs, a big one only those inside each bracket and the next scoregroup (docs/
fide-dutch.md, "Memory of big brackets"): past ``memory.MEMORY_LIMIT`` the engine raises a
:class:`PairingError` that names the sizes, instead of the pairing process being killed for
want of memory.
"""

from __future__ import annotations

import random

import pytest

from swiss.model import Game, Player, Result, Round, Tournament
from swiss.pairing import PairingConfig, PairingError, pair_round
from swiss.pairing.fide_dutch import engine, memory


def _after_one_round(n: int) -> Tournament:
    """``n`` players after a round 1 of 1-2, 3-4, ... with random results."""
    rng = random.Random(n)
    t = Tournament(players=tuple(Player(i, f"P{i}") for i in range(1, n + 1)),
                   total_rounds=5)
    games = tuple(Game(i, i + 1, rng.choice([Result.WHITE_WINS, Result.BLACK_WINS,
                                             Result.DRAW]), board=i // 2 + 1)
                  for i in range(1, n, 2))
    return t.with_round(Round(1, games))


def test_a_round_over_the_memory_limit_is_refused_before_any_graph(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # 60 players: 1,770 pairs less the 30 played; with 240 bytes a pair, 400 KB is too little.
    monkeypatch.setattr(memory, "MEMORY_LIMIT", 400_000)
    monkeypatch.setattr(engine, "round_arrays", None)  # building a graph would fail here
    with pytest.raises(PairingError, match=r"all 60 players \(1,740 allowed pairs") as err:
        pair_round(_after_one_round(60), PairingConfig(system="fide-dutch"))
    assert isinstance(err.value, memory.GraphTooLarge)
    assert "the first bracket (" in str(err.value)


def test_under_the_limit_the_round_is_paired(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "MEMORY_LIMIT", 1_740 * memory.BYTES_PER_EDGE)
    res = pair_round(_after_one_round(60), PairingConfig(system="fide-dutch"))
    assert len(res.games) == 30


def test_round_one_is_never_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 1 needs no graph (blank.py), whatever the limit."""
    monkeypatch.setattr(memory, "MEMORY_LIMIT", 1)
    t = Tournament(players=tuple(Player(i, f"P{i}") for i in range(1, 61)), total_rounds=5)
    assert len(pair_round(t, PairingConfig(system="fide-dutch")).games) == 30


@pytest.mark.parametrize("rules", ["2025", "2017"])
def test_a_big_round_is_counted_by_its_listed_pairs(monkeypatch: pytest.MonkeyPatch,
                                                    rules: str) -> None:
    """From engine.IMPLICIT_MIN_PLAYERS on, a bracket lists only the pairs of its players and
    of the next scoregroup (implicit.py; 2017's brackets paired on their own leave their
    sinks implicit): the check counts the largest two consecutive scoregroups, not the whole
    round."""
    monkeypatch.setattr(engine, "IMPLICIT_MIN_PLAYERS", 0)
    t = _after_one_round(60)  # scoregroups 1, 0.5 and 0 point
    # The whole round would need 1,740 pairs; two scoregroups hold at most 45 players here.
    monkeypatch.setattr(memory, "MEMORY_LIMIT", 1_740 * memory.BYTES_PER_LISTED_EDGE - 1)
    assert len(pair_round(t, PairingConfig(system="fide-dutch", rules=rules)).games) == 30
    monkeypatch.setattr(memory, "MEMORY_LIMIT", 100 * memory.BYTES_PER_LISTED_EDGE)
    with pytest.raises(PairingError, match=r"scoregroups 1 and 2 from the top hold") as err:
        pair_round(t, PairingConfig(system="fide-dutch", rules=rules))
    assert isinstance(err.value, memory.GraphTooLarge)


def test_a_big_round_may_list_two_scoregroups_of_nearly_6000_players() -> None:
    """BYTES_PER_LISTED_EDGE as measured on the typed graphs of the 10,000-player round (60-90
    bytes a listed pair, 120 with room): the bracket and the next scoregroup may hold some
    5,980 players within the 2 GB budget (4,230 before)."""
    memory.check_bracket_memory(5_900, "these scoregroups")
    with pytest.raises(memory.GraphTooLarge, match=r"6,100 players .* about 5,982 players"):
        memory.check_bracket_memory(6_100, "these scoregroups")
    # The graphs listing every pair of the players still unpaired keep the old count.
    with pytest.raises(memory.GraphTooLarge, match=r"about 4,230 players"):
        memory.check_bracket_memory(5_900, "the players still unpaired", memory.BYTES_PER_EDGE)
