"""The 2017 round-pairing outlook (completion.completable) answers as the full graph does.

Its first try is a sparse graph (each player with the next few in rank); the test shrinks
that window so the sparse try both succeeds and fails on small rounds, and checks every
answer the engine asks for against a perfect matching of all the allowed pairs.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swiss.pairing import PairingConfig, PairingError, pair_round
from swiss.pairing.fide_dutch import completion, engine
from swiss.pairing.fide_dutch.edges import RoundArrays, allowed_pairs
from tests.swiss.test_fide_dutch import _random_history
from tests.swiss.test_fide_dutch_implicit import _with_forbidden


def _full(ra: RoundArrays, players: list[int]) -> bool:
    pos = np.array(sorted(ra.pos[p] for p in players), dtype=np.int64)
    us, vs, _ = allowed_pairs(ra, pos)
    return completion._has_perfect(ra, pos, us, vs)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(8, 40), played=st.integers(1, 6), seed=st.integers(0, 10**6),
       window=st.sampled_from([1, 2, 3]), subsets=st.booleans())
def test_completable_answers_as_the_full_graph(
    n: int, played: int, seed: int, window: int, subsets: bool
) -> None:
    rng = random.Random(seed)
    t = _with_forbidden(_random_history(n, played + 2, played, seed, "2017"), rng, n)
    original = engine.completable

    def checked(ra: RoundArrays, players: list[int]) -> bool:
        got = original(ra, players)
        assert got == _full(ra, players)
        if subsets:  # other sets of players too, for more "no" answers
            ids = list(ra.ids)
            for _ in range(5):
                some = rng.sample(ids, rng.randint(1, len(ids)))
                assert original(ra, some) == _full(ra, some)
                # A player with the opponents met (C1 refuses all their pairs), and a few more.
                pid = rng.choice(ids)
                met = sorted(ra.players[ra.pos[pid]].played & set(ids))
                some = [pid, *met, *rng.sample(ids, rng.randint(0, 2))]
                some = list(dict.fromkeys(some))
                assert original(ra, some) == _full(ra, some)
        return got

    saved = completion.COMPLETABLE_WINDOW
    completion.COMPLETABLE_WINDOW, engine.completable = window, checked
    try:
        pair_round(t, PairingConfig(system="fide-dutch", rules="2017"))  # type: ignore[arg-type]
    except PairingError:
        pass
    finally:
        completion.COMPLETABLE_WINDOW, engine.completable = saved, original
