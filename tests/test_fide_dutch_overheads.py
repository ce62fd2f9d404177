"""The per-round work around the FIDE Dutch engine that a 100-player round no longer repeats:
the player states walked once for the TRF reader and the engine, explanations only when asked."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import swiss.state
from swiss.pairing import PairingConfig, pair_round
from swiss.state import hand_over_states, player_states
from swiss.trf import parse_trf

FIXTURES = Path(__file__).parent / "fixtures"
CASES = [FIXTURES / "dutch-2025" / "t0003" / "round-05.trf",
         FIXTURES / "dutch-2017" / "t0004" / "round-04.trf"]


def _count_walks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the walks of the rounds player_states makes (not the states handed over)."""
    walks = [0]
    original: Callable[..., Any] = swiss.state.has_double_rounds

    def counting(tournament: Any) -> Any:
        walks[0] += 1
        return original(tournament)
    monkeypatch.setattr(swiss.state, "has_double_rounds", counting)
    return walks


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.parent.name)
def test_reading_and_pairing_a_trf_walk_the_rounds_once(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    walks = _count_walks(monkeypatch)
    tournament = parse_trf(path.read_text()).tournament
    pair_round(tournament, PairingConfig(system="fide-dutch"))
    assert walks[0] == 1
    # Taken once: a later call walks again (its caller may change what it gets).
    player_states(tournament)
    assert walks[0] == 2


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.parent.name)
def test_the_states_handed_over_are_those_of_a_fresh_walk(path: Path) -> None:
    tournament = parse_trf(path.read_text()).tournament
    fresh = player_states(dataclasses.replace(tournament))  # another object: walked
    assert player_states(tournament) == fresh  # the reader's states, handed over
    assert player_states(tournament) == fresh  # walked again


def test_states_are_handed_over_only_to_the_same_tournament_and_all_its_rounds() -> None:
    tournament = parse_trf(CASES[0].read_text()).tournament
    other = dataclasses.replace(tournament)
    marker: dict[int, swiss.state.PlayerState] = {}
    hand_over_states(tournament, marker)
    assert player_states(other) is not marker
    assert player_states(tournament, rounds=tournament.rounds_played - 1) is not marker
    assert player_states(tournament) is marker
    assert player_states(tournament) is not marker


@pytest.mark.parametrize("rules", ["2025", "2017"])
def test_explanations_only_when_asked_and_the_same_pairing(rules: str) -> None:
    tournament = parse_trf(CASES[0].read_text()).tournament
    asked = pair_round(tournament, PairingConfig(system="fide-dutch", rules=rules))
    quiet = pair_round(tournament, PairingConfig(system="fide-dutch", rules=rules,
                                                 explain=False))
    assert asked.explanations and not quiet.explanations
    assert (quiet.games, quiet.byes) == (asked.games, asked.byes)
