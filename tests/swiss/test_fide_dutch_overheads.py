"""The per-round work around the FIDE Dutch engine that a 100-player round no longer repeats:
the player states walked once for the TRF reader and the engine (handed on explicitly, in the
parse result), explanations only when asked."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import swiss.state
from swiss.pairing import PairingConfig, pair_round
from swiss.state import player_states
from swiss.trf import parse_trf
from tests.paths import FIXTURES

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
    parsed = parse_trf(path.read_text())
    pair_round(parsed.tournament, PairingConfig(system="fide-dutch"), states=parsed.states)
    assert walks[0] == 1
    # Nothing is kept anywhere else: without the states, pairing walks the rounds itself.
    pair_round(parsed.tournament, PairingConfig(system="fide-dutch"))
    assert walks[0] == 2


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.parent.name)
def test_the_states_of_the_reader_are_those_of_a_fresh_walk_and_pair_the_same(
        path: Path) -> None:
    parsed = parse_trf(path.read_text())
    assert parsed.states is not None
    assert dict(parsed.states) == player_states(parsed.tournament)
    config = PairingConfig(system="fide-dutch")
    given = pair_round(parsed.tournament, config, states=parsed.states)
    walked = pair_round(parsed.tournament, config)
    assert (given.games, given.byes) == (walked.games, walked.byes)
    assert dict(parsed.states) == player_states(parsed.tournament)  # only read


def test_the_reader_keeps_no_states_outside_its_result() -> None:
    # (The old hand-over kept the last file's states in a module-level slot.)
    assert not [name for name in vars(swiss.state) if "hand" in name.lower()]


def test_states_of_another_tournament_are_refused() -> None:
    parsed = parse_trf(CASES[0].read_text())
    tournament = parsed.tournament
    config = PairingConfig(system="fide-dutch")
    fewer_rounds = dataclasses.replace(tournament, rounds=tournament.rounds[:-1])
    with pytest.raises(ValueError, match="rounds"):
        pair_round(fewer_rounds, config, states=parsed.states)
    fewer_players = dict(parsed.states or {})
    fewer_players.pop(max(fewer_players))
    with pytest.raises(ValueError, match="players"):
        pair_round(tournament, config, states=fewer_players)


@pytest.mark.parametrize("rules", ["2025", "2017"])
def test_explanations_only_when_asked_and_the_same_pairing(rules: str) -> None:
    tournament = parse_trf(CASES[0].read_text()).tournament
    asked = pair_round(tournament, PairingConfig(system="fide-dutch", rules=rules))
    quiet = pair_round(tournament, PairingConfig(system="fide-dutch", rules=rules,
                                                 explain=False))
    assert asked.explanations and not quiet.explanations
    assert (quiet.games, quiet.byes) == (asked.games, asked.byes)
