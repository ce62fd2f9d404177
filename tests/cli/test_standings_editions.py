"""The two C.07 editions (2024, 2026) and the tie-breaks added for them, on hand-computed cases.

Every expected value is worked out in the comments from the crosstables of
tests/standings_cases.py (``club_swiss``, ``card_event``) or of the small events built here.
"""

from __future__ import annotations

import json
from datetime import date
from fractions import Fraction as F
from pathlib import Path

import pytest

from cli.main import main
from swiss.model import Bye, ByeKind, Game, Player, Result, Round, Tournament
from swiss.standings import (
    compute_standings,
    edition_for_date,
    explain_player,
    next_step,
    remaining_ties,
    trf_start_date,
)
from swiss.standings.rating import expected_score, perfect_performance
from tests.paths import FIXTURES
from tests.standings_cases import card_event, club_swiss

W, B, D = Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW
BF = Result.BLACK_FORFEIT_WIN
CLUB_TRF = FIXTURES / "standings" / "club_swiss.trf"


def values(t: Tournament, acronym: str, rules: str) -> dict[int, F]:
    standings = compute_standings(t, [acronym], rules=rules)
    return {row.player_id: row.values[0] for row in standings.rows}


def three_rounds_half_bye() -> Tournament:
    """Player 1 wins twice and takes a half-point bye in the last of 3 rounds.

    r1: 1-2 1-0, 3-4 =, 5 PAB;  r2: 1-3 1-0, 2-5 1-0, 4 PAB;  r3: 1 half bye, 2-3 =, 4-5 1-0.
    Scores: 1 2.5, 2 1.5, 3 1, 4 2.5, 5 1.
    """
    players = tuple(Player(i, f"P{i}", 2000) for i in range(1, 6))
    rounds = (
        Round(1, (Game(1, 2, W), Game(3, 4, D)), (Bye(5, ByeKind.PAIRING),)),
        Round(2, (Game(1, 3, W), Game(2, 5, W)), (Bye(4, ByeKind.PAIRING),)),
        Round(3, (Game(2, 3, D), Game(4, 5, W)), (Bye(1, ByeKind.HALF),)),
    )
    return Tournament(players, rounds, total_rounds=3)


def two_vurs() -> Tournament:
    """Player 1 has two voluntary unplayed rounds with different 2026 dummy scores.

    r1: 1-2 1-0, 3-4 0-1, 5-6 =;   r2: 1-3 1-0, 2-5 0-1, 4-6 1-0;
    r3: 1 half bye, 2-4 0-1, 3-6 =, 5 zero bye;   r4: 1-4 forfeit (4 wins), 2-3 =, 5-6 =.
    Scores: 1 2.5, 2 0.5, 3 1, 4 4, 5 2, 6 1.5.
    """
    players = tuple(Player(i, f"P{i}", 2000) for i in range(1, 7))
    rounds = (
        Round(1, (Game(1, 2, W), Game(3, 4, B), Game(5, 6, D))),
        Round(2, (Game(1, 3, W), Game(2, 5, B), Game(4, 6, W))),
        Round(3, (Game(2, 4, B), Game(3, 6, D)),
              (Bye(1, ByeKind.HALF), Bye(5, ByeKind.ZERO))),
        Round(4, (Game(1, 4, BF), Game(2, 3, D), Game(5, 6, D))),
    )
    return Tournament(players, rounds, total_rounds=4)


# -- the edition in force ------------------------------------------------------------------------
def test_edition_in_force_follows_the_start_date() -> None:
    assert edition_for_date(date(2026, 2, 28)) == "2024"
    assert edition_for_date(date(2026, 3, 1)) == "2026"
    assert edition_for_date(None) == "2026"  # no date: the edition in force today
    assert trf_start_date(["012 X", "042 2025/10/04"]) == date(2025, 10, 4)
    assert trf_start_date(["042 2026-03-01"]) == date(2026, 3, 1)
    assert trf_start_date(["042 "]) is None  # blank: no date
    with pytest.raises(ValueError, match=r"line 7, column 5: the start date \(042\) 'sometime'"):
        trf_start_date(["042 sometime"], [7])
    with pytest.raises(ValueError, match=r"line 3, column 13: .* ASCII digits"):
        trf_start_date(["012 X", "042 2025/05/١٢"], [1, 3])


def test_start_date_selects_the_edition_when_rules_are_not_given() -> None:
    t = three_rounds_half_bye()
    before = compute_standings(t, ["BH"], start_date=date(2025, 6, 1))
    after = compute_standings(t, ["BH"], start_date=date(2026, 3, 1))
    assert (before.edition, before.row(1).values[0]) == ("2024", 5)
    assert (after.edition, after.row(1).values[0]) == ("2026", 4)
    with pytest.raises(ValueError, match="use 2026 or 2024"):
        compute_standings(t, ["BH"], rules="2022")


# -- art. 16.4: the dummy opponent of an unplayed round --------------------------------------------
def test_half_point_bye_in_a_three_round_event() -> None:
    # Opponents 2 (1.5) and 3 (1) give 2.5. 2024: dummy = own score 2.5 -> BH 5.
    # 2026 (16.4.2): dummy capped at draw x rounds = 0.5 x 3 = 1.5 -> BH 4.
    t = three_rounds_half_bye()
    assert values(t, "BH", "2024")[1] == 5
    assert values(t, "BH", "2026")[1] == 4
    # SB: wins over 2 and 3 give 2.5; the bye adds dummy x 0.5: 1.25 (2024), 0.75 (2026).
    assert values(t, "SB", "2024")[1] == F(15, 4)
    assert values(t, "SB", "2026")[1] == F(13, 4)
    # Pairing-allocated byes: player 5 (1 point) is below the cap 1.5, player 4 (2.5) is not:
    # 4 met 3 (1) and 5 (1): 2024 1 + 2.5 + 1 = 4.5; 2026 1 + 1.5 + 1 = 3.5.
    assert values(t, "BH", "2024")[4] == F(9, 2)
    assert values(t, "BH", "2026")[4] == F(7, 2)
    # Player 5 (1 point, PAB in r1, lost to 2 and 4): dummy 1 is under the cap: 1 + 1.5 + 2.5.
    assert values(t, "BH", "2024")[5] == values(t, "BH", "2026")[5] == 5


def test_forfeit_dummy_capped_at_the_scheduled_opponents_score() -> None:
    # Chen (#3) lost round 2 by forfeit to Dora, whose score for the opponents is 1.5.
    # 2024: 1.5 (Fay) + dummy 2 + 2 (Emil) + 3 (Anna) = 8.5; 2026 (16.4.1): dummy 1.5 -> 8.
    assert values(club_swiss(), "BH", "2024")[3] == F(17, 2)
    assert values(club_swiss(), "BH", "2026")[3] == 8
    text = explain_player(club_swiss(), 3, ["BH"], rules="2026")[0]
    assert "own 2 capped" in text.text and text.edition == "2026"
    assert text.article.startswith("art. 8.1")
    # Dora (#4): forfeit win against Chen (2) and a half bye: both dummies stay at her 1.5.
    assert values(club_swiss(), "BH", "2024")[4] == values(club_swiss(), "BH", "2026")[4] == 8


def test_cut_removes_the_voluntary_unplayed_round_with_the_lowest_dummy_score() -> None:
    # Player 1 terms: r1 P2 0.5, r2 P3 1, r3 half bye (VUR), r4 forfeit loss to P4 (VUR).
    # 2026 dummies: half bye min(2.5, 0.5 x 4) = 2, forfeit min(2.5, 4) = 2.5.
    #   BH = 0.5 + 1 + 2 + 2.5 = 6; Cut-1 removes the lowest VUR (2) -> 4.
    #   SB values: 0.5, 1, 2 x 0.5 = 1, 2.5 x 0 = 0 -> 2.5. Cut-1: least significant is P2
    #   (0.5 <= the lowest-scoring VUR's value 1) so that VUR goes -> 1.5. (Taking the VUR of
    #   lowest *value*, the forfeit, would leave 2.5.)
    # 2024 dummies are both 2.5: BH 6.5, Cut-1 -> 4; SB 0.5 + 1 + 1.25 + 0 = 2.75 and the VURs
    #   tie on score, the forfeit (value 0) is lower than P2's 0.5, so P2 is cut -> 2.25.
    t = two_vurs()
    assert (values(t, "BH", "2026")[1], values(t, "BH-C1", "2026")[1]) == (6, 4)
    assert (values(t, "BH", "2024")[1], values(t, "BH-C1", "2024")[1]) == (F(13, 2), 4)
    assert (values(t, "SB", "2026")[1], values(t, "SB-C1", "2026")[1]) == (F(5, 2), F(3, 2))
    assert (values(t, "SB", "2024")[1], values(t, "SB-C1", "2024")[1]) == (F(11, 4), F(9, 4))


# -- tie-breaks added ---------------------------------------------------------------------------
def test_standard_points_on_a_three_one_zero_event() -> None:
    # card_event (3/1/0): 1 W D W -> 2.5; 2 L bye L -> 1; 3 L L bye -> 1; 4 W D W -> 2.5;
    # 5 bye W L -> 2. Byes worth a win count 1 (more than a draw's 1 point).
    assert values(card_event(), "STD", "2026") == {1: F(5, 2), 2: 1, 3: 1, 4: F(5, 2), 5: 2}


def test_rounds_elected_to_play_and_ge_alias() -> None:
    # A forfeit loss, a half bye and an absence are not elected; a PAB and a forfeit win are.
    expected = {1: 4, 2: 4, 3: 3, 4: 3, 5: 4, 6: 4, 7: 3}
    assert values(club_swiss(), "REP", "2026") == expected
    assert values(club_swiss(), "GE", "2024") == expected


def test_pairing_number_and_rating() -> None:
    assert values(club_swiss(), "TPN", "2026") == {i: i for i in range(1, 8)}
    standings = compute_standings(club_swiss(), ["TPN"], rules="2026")
    # Emil (#5) and Chen (#3) tie on 2 points: TPN (lower first) puts #3 first.
    order = [r.player_id for r in standings.rows]
    assert order.index(3) < order.index(5)
    assert values(club_swiss(), "RTNG", "2026")[1] == 2400


def test_perfect_tournament_performance() -> None:
    # Chen: 2 points against 1900, 2000, 2400. At 2247 the expected scores are .89 (diff -347),
    # .81 (-247) and .30 (+153): 2.00; at 2246 the last is .29: 1.99. PTP = 2247.
    assert expected_score(2247, 2400) == F(30, 100)
    assert values(club_swiss(), "PTP", "2026")[3] == 2247
    assert perfect_performance(F(0), [1900, 2000]) == 1100  # 0 points: lowest - 800
    # a perfect score: the lowest rating 736 above the best opponent (pd 1.00 beyond 735)
    assert perfect_performance(F(2), [1900, 2000]) == 2736


def test_average_performance_and_average_buchholz_of_opponents() -> None:
    # Fay 1.5/4 against 2200, 1800, 2400, 2300: ARO 2175, p .38 -> dp -87: TPR 2088.
    # Emil TPR 2075, Anna 2318: Chen's APRO = (2088 + 2075 + 2318) / 3 = 2160.33 -> 2160.
    assert values(club_swiss(), "TPR", "2026")[6] == 2088
    assert values(club_swiss(), "APRO", "2026")[3] == 2160
    # AOB: Chen met Fay (BH 10), Emil (9), Anna (8.5) over the board: 27.5 / 3 = 9.17.
    assert values(club_swiss(), "AOB", "2026")[3] == F(917, 100)


def test_unrated_opponents_with_and_without_u() -> None:
    t = club_swiss()
    unrated = t.with_players(
        [p if p.id != 6 else Player(6, "Fay", 0) for p in t.players]
    )
    # Fay is unrated and no /U is given: ARO does not apply, every value 0.
    assert set(values(unrated, "ARO", "2026").values()) == {0}
    text = explain_player(unrated, 3, ["ARO"], rules="2026")[0].text
    assert "not applicable" in text
    # Chen met Fay (unrated), Emil 2000, Anna 2400.
    assert values(unrated, "ARO/U1000", "2026")[3] == 1800  # (1000 + 2000 + 2400) / 3
    # Cut-1 removes the lowest (Fay at 1000): 2000 and 2400 stay.
    assert values(unrated, "ARO-C1/U1000", "2026")[3] == 2200
    assert values(unrated, "RTNG/U1000", "2026")[6] == 1000


def test_koya_limit_modifiers() -> None:
    # Limit 50 % of 4 rounds = 2 points: Chen scores 1 vs Emil (2) + 0.5 vs Anna (3) = 1.5.
    assert values(club_swiss(), "KS", "2026")[3] == F(3, 2)
    # /L+1 raises the limit by a half point to 2.5: only Anna counts.
    assert values(club_swiss(), "KS/L+1", "2026")[3] == F(1, 2)
    # /L25: 1 point: Fay (1.5) counts too: 0.5 + 1 + 0.5 = 2.
    assert values(club_swiss(), "KS/L25", "2026")[3] == 2


# -- ties left after every tie-break -------------------------------------------------------------
def test_remaining_ties_and_what_happens_next() -> None:
    standings = compute_standings(club_swiss(), ["WIN"], rules="2026")
    ties = remaining_ties(standings)
    # 1.5 points: Fay and Dora both have 1 win.
    assert [set(t.player_ids) for t in ties] == [{4, 6}]
    text = next_step(standings)
    assert "play-off" in text and "drawing lots" in text and "2026" in text
    assert "No tie remains" in next_step(compute_standings(club_swiss(), "fide", rules="2026"))


# -- the command line ------------------------------------------------------------------------------
def test_cli_takes_the_edition_from_line_042_and_rules_overrides(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = CLUB_TRF.read_text(encoding="utf-8")
    dated = tmp_path / "dated.trf"
    dated.write_text(text.replace("012 ", "042 2025/09/01\n012 ", 1), encoding="utf-8")
    assert main(["standings", str(dated), "--tiebreaks", "BH", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"] == "2024"
    assert {r["id"]: r["values"]["BH"] for r in data["rows"]}[3] == 8.5
    assert main(["standings", str(dated), "--tiebreaks", "BH", "--rules", "2026",
                 "--explain", "3"]) == 0
    out = capsys.readouterr().out
    assert "1 March 2026" in out and "C.07 (2026) art. 8.1" in out and "BH 8:" in out
    assert main(["standings", str(dated), "--rules", "2030"]) == 3
    assert "unknown --rules" in capsys.readouterr().err
