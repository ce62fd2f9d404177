"""Property tests of the TCEC system over many random tournaments and results (hypothesis).

The invariants the page states (|WGD| <= 2 always; after an odd number of rounds without a bye
|WGD| = 1 for everyone; the per-pair bound), the structure of every round, and agreement with
:class:`tests.tcec_support.ReferenceTcec`, an independent in-memory implementation.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import event as label
from hypothesis import strategies as st

from swiss.model import ByeKind, Tournament
from swiss.pairing import pair_round, tcec
from swiss.pairing.tcec import encounter_history, tcec_states
from tests.tcec_support import (
    PLAYED,
    TCEC,
    TCEC_DOUBLE,
    ReferenceTcec,
    pairs_of,
    players,
    with_results,
)

SETTINGS = settings(max_examples=80, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def events(draw: st.DrawFn, max_players: int = 12) -> tuple[Tournament, int, random.Random]:
    """A field with shuffled seeds, a number of rounds (often more than a round robin)."""
    n = draw(st.integers(2, max_players))
    seeds = draw(st.permutations(range(1, n + 1)))
    rounds = draw(st.integers(1, n + 3))
    rng = random.Random(draw(st.integers(0, 2**32)))
    return Tournament(players=players(n, seeds)), rounds, rng


@pytest.mark.slow
@SETTINGS
@given(events())
def test_single_round_invariants(event: tuple[Tournament, int, random.Random]) -> None:
    t, rounds, rng = event
    n = len(t.players)
    for number in range(1, rounds + 1):
        before = tcec_states(t)
        pairing = pair_round(t, TCEC)
        # every player exactly once: one game or the bye
        seen = Counter(p for g in pairing.games for p in g.players)
        seen.update(b.player for b in pairing.byes)
        assert sorted(seen) == sorted(p.id for p in t.players) and set(seen.values()) == {1}
        assert len(pairing.games) == n // 2
        # the pairing respects the encounter history it reports
        history = encounter_history(t)
        removed_now = {int(note.split("removed round ")[1].split()[0])
                       for note in pairing.notes if "removed round" in note}
        kept = set(history.kept_rounds) - removed_now
        for g in pairing.games:
            assert not any(pairs_of(t.rounds[k - 1]) & {frozenset(g.players)} for k in kept)
            assert abs(before[g.white].wgd + before[g.black].wgd) <= 2
        t = t.with_round(with_results(pairing, [rng.choice(PLAYED) for _ in pairing.games]))
        after = tcec_states(t)
        for g in pairing.games:  # the page's per-pair statement
            w0, b0 = before[g.white].wgd, before[g.black].wgd
            total = abs(after[g.white].wgd) + abs(after[g.black].wgd)
            assert total == 2 if (w0, b0) == (0, 0) else total <= 2
        for st_ in after.values():
            assert abs(st_.wgd) <= 2
            assert st_.wgd % 2 == st_.games % 2  # WGD has the parity of the games played
        byes = [s.byes for s in after.values()]
        assert max(byes) - min(byes) <= 1  # byes go round before anyone gets a second
        if n % 2 == 0 and number % 2 == 1:
            assert {abs(s.wgd) for s in after.values()} == {1}


@pytest.mark.slow
@SETTINGS
@given(events(max_players=10), st.booleans())
def test_engine_agrees_with_the_in_memory_reference(
    event: tuple[Tournament, int, random.Random], double: bool
) -> None:
    """Same games, colours, playing order and byes; the reference keeps its history in memory,
    the engine replays it from the stored rounds, so this also checks the replay."""
    t, rounds, rng = event
    reference = ReferenceTcec({p.id: p.seed for p in t.players}, double=double)
    config = TCEC_DOUBLE if double else TCEC
    for number in range(1, rounds + 1):
        if rng.random() < 0.3:  # also replay from scratch, not only from the memo
            tcec._REPLAYS.clear()
        pairing = pair_round(t, config)
        expected_games, expected_bye = reference.pair(number)
        assert [(g.white, g.black) for g in pairing.games] == expected_games
        assert pairing.pairing_bye == expected_bye
        results = [rng.choice(PLAYED) for _ in pairing.games]
        t = t.with_round(with_results(pairing, results))
        reference.record([(g.white, g.black, r) for g, r in zip(pairing.games, results,
                                                                   strict=True)], expected_bye)
    assert len(encounter_history(t).removals) == reference.removed
    label("history removals" if reference.removed else "no history removal")


@settings(max_examples=25, deadline=None)
@given(events(max_players=9))
def test_double_rounds_keep_every_wgd_at_zero(
    event: tuple[Tournament, int, random.Random],
) -> None:
    t, rounds, rng = event
    for _ in range(rounds):
        pairing = pair_round(t, TCEC_DOUBLE)
        assert len(pairing.games) == 2 * (len(t.players) // 2)
        t = t.with_round(with_results(pairing, [rng.choice(PLAYED) for _ in pairing.games]))
        assert {s.wgd for s in tcec_states(t).values()} == {0}


@settings(max_examples=25, deadline=None)
@given(events(max_players=9))
def test_the_bye_goes_to_the_lowest_of_those_with_fewest_byes(
    event: tuple[Tournament, int, random.Random],
) -> None:
    t, rounds, rng = event
    for _ in range(rounds):
        states = tcec_states(t)
        pairing = pair_round(t, TCEC)
        if pairing.pairing_bye is not None:
            fewest = min(s.byes for s in states.values())
            bye = states[pairing.pairing_bye]
            assert bye.byes == fewest
            below = [s for s in states.values() if s.byes == fewest
                     and (-s.score, s.seed) > (-bye.score, bye.seed)]
            assert not below
            assert [b.kind for b in pairing.byes] == [ByeKind.PAIRING]
        t = t.with_round(with_results(pairing, [rng.choice(PLAYED) for _ in pairing.games]))
