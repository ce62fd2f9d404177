"""A real event with its published tiebreak values: Hamilton Chess Club Championship 2018.

Source: the crosstable and tie-break table the Hamilton Chess Club (New Zealand) published on
11 April 2018, https://hamiltonchess.net/2018/04/11/richard-on-tie-break/ , typed in as
tests/fixtures/standings/hamilton_2018.trf (27 players, 6 rounds, half-point byes in rounds 1
and 4, a pairing bye every other round, two players absent in round 6).

The club used the NZCF order -- direct encounter, cumulative (progressive) score, total
Buchholz, Sonneborn-Berger, Buchholz cut 1 -- and published for the two leaders on 5.5:

=================  ====  ====  =====  =====  ====
player             DirE  Cmlt  BucT   S-B    Buc1
=================  ====  ====  =====  =====  ====
1 Richard Dare     0.5   19.5  22.5   19.75  20.0
2 Graham Nolan     0.5   19.5  20.0   17.25  19.5
=================  ====  ====  =====  =====  ====

Those values follow the pre-2023 rule (C.02 13.15): Graham's opponent Maureen Murphy (1 point,
all from a pairing bye) counts 0.5 for him, and Hilton Bennett (3.5, a half-point bye and an
absence) counts 4. We reproduce them with ``unplayed="c02"``.
"""

from __future__ import annotations

from fractions import Fraction as F
from functools import partial

import pytest

from swiss.model import Tournament
from swiss.standings import compute_standings as _compute_standings
from swiss.standings import explain_player as _explain_player
from tests.paths import FIXTURES

# These cases were computed by hand for the C.07 edition of August 2024: pin it.
compute_standings = partial(_compute_standings, rules="2024")
explain_player = partial(_explain_player, rules="2024")

FIXTURE = FIXTURES / "standings" / "hamilton_2018.trf"
NZCF = ["DE", "PS", "BH", "SB", "BH-C1"]
PUBLISHED = {
    1: (F(39, 2), F(45, 2), F(79, 4), F(20)),
    2: (F(39, 2), F(20), F(69, 4), F(39, 2)),
}


@pytest.fixture(scope="module")
def hamilton() -> Tournament:
    from swiss.trf import parse_trf

    return parse_trf(FIXTURE.read_text(encoding="utf-8")).tournament


def test_fixture_matches_the_published_crosstable(hamilton: Tournament) -> None:
    standings = compute_standings(hamilton, [])
    points = {row.player_id: row.points for row in standings.rows}
    assert len(points) == 27 and hamilton.rounds_played == 6
    assert points[1] == points[2] == F(11, 2)
    assert points[9] == points[11] == F(7, 2) and points[27] == 1
    assert sum(points.values()) == 82  # 75 games + 4 pairing byes + 6 half-point byes x 0.5


def test_published_tiebreaks_of_the_leaders(hamilton: Tournament) -> None:
    standings = compute_standings(hamilton, NZCF, unplayed="c02")
    assert standings.tiebreaks == ("DE", "PS", "BH", "SB", "BH-C1")
    top = standings.rows[:2]
    assert [row.player_id for row in top] == [1, 2]  # Richard wins on the third tiebreak
    assert [row.rank for row in top] == [1, 2]
    for row in top:
        assert row.values[0] == 0  # they drew: DE cannot separate them
        assert row.values[1:] == PUBLISHED[row.player_id]


def test_direct_encounter_working_shows_the_published_half_point(hamilton: Tournament) -> None:
    explanation = {e.acronym: e for e in explain_player(hamilton, 1, NZCF, unplayed="c02")}
    assert "0.5 points against them (met 1 of 1)" in explanation["DE"].text
    assert "#2 Graham Nolan" in explanation["DE"].text
    bh_c1 = explain_player(hamilton, 2, ["BH-C1"], unplayed="c02")[0]
    assert "cut: r1 #27 Maureen Murphy 0.5" in bh_c1.text


def test_the_same_event_under_c07(hamilton: Tournament) -> None:
    # C.07 (2024-08): a pairing bye is not voluntary, so Maureen counts her full 1 point;
    # Hilton's round-6 absence (after his last game) still counts as a draw: 4.
    standings = compute_standings(hamilton, NZCF, unplayed="c07")
    graham = standings.row(2)
    assert graham.values[2:] == (F(41, 2), F(71, 4), F(39, 2))  # BH 20.5, SB 17.75, cut 1
    richard = standings.row(1)
    assert richard.values[1:] == PUBLISHED[1]  # no unplayed rounds around him
    # Milton Severinsen (half-point bye in round 1): dummy = own 4 points under C.07 ...
    assert standings.row(3).values[2] == 25
    # ... and the virtual opponent 0 + 0.5 + 0.5 x 5 = 3 under C.02.
    assert compute_standings(hamilton, ["BH"], unplayed="c02").row(3).values[0] == 24
