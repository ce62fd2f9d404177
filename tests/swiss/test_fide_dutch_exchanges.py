"""The exchange order (C.04.3 D.2) when there are too many exchanges to list.

``exchanges`` lists the exchanges of one size in the Handbook's order only up to
``EXCHANGE_CAP`` of them; beyond it ``first_exchange`` finds the first one that reaches the
optimum by matchings. These tests force the cap down so that every exchange goes through the
matchings, and check the result against the listing, and the random-history rounds that
needed more than the cap against bbpPairings (5.0.1 for 2017, 6.0.0 for 2025).
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swiss.pairing import PairingConfig, PairingError, pair_round
from swiss.pairing.fide_dutch import engine, exchange
from swiss.trf import parse_trf, read_pairs
from tests.paths import FIXTURES, REPO

ROOT = REPO
CASES = FIXTURES / "dutch-random"


def _histories() -> ModuleType:
    """scripts/dutch_random_histories.py (its random history generator), loaded by path."""
    spec = importlib.util.spec_from_file_location(
        "dutch_random_histories", ROOT / "scripts" / "dutch_random_histories.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pairing(text: str, rules: str) -> tuple[frozenset[tuple[int, int]], int | None] | None:
    try:
        res = pair_round(parse_trf(text).tournament,
                         PairingConfig(system="fide-dutch", rules=rules))
    except PairingError:
        return None
    return frozenset((g.white, g.black) for g in res.games), res.pairing_bye


@pytest.mark.parametrize("trf", sorted(CASES.glob("*.trf")), ids=lambda p: p.stem)
def test_rounds_needing_more_exchanges_than_the_cap_pair_like_bbppairings(trf: Path) -> None:
    """Random histories (15-40 players, 2017) whose last bracket needed more than 20,000
    exchanges of one size: before, the engine took the split its current optimum fitted
    (or raised "internal: no exchange reaches the optimum") and paired otherwise."""
    rules = trf.name[:4]
    want = read_pairs(trf.with_suffix(".pairs").read_text())
    assert _pairing(trf.read_text(), rules) == want


HISTORY = _histories()


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(7, 16),
       played=st.integers(2, 6), rules=st.sampled_from(["2017", "2025"]))
def test_the_first_exchange_by_matchings_is_the_first_one_listed(
        seed: int, players: int, played: int, rules: str) -> None:
    """With the cap at 0 every exchange is found by ``first_exchange``; with it far above
    every size, by listing them all in order: the same pairing (or the same refusal)."""
    text = HISTORY.random_history(random.Random(seed), players, min(played, players - 2),
                                  played + 2)
    if text is None:
        return
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(exchange, "EXCHANGE_CAP", 10**12)
        listed = _pairing(text, rules)
        mp.setattr(exchange, "EXCHANGE_CAP", 0)
        calls: list[int] = []
        real = engine.first_exchange

        def spy(*args: object) -> tuple[list[int], list[int]]:
            calls.append(1)
            return real(*args)  # type: ignore[arg-type]
        mp.setattr(engine, "first_exchange", spy)
        matched = _pairing(text, rules)
    assert matched == listed
