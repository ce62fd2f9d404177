"""Tie-break tests settled by compiled matchings (swiss/pairing/fide_dutch/settle.py) pair
exactly as without them: random histories, both editions, implicit edges forced on and off,
the settling forced on every bracket (no size threshold)."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swiss.pairing import PairingConfig, PairingError, pair_round
from swiss.pairing.fide_dutch import engine, tiebreak
from tests.swiss.test_fide_dutch import _random_history
from tests.swiss.test_fide_dutch_implicit import _with_forbidden


def _pair(t: object, rules: str, settle: bool, implicit: bool,
          counts: Counter[str] | None = None) -> object:
    saved = (tiebreak.SETTLE_TESTS, tiebreak.BRACKET_CHECK_MIN_EDGES,
             engine.IMPLICIT_MIN_PLAYERS, tiebreak.TieBreak.__init__)
    orig_init = tiebreak.TieBreak.__init__
    made: list[tiebreak.TieBreak] = []

    def init(self: tiebreak.TieBreak, *args: object, **kwargs: object) -> None:
        orig_init(self, *args, **kwargs)  # type: ignore[arg-type]
        made.append(self)

    tiebreak.SETTLE_TESTS = settle
    tiebreak.BRACKET_CHECK_MIN_EDGES = 0
    engine.IMPLICIT_MIN_PLAYERS = 0 if implicit else 10**9
    tiebreak.TieBreak.__init__ = init  # type: ignore[method-assign]
    try:
        result = pair_round(t, PairingConfig(system="fide-dutch", rules=rules))  # type: ignore[arg-type]
    except PairingError as exc:
        return str(exc)
    finally:
        (tiebreak.SETTLE_TESTS, tiebreak.BRACKET_CHECK_MIN_EDGES, engine.IMPLICIT_MIN_PLAYERS,
         tiebreak.TieBreak.__init__) = saved  # type: ignore[method-assign]
        if counts is not None:
            for tb in made:
                counts.update(tb.counts)
    return (sorted((g.white, g.black) for g in result.games), result.pairing_bye)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(8, 44), played=st.integers(1, 6), seed=st.integers(0, 10**6),
       rules=st.sampled_from(["2025", "2017"]), implicit=st.booleans())
def test_settled_tests_pair_as_solves(n: int, played: int, seed: int, rules: str,
                                      implicit: bool) -> None:
    rng = random.Random(seed)
    t = _with_forbidden(_random_history(n, played + 2, played, seed, rules), rng, n)
    assert _pair(t, rules, True, implicit) == _pair(t, rules, False, implicit)


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["2025", "2017"])
def test_settling_decides_tests_that_needed_solves(rules: str) -> None:
    """On later rounds of a 60-player event the compiled decisions settle tests (rejections
    by blossoms or the bracket, acceptances by re-augmenting) that otherwise go to
    _bracket_can_match or a solve, and the pairing is the same."""
    on: Counter[str] = Counter()
    off: Counter[str] = Counter()
    for seed in range(3):
        t = _random_history(60, 8, 5, seed, rules)
        for implicit in (False, True):
            assert _pair(t, rules, True, implicit, on) == _pair(t, rules, False, implicit, off)
    settled = sum(v for k, v in on.items() if k.startswith("settle_"))
    assert settled > 0, on
    assert on["solve no"] + on["solve yes"] < off["solve no"] + off["solve yes"], (on, off)


def test_pin_masks_from_the_adjacency_equal_the_predicates(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """A pin's mask listed from its two vertices' edges is its predicate on every edge."""
    orig = tiebreak.TieBreak._mask
    compared = 0

    def checked(self: tiebreak.TieBreak, pred: tiebreak.Mask) -> object:
        nonlocal compared
        got = orig(self, pred)
        want = pred(self.solver.us, self.solver.vs)
        assert np.array_equal(got, want)
        compared += isinstance(pred, tiebreak.Pin) and self._settle is not None
        return got

    monkeypatch.setattr(tiebreak.TieBreak, "_mask", checked)
    for rules in ("2025", "2017"):
        for seed in range(2):
            t = _random_history(60, 8, 5, seed, rules)
            _pair(t, rules, True, seed == 1)
    assert compared > 20
