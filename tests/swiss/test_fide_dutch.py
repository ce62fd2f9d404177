"""FIDE Dutch (``fide-dutch``): identity with the endorsed engine on the conformance corpora,
and the absolute criteria / order independence on random histories (hypothesis)."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swiss.model import ByeKind, Color, Result, Round, Tournament
from swiss.pairing import PairingConfig, PairingError, pair_round
from swiss.pairing.fide_dutch.players import dutch_players
from swiss.trf import format_pairs, parse_trf, read_pairs, write_trf
from tests.pairing_helpers import new_tournament, round_of
from tests.paths import FIXTURES

KNOWN = FIXTURES / "dutch-known-differences.txt"


def _expected(path: Path) -> tuple[frozenset[tuple[int, int]], int | None]:
    return read_pairs(path.read_text())


def _known(rules: str) -> set[str]:
    out = set()
    for line in KNOWN.read_text().splitlines():
        if line.startswith(f"{rules} "):
            out.add(line.split()[1])
    return out


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["2025", "2017"])
def test_corpus_identity_with_the_endorsed_engine(rules: str) -> None:
    """Every corpus round gives bbpPairings' pairs and bye, except the listed known cases."""
    differing = set()
    cases = sorted((FIXTURES / f"dutch-{rules}").glob("t*/round-*.trf"))
    assert len(cases) == 1321
    config = PairingConfig(system="fide-dutch", rules=rules)
    for trf in cases:
        tournament = parse_trf(trf.read_text()).tournament
        try:
            result = pair_round(tournament, config)
            got = (frozenset((g.white, g.black) for g in result.games), result.pairing_bye)
        except PairingError:
            got = None
        if got != _expected(trf.with_suffix(".pairs")):
            differing.add(f"{trf.parent.name}/{trf.stem}")
    known = _known(rules)
    assert sorted(differing - known) == [], "new differences"
    assert sorted(known - differing) == [], "listed differences that now pass: update the list"


def test_accelerated_pairings_match_the_endorsed_engine() -> None:
    """XXA lines (extra points per player and round) as bbpPairings 6.0.0 applies them: they
    count for the round they are given for only, and the board order and E.5 ignore them.
    tests/fixtures/dutch-xxa: generated tournaments with random Baku-like acceleration and
    bbp's pairs (README there)."""
    cases = sorted((FIXTURES / "dutch-xxa").glob("*.trf"))
    assert len(cases) >= 16
    for trf in cases:
        result = pair_round(parse_trf(trf.read_text()).tournament,
                            PairingConfig(system="fide-dutch", rules="2025"))
        assert format_pairs(result) == trf.with_suffix(".pairs").read_text(), trf.name


def test_acceleration_counts_for_the_round_it_is_given_for_only() -> None:
    # 8 players, round 2. Without acceleration 3 and 7 (who lost) are in the bottom group;
    # with 2 extra points in round 2 they lead and meet; the same points given for round 1
    # change nothing.
    t = new_tournament(8, rounds=5)
    t = t.with_round(round_of(1, [(1, 3, Result.WHITE_WINS), (4, 2, Result.DRAW),
                                  (5, 7, Result.WHITE_WINS), (8, 6, Result.BLACK_WINS)]))
    config = PairingConfig(system="fide-dutch")
    plain = format_pairs(pair_round(t, config))
    two = Fraction(2)
    later = dataclasses.replace(t, acceleration={2: {3: two, 7: two}})
    earlier = dataclasses.replace(t, acceleration={1: {3: two, 7: two}})
    assert "3 7" in format_pairs(pair_round(later, config)).splitlines()
    assert format_pairs(pair_round(earlier, config)) == plain


def test_output_is_bbp_format_in_board_order() -> None:
    trf = FIXTURES / "dutch-2025" / "t0003" / "round-02.trf"
    result = pair_round(parse_trf(trf.read_text()).tournament,
                        PairingConfig(system="fide-dutch"))
    assert format_pairs(result) == trf.with_suffix(".pairs").read_text()


def test_no_legal_pairing_raises() -> None:
    # Three players, round 4: everyone has met everyone and had the bye (C1, C2).
    t = new_tournament(3, rounds=4)
    t = t.with_round(round_of(1, [(1, 2, Result.DRAW)], [(3, ByeKind.PAIRING)]))
    t = t.with_round(round_of(2, [(3, 1, Result.DRAW)], [(2, ByeKind.PAIRING)]))
    t = t.with_round(round_of(3, [(2, 3, Result.DRAW)], [(1, ByeKind.PAIRING)]))
    with pytest.raises(PairingError):
        pair_round(t, PairingConfig(system="fide-dutch"))


def test_unknown_rules_are_refused() -> None:
    with pytest.raises(ValueError, match="2025 or 2017"):
        PairingConfig(system="fide-dutch", rules="2019")


RESULTS = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW, Result.DRAW,
           Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN)


def _random_history(n: int, rounds: int, played: int, seed: int, rules: str) -> Tournament:
    rng = random.Random(seed)
    t = new_tournament(n, rounds=rounds)
    config = PairingConfig(system="fide-dutch", rules=rules)
    for _ in range(played):
        nxt = t.next_round
        if rng.random() < 0.3 and n > 3:
            t = t.with_requested_bye(nxt, rng.randint(1, n),
                                     rng.choice([ByeKind.HALF, ByeKind.ZERO]))
        try:
            pairing = pair_round(t, config)
        except PairingError:
            break
        games = tuple(g.with_result(rng.choice(RESULTS)) for g in pairing.games)
        t = t.with_round(Round(pairing.round_number, games, pairing.byes))
    return t


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(4, 24), played=st.integers(0, 5), seed=st.integers(0, 10**6),
       rules=st.sampled_from(["2025", "2017"]))
def test_absolute_criteria_hold_on_random_histories(
    n: int, played: int, seed: int, rules: str
) -> None:
    total = played + 2
    t = _random_history(n, total, played, seed, rules)
    try:
        result = pair_round(t, PairingConfig(system="fide-dutch", rules=rules))
    except PairingError:
        return
    rnd = t.next_round
    requested = t.requested_byes.get(rnd, {})
    to_pair = [p.id for p in t.players if p.id not in requested]
    info = dutch_players(t, rnd, to_pair, rules)
    seen = sorted([p for g in result.games for p in g.players]
                  + ([result.pairing_bye] if result.pairing_bye else []))
    assert seen == sorted(to_pair)
    for g in result.games:
        a, b = info[g.white], info[g.black]
        assert g.black not in a.played  # C1
        if not (a.topscorer or b.topscorer):  # C3
            assert not (a.strength == 3 and b.strength == 3 and a.pref == b.pref)
        # An absolute preference is always granted when the opponent has none against it.
        if a.strength == 3 and b.strength < 3:
            assert a.pref is Color.WHITE
        if b.strength == 3 and a.strength < 3:
            assert b.pref is Color.BLACK
    if result.pairing_bye is not None:
        assert info[result.pairing_bye].can_pab  # C2


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(4, 20), played=st.integers(1, 4), seed=st.integers(0, 10**6),
       rules=st.sampled_from(["2025", "2017"]))
def test_result_does_not_depend_on_the_order_of_player_lines(
    n: int, played: int, seed: int, rules: str
) -> None:
    t = _random_history(n, played + 2, played, seed, rules)
    text = write_trf(t)
    lines = text.split("\n")
    players = [line for line in lines if line.startswith("001")]
    others = [line for line in lines if not line.startswith("001")]
    random.Random(seed).shuffle(players)
    shuffled = "\n".join(others[:-1] + players + others[-1:])
    config = PairingConfig(system="fide-dutch", rules=rules)
    try:
        a = pair_round(parse_trf(text).tournament, config)
    except PairingError:
        with pytest.raises(PairingError):
            pair_round(parse_trf(shuffled).tournament, config)
        return
    b = pair_round(parse_trf(shuffled).tournament, config)
    assert format_pairs(a) == format_pairs(b)
