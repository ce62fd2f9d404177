"""Baku acceleration (TRF-2026 ``192 ..._BAKU``): the virtual points as the endorsed engine
computes them, the 192 line read, checked and written back, and the editions that apply it.

The pairings themselves are checked against bbpPairings 6.0.0 by the ``2025-baku-*`` cases
of tests/fixtures/dutch-rules (test_fide_dutch_rules.py).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swiss.acceleration import baku_acceleration, baku_scoring_problem, pairing_acceleration
from swiss.model import Player, Scoring, Tournament
from swiss.pairing import PairingConfig, PairingError, pair_round
from swiss.trf import TrfError, parse_trf, read_pairs, write_trf
from tests.paths import FIXTURES

CASES = FIXTURES / "dutch-rules"
HALF = Fraction(1, 2)


def field(n: int, rounds: int, scoring: Scoring | None = None, **kw: object) -> Tournament:
    return Tournament(players=tuple(Player(i, f"P{i}") for i in range(1, n + 1)),
                      total_rounds=rounds, scoring=scoring or Scoring.chess(), baku=True,
                      **kw)  # type: ignore[arg-type]


def player_line(pid: int) -> str:
    return f"001 {pid:>4}      {'Player ' + str(pid):<33} {'':>4}{'':28} 0.0 {pid:>4}"


def trf(*lines: str, players: int = 8) -> str:
    return "\n".join(("XXR 9", "XXC white1", *lines,
                      *(player_line(i) for i in range(1, players + 1)))) + "\n"


# -- the virtual points ------------------------------------------------------------------------
@pytest.mark.parametrize(("rounds", "schedule"), [
    # Accelerated rounds: the first ceil(R/2); a win's points in the first half of them
    # (rounded up), a draw's in the rest, as C.04.5.1 says and the engine does.
    (1, [1]), (2, [1]), (3, [1, HALF]), (4, [1, HALF]), (5, [1, 1, HALF]),
    (7, [1, 1, HALF, HALF]), (9, [1, 1, 1, HALF, HALF]), (11, [1, 1, 1, HALF, HALF, HALF]),
])
def test_accelerated_rounds_and_their_points(rounds: int, schedule: list[Fraction]) -> None:
    acc = baku_acceleration(field(12, rounds))
    assert sorted(acc) == list(range(1, len(schedule) + 1))
    assert [set(acc[r].values()) for r in sorted(acc)] == [{v} for v in schedule]


@pytest.mark.parametrize(("n", "group_a"), [(2, 1), (6, 3), (7, 4), (12, 6), (13, 7), (21, 11),
                                            (161, 81)])
def test_group_a_is_the_first_half_rounded_up(n: int, group_a: int) -> None:
    # The engine's reading (probed for 2-25 players): ceil(N/2), not the text's 2*ceil(N/4)
    # (6 -> 4, 13 -> 8, 161 -> 82).
    assert sorted(baku_acceleration(field(n, 9))[1]) == list(range(1, group_a + 1))


def test_group_a_follows_the_pairing_order_and_counts_every_player() -> None:
    # XXC rank order (Player.order), and every player of the tournament, withdrawn or not.
    t = field(6, 5, withdrawn={1: 1})
    t = replace(t, players=tuple(replace(p, order=7 - p.id) for p in t.players))
    assert sorted(baku_acceleration(t)[1]) == [4, 5, 6]


def test_virtual_points_are_a_win_and_a_draw_of_the_point_system() -> None:
    acc = baku_acceleration(field(4, 3, Scoring.custom(2, 1, 0, 2)))
    assert acc == {1: {1: 2, 2: 2}, 2: {1: 1, 2: 1}}


@pytest.mark.parametrize(("scoring", "ok"), [
    (Scoring.chess(), True), (Scoring.custom(2, 1, 0, 2), True),
    (Scoring.custom(1, HALF, 0, HALF), True),  # the bye's points do not matter
    (Scoring.custom(3, 1, 0, 3), False), (Scoring.custom(1, HALF, HALF, 1), False),
    (Scoring.custom(2, HALF, 0, 2), False),
])
def test_the_point_systems_the_method_applies_to(scoring: Scoring, ok: bool) -> None:
    assert (baku_scoring_problem(scoring) is None) is ok


def test_explicit_acceleration_wins_over_baku() -> None:
    t = replace(field(4, 3), acceleration={2: {4: Fraction(1)}})
    assert pairing_acceleration(t) == {2: {4: 1}}
    assert pairing_acceleration(replace(t, acceleration={})) == {1: {1: 1, 2: 1}, 2: {1: HALF,
                                                                                      2: HALF}}
    assert pairing_acceleration(replace(t, acceleration={}, baku=False)) == {}


# -- the editions ------------------------------------------------------------------------------
def test_the_2017_engine_ignores_the_192_code() -> None:
    # bbpPairings 5.0.1 pairs a 192 ..._BAKU file like one without it (its output for this
    # file); 6.0.0 accelerates (the .pairs beside it).
    text = (CASES / "2025-baku-group-a-is-half-the-field.trf").read_text()
    t = parse_trf(text).tournament
    assert t.baku

    def pairs(rules: str) -> tuple[frozenset[tuple[int, int]], int | None]:
        res = pair_round(t, PairingConfig(system="fide-dutch", rules=rules))
        return frozenset((g.white, g.black) for g in res.games), res.pairing_bye

    assert pairs("2017") == read_pairs("7\n1 7\n8 2\n3 9\n10 4\n5 11\n12 6\n13 0\n")
    engine = (CASES / "2025-baku-group-a-is-half-the-field.pairs").read_text()
    assert pairs("2025") == read_pairs(engine)


def test_pairing_refuses_a_baku_tournament_it_cannot_accelerate() -> None:
    config = PairingConfig(system="fide-dutch", rules="2025")
    with pytest.raises(PairingError, match="draw half a win"):
        pair_round(field(6, 5, Scoring.custom(3, 1, 0, 3)), config)
    with pytest.raises(PairingError, match="number of rounds"):
        pair_round(field(6, 0), config)
    # The 2017 edition ignores the code, so nothing to refuse.
    pair_round(field(6, 5, Scoring.custom(3, 1, 0, 3)),
               PairingConfig(system="fide-dutch", rules="2017"))


# -- reading the 192 line ----------------------------------------------------------------------
@pytest.mark.parametrize("code", ["FIDE_DUTCH_2025_BAKU", "FIDE_DUTCH_BAKU",
                                  "FIDE_BURSTEIN_BAKU", "FIDE_DUBOV_BAKU"])
def test_a_baku_code_asks_for_baku(code: str) -> None:
    parsed = parse_trf(trf(f"192 {code}"))
    assert parsed.tournament.baku
    assert parsed.tournament.acceleration == {}
    assert f"192 {code}" in parsed.other_lines


@pytest.mark.parametrize("lines", [
    ("192 FIDE_DUTCH_2025",),
    ("192 FIDE_DUTCH_2025_BAKU", "XXA    7  0.5"),
    ("192 FIDE_DUTCH_2025_BAKU", "XXA    2  0.0"),  # even an XXA line of zeros
    ("250       0.5 002 002 0002 0002", "192 FIDE_DUTCH_2025_BAKU"),
    ("192 FIDE_DUTCH_2025_BAKU", "BBW  3.0", "BBD  1.0", "XXA    2  0.5"),  # no check then
])
def test_no_baku_without_the_code_or_beside_xxa_and_250_lines(lines: tuple[str, ...]) -> None:
    # bbpPairings 6.0.0 disregards the 192 code when XXA or 250 lines are present (and then
    # does not check the point system either).
    assert not parse_trf(trf(*lines)).tournament.baku


@pytest.mark.parametrize(("lines", "line", "column", "fragment"), [
    (("192 FIDE_DUTCH_2025_BAKU", "BBW  3.0", "BBD  1.0"), 3, 5, "draw half a win"),
    (("BBL  0.5", "192 FIDE_DUTCH_BAKU"), 4, 5, "loss to score 0"),
    (("192 FIDE_DUTCH_2025", "192 FIDE_DUTCH_2025_BAKU"), 4, 1, "second 192 line"),
    (("192 fide_dutch_2025_baku",), 3, 5, "capitals"),
    (("192 FIDE_DUTCH BAKU",), 3, 15, "capitals"),
    (("192",), 3, 5, "tournament type code"),
    (("192    ",), 3, 5, "tournament type code"),
    (("192-FIDE_DUTCH",), 3, 4, "column 4"),
])
def test_bad_192_lines_name_line_and_column(lines: tuple[str, ...], line: int, column: int,
                                            fragment: str) -> None:
    with pytest.raises(TrfError, match=fragment) as err:
        parse_trf(trf(*lines))
    assert (err.value.line, err.value.column) == (line, column)


# -- writing it back ---------------------------------------------------------------------------
def test_the_192_line_is_written_back_unchanged() -> None:
    for lines in (("192 FIDE_DUTCH_2025_BAKU",), ("192 FIDE_DUTCH_2025",),
                  ("192 FIDE_DUTCH_BAKU", "XXA    2  0.5")):
        parsed = parse_trf(trf(*lines))
        written = parsed.to_text()
        assert [ln for ln in written.splitlines() if ln[:3] == "192"] == [lines[0]]
        assert parse_trf(written).tournament == parsed.tournament


KEPT = st.sampled_from([(), ("192 FIDE_DUTCH_2025",), ("192 FIDE_DUTCH_2025_BAKU",),
                        ("192 FIDE_DUBOV",), ("192 FIDE_DUBOV_BAKU",)])


@settings(max_examples=100, deadline=None)
@given(n=st.integers(2, 12), rounds=st.integers(0, 11), baku=st.booleans(), kept=KEPT,
       scoring=st.sampled_from([Scoring.chess(), Scoring.custom(2, 1, 0, 2),
                                Scoring.custom(1, HALF, 0, HALF)]))
def test_baku_round_trips_beside_any_kept_192_line(n: int, rounds: int, baku: bool,
                                                   kept: tuple[str, ...],
                                                   scoring: Scoring) -> None:
    """The file written reads back with the model's ``baku``; a kept 192 line that already
    says it is written unchanged, another gets its ``_BAKU`` suffix added or removed."""
    t = Tournament(players=tuple(Player(i, f"P{i}") for i in range(1, n + 1)),
                   total_rounds=rounds, scoring=scoring, baku=baku)
    written = write_trf(t, other_lines=kept)
    parsed = parse_trf(written)
    assert parsed.tournament == t
    types = [ln for ln in written.splitlines() if ln[:3] == "192"]
    assert len(types) == (1 if kept or baku else 0)
    if kept and kept[0].endswith("_BAKU") == baku:
        assert types == list(kept)
    if types:
        assert types[0].endswith("_BAKU") == baku


@pytest.mark.parametrize(("tournament", "fragment"), [
    (replace(field(4, 3), acceleration={1: {1: Fraction(1)}}), "explicit acceleration"),
    (field(4, 3, Scoring.custom(3, 1, 0, 3)), "draw half a win"),
])
def test_what_trf_cannot_say_is_refused(tournament: Tournament, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        write_trf(tournament)
