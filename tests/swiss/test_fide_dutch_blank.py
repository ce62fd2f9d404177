"""Blank rounds (round 1 and the like) are paired without a graph: the same pairing.

:mod:`swiss.pairing.fide_dutch.blank` writes down the first candidate of every bracket when
nothing but scores and pairing numbers tells the players apart. These tests compare it with
the full engine (the matching and its tie-break) on random blank rounds, pin a small
accelerated case to bbpPairings' pairing, and check the conditions under which it applies.
(Against bbpPairings on round-1 TRFs of 5-1,000 players: scripts/dutch_round1.py.)
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import swiss.pairing.fide_dutch as fide_dutch
from swiss.model import Bye, ByeKind, Color, Game, Player, Result, Round, Scoring, Tournament
from swiss.pairing import PairingConfig, pair_round
from swiss.pairing.fide_dutch.blank import first_candidates, is_blank_round
from swiss.pairing.fide_dutch.players import dutch_players
from swiss.trf import parse_trf, read_pairs
from tests.paths import FIXTURES

Outcome = tuple[frozenset[tuple[int, int]], int | None]


def _pair(t: Tournament, rules: str, *, graph: bool = False) -> Outcome:
    config = PairingConfig(system="fide-dutch", rules=rules, explain=False)
    if graph:  # the full engine: never take the graph-free path
        with mock.patch.object(fide_dutch, "is_blank_round", lambda *_a: False):
            res = pair_round(t, config)
    else:
        res = pair_round(t, config)
    return frozenset((g.white, g.black) for g in res.games), res.pairing_bye


def _blank(t: Tournament, rules: str) -> bool:
    number = t.next_round
    to_pair = [p.id for p in t.players if t.is_active(p.id, number)
               and p.id not in t.requested_byes.get(number, {})]
    return is_blank_round(dutch_players(t, number, to_pair, rules), t.forbidden_pairs)


@st.composite
def blank_rounds(draw: st.DrawFn) -> tuple[Tournament, str]:
    """A round where no one has played: round 1 (byes requested, absences, accelerated
    pairings in up to five score groups, pairing numbers not the ids, either initial colour,
    1-9 rounds, Baku acceleration), or (2025) round 2 after a round of zero-point byes."""
    rules = draw(st.sampled_from(["2025", "2017"]))
    n = draw(st.integers(1, 40))
    orders = draw(st.permutations(range(1, n + 1)))
    shuffled = draw(st.booleans())
    players = tuple(Player(i, f"P{i}", order=orders[i - 1] if shuffled else 0)
                    for i in range(1, n + 1))
    total = draw(st.integers(1, 9))
    scoring = draw(st.sampled_from([Scoring(), Scoring.custom(3, 1, 0, 3),
                                    Scoring.custom(2, 1, 0, 2)]))
    t = Tournament(players=players, total_rounds=total, scoring=scoring,
                   initial_color=draw(st.sampled_from([Color.WHITE, Color.BLACK])))
    ids = list(range(1, n + 1))
    byes = draw(st.lists(st.sampled_from(ids), max_size=n // 4, unique=True))
    kinds = st.sampled_from([ByeKind.HALF, ByeKind.ZERO, ByeKind.FULL])
    number = 1
    if rules == "2025" and draw(st.booleans()):
        # Round 1: every player absent with a zero-point bye (no float in 2025, art. 1.4.3).
        t = t.with_round(Round(1, byes=tuple(Bye(pid, ByeKind.ZERO) for pid in ids)))
        number = 2
        if total < 2:
            t = replace(t, total_rounds=2)
    for pid in byes:
        t = t.with_requested_bye(number, pid, draw(kinds))
    for pid in draw(st.lists(st.sampled_from(ids), max_size=n // 5, unique=True)):
        if pid not in byes:
            t = t.with_withdrawal(pid, number)
    accel = draw(st.sampled_from(["none", "xxa", "baku"]))
    if accel == "xxa":
        points = st.sampled_from([Fraction(v, 2) for v in range(0, 9)])
        extra = {pid: draw(points) for pid in ids}
        t = replace(t, acceleration={number: {p: v for p, v in extra.items() if v}})
    elif accel == "baku" and scoring == Scoring():
        t = replace(t, baku=True)
    return t, rules


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(blank_rounds())
def test_blank_rounds_pair_as_the_full_engine(case: tuple[Tournament, str]) -> None:
    t, rules = case
    assert _blank(t, rules)
    assert _pair(t, rules) == _pair(t, rules, graph=True)


def test_round_one_builds_no_graph() -> None:
    """3,000 players: S1[i] against S2[i], colours alternating from the initial colour, and
    no bracket matching at all (before, one graph of 4.5 million edges)."""
    t = Tournament(players=tuple(Player(i, f"P{i}") for i in range(1, 3002)), total_rounds=9)
    with mock.patch.object(fide_dutch, "pair_brackets", side_effect=AssertionError("graph")):
        pairs, pab = _pair(t, "2025")
    assert pab == 3001  # the lowest-ranked of an odd field
    want = {(i, 1500 + i) if i % 2 else (1500 + i, i) for i in range(1, 1501)}
    assert pairs == want


# bbpPairings 6.0.0 and 5.0.1 both pair this file so (`-p`): two score groups by XXA,
# 3 and 4 players, odd: 1-2 in the top group, 3 moves down and meets 4, 5-6, 7 the PAB.
ACCELERATED = """XXR 5
XXC white1
001    1      Player 1                          2400                             0.0    1
001    2      Player 2                          2300                             0.0    2
001    3      Player 3                          2200                             0.0    3
001    4      Player 4                          2100                             0.0    4
001    5      Player 5                          2000                             0.0    5
001    6      Player 6                          1900                             0.0    6
001    7      Player 7                          1800                             0.0    7
XXA    1  1.0  0.0  0.0  0.0  0.0
XXA    2  1.0  0.0  0.0  0.0  0.0
XXA    3  1.0  0.0  0.0  0.0  0.0
"""


@pytest.mark.parametrize("rules", ["2025", "2017"])
def test_accelerated_round_one_moves_the_last_of_the_top_group_down(rules: str) -> None:
    t = parse_trf(ACCELERATED).tournament
    assert _blank(t, rules)
    assert _pair(t, rules) == (frozenset({(1, 2), (3, 4), (5, 6)}), 7)


def test_first_candidates_of_score_groups() -> None:
    """Groups of 3, 1, 2, 3 players: floats 3 -> 4 (paired), 5-6 even, 7-8, 9 left."""
    scores = [3, 3, 3, 2, 1, 1, 0, 0, 0]
    t = Tournament(players=tuple(Player(i, f"P{i}") for i in range(1, 10)), total_rounds=3,
                   acceleration={1: {i: Fraction(s) for i, s in enumerate(scores, 1) if s}})
    players = dutch_players(t, 1, list(range(1, 10)), "2025")
    assert first_candidates(players, list(range(1, 10))) == (
        [(1, 2), (3, 4), (5, 6), (7, 8)], 9)


def _round_one(n: int = 6) -> Tournament:
    return Tournament(players=tuple(Player(i, f"P{i}") for i in range(1, n + 1)),
                      total_rounds=5)


def test_not_blank_with_a_forbidden_pair_among_the_players() -> None:
    t = _round_one().with_forbidden_pair(1, 4)
    assert not _blank(t, "2025")
    pairs, _ = _pair(t, "2025")
    assert (1, 4) not in pairs and (4, 1) not in pairs
    # A forbidden pair with someone not paired this round does not matter.
    assert _blank(_round_one().with_forbidden_pair(1, 99), "2025")


def test_not_blank_once_someone_has_played_or_floated() -> None:
    t = _round_one()
    game = Game(1, 2, Result.DRAW, board=1)
    assert not _blank(t.with_round(Round(1, games=(game,))), "2025")
    # Round 1 without a game, player 1 with a half-point bye, the others absent: 1 has a
    # downfloat (2025 art. 1.4.3), so the graph decides (C12-C15).
    half = t.with_round(Round(1, byes=(Bye(1, ByeKind.HALF),)))
    assert not _blank(half, "2025")
    # A zero-point bye: no float in 2025, and everyone has one unplayed round; in 2017 every
    # unplayed round is a downfloat (A.4.b).
    zero = t.with_round(Round(1, byes=(Bye(1, ByeKind.ZERO),)))
    assert _blank(zero, "2025")
    assert not _blank(zero, "2017")


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["2025", "2017"])
def test_corpus_round_ones_take_the_graph_free_path_and_pair_as_bbppairings(rules: str) -> None:
    """The 200 round-1 files of each conformance corpus (byes requested, absences, the
    corpus's point systems): all blank, all paired as bbpPairings pairs them."""
    base = FIXTURES / f"dutch-{rules}"
    files = sorted(base.glob("t*/round-01.trf"))
    assert len(files) == 200
    for trf in files:
        t = parse_trf(trf.read_text()).tournament
        assert _blank(t, rules), trf
        assert _pair(t, rules) == read_pairs(trf.with_suffix(".pairs").read_text()), trf
