"""Every tiebreak on hand-computed examples with forfeits, byes and a withdrawal.

The tournaments are in tests/standings_cases.py; the expected values below were worked out by
hand from the crosstable in their docstrings (the working is in the comments).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as F
from functools import partial

import pytest

from swiss.model import Game, Player, Result, Round, Scoring, Tournament
from swiss.standings import (
    PRESET_SCORING,
    PRESETS,
    TiebreakError,
    format_value,
    parse_tiebreak,
)
from swiss.standings import compute_standings as _compute_standings
from swiss.standings import explain_player as _explain_player
from swiss.standings.context import Context
from swiss.standings.direct import direct_encounter_tiers
from swiss.standings.rating import DP_TABLE, average_rating, dp_for, performance
from swiss.standings.records import build_records
from tests.standings_cases import card_event, club_swiss

# These cases were computed by hand for the C.07 edition of August 2024: pin it.
compute_standings = partial(_compute_standings, rules="2024")
explain_player = partial(_explain_player, rules="2024")


def values(tournament: Tournament, acronym: str, unplayed: str = "c07") -> dict[int, F]:
    standings = compute_standings(tournament, [acronym], unplayed=unplayed)  # type: ignore[arg-type]
    return {row.player_id: row.values[0] for row in standings.rows}


# -- points ------------------------------------------------------------------------------------
def test_points_come_from_the_scoring_with_byes_forfeits_and_absence() -> None:
    rows = compute_standings(club_swiss(), []).rows
    assert {r.player_id: r.points for r in rows} == {
        1: 3, 2: F(7, 2), 3: 2, 4: F(3, 2), 5: 2, 6: F(3, 2), 7: 1
    }
    assert [r.player_id for r in rows] == [2, 1, 3, 5, 4, 6, 7]  # ties: initial order
    assert [r.rank for r in rows] == [1, 2, 3, 3, 5, 5, 7]


# -- Buchholz family (C.07 2024-08) ------------------------------------------------------------
# Scores as opponents see them (C.07): 1:3  2:3.5  3:2  4:1.5  5:2  6:1.5
# 7: 1 + 0.5, his round-4 absence after withdrawing counts as a draw.
def test_buchholz_c07_uses_dummy_own_score_for_unplayed_rounds() -> None:
    assert values(club_swiss(), "BH") == {
        1: F(17, 2),  # 1.5 + 3.5 + 1.5 + 2
        2: 8,  # 2 + 3 + 1.5 (7, absence as draw) + 1.5
        3: F(17, 2),  # 1.5 + dummy 2 (own score, forfeit loss) + 2 + 3
        4: 8,  # 3 + dummy 1.5 (forfeit win) + dummy 1.5 (half bye) + 2
        5: 9,  # 3.5 + dummy 2 (PAB) + 2 + 1.5
        6: 10,  # 2 + 1.5 + 3 + 3.5
        7: 7,  # dummy 1 (PAB) + 1.5 + 3.5 + dummy 1 (absent)
    }


def test_buchholz_cut1_cuts_the_voluntary_unplayed_round_first() -> None:
    bh_c1 = values(club_swiss(), "BH-C1")
    assert bh_c1[1] == 7  # plain: lowest 1.5 cut
    assert bh_c1[3] == F(13, 2)  # the VUR (dummy 2) is cut, not the lower 1.5
    assert bh_c1[4] == F(13, 2)  # the half-bye dummy (VUR) 1.5 is cut
    assert bh_c1[5] == F(15, 2)  # PAB is not a VUR: lowest 1.5 cut
    assert bh_c1[7] == 6


def test_buchholz_median_cuts_both_ends() -> None:
    assert values(club_swiss(), "BH-M1")[1] == F(7, 2)  # 8.5 - 1.5 - 3.5
    assert values(club_swiss(), "BH-C2")[6] == F(13, 2)  # 10 - 1.5 - 2


def test_buchholz_c02_virtual_opponent() -> None:
    # C.02: opponents see unplayed rounds as draws: 3 -> 2.5, 4 -> 1, 5 -> 1.5, 7 -> 1.
    bh = values(club_swiss(), "BH", "c02")
    assert bh[1] == F(17, 2)  # 1 + 3.5 + 1.5 + 2.5
    # 3: r2 forfeit loss, virtual opponent = 0.5 before + 1 (his win) + 0.5 x 2 later = 2.5
    assert bh[3] == F(17, 2)  # 1.5 + 2.5 + 1.5 + 3
    # 4: r2 forfeit win -> 0 + 0 + 1 = 1; r3 half bye -> 1 + 0.5 + 0.5 = 2
    assert bh[4] == F(15, 2)  # 3 + 1 + 2 + 1.5
    # 7: r1 PAB -> 0 + 0 + 1.5 = 1.5; r4 absent -> 1 + 1 + 0 = 2
    assert bh[7] == F(17, 2)  # 1.5 + 1.5 + 3.5 + 2


def test_c02_cut_is_plain_lowest() -> None:
    assert values(club_swiss(), "BH-C1", "c02")[3] == 7  # 8.5 - 1.5 (not the virtual 2.5)


def test_fore_buchholz_counts_last_round_games_as_draws() -> None:
    # FB scores: 1:3  2:3  3:2  4:2  5:1.5  6:2  7:1.5 (absence as a draw)
    fb = values(club_swiss(), "FB")
    assert fb[1] == 9  # 2 + 3 + 2 + 2
    assert fb[2] == 8  # 1.5 + 3 + 1.5 + 2


def test_fore_buchholz_is_known_before_the_last_round_is_played() -> None:
    t = club_swiss()
    last = t.rounds[-1]
    pending = replace(last, games=tuple(g.with_result(Result.PENDING) for g in last.games))
    assert values(t.replace_round(pending), "FB") == values(t, "FB")
    # pending games count for nothing in BH: player 1 keeps his first three opponents,
    assert values(t.replace_round(pending), "BH")[1] == F(11, 2)  # 4: 1.5, 2: 2.5, 6: 1.5


def test_sonneborn_berger_and_cut() -> None:
    sb = values(club_swiss(), "SB")
    assert sb == {
        1: F(23, 4),  # 1.5 + 3.5/2 + 1.5 + 2/2
        2: F(13, 2),  # 2 + 3/2 + 1.5 + 1.5
        3: F(17, 4),  # 1.5/2 + dummy 2 x 0 + 2 + 3/2
        4: F(9, 4),  # 0 + dummy 1.5 x 1 + dummy 1.5 x 0.5 + 0
        5: F(7, 2),  # 0 + dummy 2 x 1 (PAB) + 0 + 1.5
        6: F(5, 2),  # 2/2 + 1.5 + 0 + 0
        7: 1,  # dummy 1 x 1 (PAB) + 0 + 0 + dummy 1 x 0
    }
    sb_c1 = values(club_swiss(), "SB-C1")
    assert sb_c1[1] == F(17, 4)  # lowest-scoring opponent (1.5) product 1.5 cut
    # 3: the VUR term (0) is below the least significant term (0.75): that one is cut instead
    assert sb_c1[3] == F(7, 2)


# -- own results -------------------------------------------------------------------------------
def test_progressive_score_and_cut() -> None:
    ps = values(club_swiss(), "PS")
    assert ps[1] == 8  # 1 + 1.5 + 2.5 + 3
    assert ps[2] == F(17, 2)  # 1 + 1.5 + 2.5 + 3.5
    assert ps[4] == 4  # 0 + 1 + 1.5 + 1.5
    assert values(club_swiss(), "PS-C1")[1] == 7


def test_win_won_bpg_bwg_byes() -> None:
    t = club_swiss()
    assert values(t, "WIN") == {1: 2, 2: 3, 3: 1, 4: 1, 5: 2, 6: 1, 7: 1}  # forfeits, PABs count
    assert values(t, "WON") == {1: 2, 2: 3, 3: 1, 4: 0, 5: 1, 6: 1, 7: 0}
    assert values(t, "BPG") == {1: 2, 2: 2, 3: 0, 4: 1, 5: 2, 6: 3, 7: 1}  # forfeits: no colour
    assert values(t, "BWG") == {1: 0, 2: 2, 3: 0, 4: 0, 5: 1, 6: 0, 7: 0}
    assert values(t, "BYES") == {1: 0, 2: 0, 3: 0, 4: 0, 5: 1, 6: 0, 7: 1}


def test_koya_counts_points_against_opponents_with_half_the_maximum() -> None:
    ks = values(club_swiss(), "KS")  # limit 2 of 4: players 1, 2, 3, 5
    assert ks[1] == 1  # 0.5 vs 2 + 0.5 vs 3
    assert ks[6] == F(1, 2)  # 0.5 vs 3
    assert ks[4] == 1  # the forfeit win against 3 counts


def test_byes_rank_fewer_first() -> None:
    # 5 and 3 tie on points; 5 had a pairing bye, so 3 ranks ahead under TCEC.
    rows = compute_standings(club_swiss(), "tcec").rows
    ids = [r.player_id for r in rows]
    assert ids.index(3) < ids.index(5)


# -- ratings -----------------------------------------------------------------------------------
def test_aro_aroc_and_tpr() -> None:
    t = club_swiss()
    assert values(t, "ARO")[1] == 2125  # (2100 + 2300 + 1900 + 2200) / 4
    assert values(t, "AROC")[1] == 2200  # 1900 cut
    assert values(t, "ARO-M1")[1] == 2150  # 1900 and 2300 cut
    assert values(t, "ARO")[3] == 2100  # the forfeit (vs 4) is no game
    assert values(t, "AROC")[4] == 2400
    tpr = values(t, "TPR")
    assert tpr[1] == 2125 + 193  # 3/4 = 0.75 -> dp 193
    assert tpr[3] == 2100 + 125  # 2/3 = 0.67 -> dp 125
    assert tpr[4] == 2200 - 800  # 0/2


def test_fide_rounding_and_dp_table() -> None:
    assert average_rating([2000, 2001]) == 2001  # 2000.5 rounds up
    assert average_rating([1999, 2000, 2000]) == 2000
    assert average_rating([]) == 0
    assert len(DP_TABLE) == 101 and DP_TABLE[50] == 0 and DP_TABLE[100] == 800
    assert all(DP_TABLE[i] == -DP_TABLE[100 - i] for i in range(101))
    assert dp_for(F(1, 2), 1) == 0
    assert dp_for(F(5, 2), 3) == 273  # 0.8333 -> 0.83
    assert dp_for(F(1, 200), 1) == -677  # 0.005 rounds up to 0.01
    assert performance(F(0), []) == 0


def test_unrated_players_need_a_u_rating_for_the_rating_tiebreaks() -> None:
    # C.07 art. 10 with FIDE's reference code: with an unrated player in the event and no /U
    # rating, ARO/TPR/... do not apply (every value 0, nobody separated); /U rates them.
    players = (
        Player(1, "A", 2000), Player(2, "B", 0), Player(3, "C", 1800), Player(4, "D", 0),
        Player(5, "E", 1500),
    )
    t = Tournament(players, (Round(1, (Game(1, 2, Result.DRAW), Game(3, 4, Result.DRAW))),
                             Round(2, (Game(3, 1, Result.DRAW), Game(4, 2, Result.DRAW)))))
    assert set(values(t, "ARO").values()) == {0}
    assert set(values(t, "TPR").values()) == {0}
    assert values(t, "ARO/U1000")[1] == 1400  # 2 (unrated: 1000) and 3 (1800)
    assert values(t, "ARO/U1000")[4] == 1400  # 3 (1800) and 2 (1000)
    assert values(t, "ARO/U1000")[5] == 0  # no game at all
    assert values(t, "TPR/U1000")[5] == 0


# -- direct encounter --------------------------------------------------------------------------
def _four_way() -> Tournament:
    """A, B, C, D (1-4) all met: mutual A 2, B 2, C 1, D 1; A beat B, D beat C.

    Round 4 against outsiders leaves all four on 2 points.
    """
    W = Result.WHITE_WINS
    players = tuple(Player(i, f"P{i}") for i in range(1, 9))
    rounds = (
        Round(1, (Game(1, 2, W), Game(4, 3, W), Game(5, 6, Result.DRAW), Game(7, 8, Result.DRAW))),
        Round(2, (Game(3, 1, W), Game(2, 4, W), Game(5, 7, Result.DRAW), Game(6, 8, Result.DRAW))),
        Round(3, (Game(1, 4, W), Game(2, 3, W), Game(5, 8, Result.DRAW), Game(6, 7, Result.DRAW))),
        Round(4, (Game(5, 1, W), Game(6, 2, W), Game(3, 7, W), Game(4, 8, W))),
    )
    return Tournament(players, rounds)


def test_direct_encounter_splits_then_reapplies_to_sub_ties() -> None:
    t = _four_way()
    ctx = Context(t, build_records(t), "c07")
    assert direct_encounter_tiers(ctx, [1, 2, 3, 4]) == [[1], [2], [4], [3]]
    standings = compute_standings(t, ["DE"])
    top = [(r.player_id, r.values[0]) for r in standings.rows if r.points == 2]
    assert top == [(1, 1), (2, 2), (4, 3), (3, 4)]


def test_direct_encounter_when_not_all_met() -> None:
    t = club_swiss()
    ctx = Context(t, build_records(t), "c07")
    # 1 beat 4 and 6 (who never met): 1 is ahead whatever 4-6 would have done; 4, 6 stay tied.
    assert direct_encounter_tiers(ctx, [1, 4, 6]) == [[1], [4, 6]]
    # 1 beat 4; 2 met neither (and 2 could still reach 2 points): nothing is decided.
    assert direct_encounter_tiers(ctx, [1, 2, 4]) == [[1, 2, 4]]
    # forfeits are not encounters: 3 and 4 stay tied.
    assert direct_encounter_tiers(ctx, [3, 4]) == [[3, 4]]
    # a played game decides a pair: 3 beat 5.
    assert direct_encounter_tiers(ctx, [3, 5]) == [[3], [5]]


def test_direct_encounter_cycle_stays_tied() -> None:
    W = Result.WHITE_WINS
    players = tuple(Player(i, f"P{i}") for i in range(1, 4))
    rounds = (Round(1, (Game(1, 2, W),)), Round(2, (Game(2, 3, W),)), Round(3, (Game(3, 1, W),)))
    t = Tournament(players, rounds)
    assert [r.values[0] for r in compute_standings(t, ["DE"]).rows] == [0, 0, 0]
    assert [r.rank for r in compute_standings(t, ["DE"]).rows] == [1, 1, 1]


def test_fide_preset_ranks_club_swiss() -> None:
    standings = compute_standings(club_swiss(), "fide")
    assert standings.tiebreaks == PRESETS["fide"]
    ids = [r.player_id for r in standings.rows]
    # 3 and 5 (2 points): BH-C1 6.5 vs 7.5 -> 5 first. 4 and 6 (1.5): BH-C1 6.5 vs 8.5 -> 6.
    assert ids == [2, 1, 5, 3, 6, 4, 7]
    assert [r.rank for r in standings.rows] == [1, 2, 3, 4, 5, 6, 7]


# -- card games --------------------------------------------------------------------------------
def test_mtg_percentages() -> None:
    t = card_event()
    # MW%: 1: 7/9  2: 3/9  3: 3/9  4: 7/9  5: 6/9  (match points / 9)
    assert values(t, "MW%") == {1: F(7, 9), 2: F(1, 3), 3: F(1, 3), 4: F(7, 9), 5: F(2, 3)}
    omw = values(t, "OMW%")
    assert omw[1] == F(16, 27)  # (3/9 + 7/9 + 6/9) / 3
    assert omw[4] == F(13, 27)  # (3/9 + 7/9 + 3/9) / 3
    assert omw[2] == F(7, 9)  # the bye is not an opponent
    gw = values(t, "GW%")
    assert gw[1] == F(5, 7)  # 2-1, 1-1, 2-0 (no game score: a win is 2-0)
    assert gw[4] == F(5, 6)  # 2-0, 1-1, 2-0
    assert gw[2] == F(3, 7)  # 1-2, bye 2-0, 0-2
    assert values(t, "OGW%")[1] == F(9, 14)  # (3/7 + 5/6 + 2/3) / 3
    rows = compute_standings(t, "mtg").rows
    assert [r.player_id for r in rows][:2] == [1, 4]  # 7 points each, OMW% 16/27 > 13/27


def test_floors_magic_33_and_pokemon_25() -> None:
    W = Result.WHITE_WINS
    players = tuple(Player(i, f"P{i}") for i in range(1, 5))
    rounds = (Round(1, (Game(1, 2, W), Game(3, 4, W))), Round(2, (Game(1, 3, W), Game(4, 2, W))))
    t = Tournament(players, rounds, scoring=Scoring.match_points())
    assert values(t, "MW%")[2] == F(33, 100)
    assert values(t, "OMW%")[1] == (F(33, 100) + F(1, 2)) / 2
    assert values(t, "OWP")[1] == (F(1, 4) + F(1, 2)) / 2


def test_pokemon_resistance() -> None:
    t = card_event()
    assert values(t, "OWP")[2] == F(7, 9)
    assert values(t, "OWP")[3] == F(13, 18)  # (7/9 + 6/9) / 2
    assert values(t, "OOWP")[2] == F(29, 54)  # (OWP 1 = 16/27 + OWP 4 = 13/27) / 2


# -- parsing, presets, explanations ------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "BH-C0", "BH-C100", "BH-C99999999999999999", "BH-C" + "9" * 5000, "BH/M" + "1" * 4400,
    "ARO/U4001", "ARO/U" + "7" * 5000,
])
def test_modifier_numbers_out_of_range_are_refused_by_name(text: str) -> None:
    # A 5,000-digit count used to reach int() and raise a bare ValueError (Python's
    # digit limit): a hostile /tournament tiebreaks value must get a specific error.
    with pytest.raises(TiebreakError, match=r"is out of range: it must be|is too long for a"):
        parse_tiebreak(text)
    assert parse_tiebreak("BH-C99").cut_low == 99
    assert parse_tiebreak("ARO/U4000").unrated == 4000


def test_parse_acronyms_and_modifiers() -> None:
    assert parse_tiebreak("bh/c1").acronym == "BH-C1"
    assert parse_tiebreak("AROC").cut_low == 1
    assert parse_tiebreak("BH-M2").cut_high == 2
    assert parse_tiebreak("omw").acronym == "OMW%"
    with pytest.raises(TiebreakError, match="unknown tiebreak"):
        parse_tiebreak("XYZ")
    with pytest.raises(TiebreakError, match="no -C modifier"):
        parse_tiebreak("WIN-C1")
    with pytest.raises(TiebreakError, match="listed twice"):
        compute_standings(club_swiss(), ["BH", "bh"])
    with pytest.raises(TiebreakError, match="preset"):
        compute_standings(club_swiss(), "fidee")
    with pytest.raises(ValueError, match="unplayed"):
        compute_standings(club_swiss(), "fide", unplayed="c99")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="only 4 round"):
        compute_standings(club_swiss(), "fide", rounds=5)


def test_every_preset_runs_and_names_its_scoring() -> None:
    assert set(PRESET_SCORING) == set(PRESETS)
    assert PRESET_SCORING["mtg"] == "match"
    for name in PRESETS:
        scoring = Scoring.preset(PRESET_SCORING[name])
        standings = compute_standings(card_event() if scoring.win == 3 else club_swiss(), name)
        assert len(standings.tiebreaks) == len(PRESETS[name])


def test_standings_after_an_earlier_round() -> None:
    standings = compute_standings(club_swiss(), ["BH"], rounds=2)
    assert standings.rounds == 2
    row = standings.row(7)
    assert row.points == 1  # PAB then a loss
    # 7 after 2 rounds: dummy (own score 1) for the PAB + opponent 6 (1.5 after round 2)
    assert row.values == (F(5, 2),)


def test_final_key_lot_is_seeded_and_shares_ranks() -> None:
    t = _four_way()
    a = compute_standings(t, [], final_key="lot", lot_seed=1)
    b = compute_standings(t, [], final_key="lot", lot_seed=1)
    assert [r.player_id for r in a.rows] == [r.player_id for r in b.rows]
    orders = {
        tuple(r.player_id for r in compute_standings(t, [], final_key="lot", lot_seed=s).rows)
        for s in range(5)
    }
    assert len(orders) > 1
    assert {r.rank for r in a.rows if r.points == 2} == {3}  # behind 5 and 6 (2.5)


def test_explanations_name_opponents_cuts_and_dummies() -> None:
    explained = {e.acronym: e for e in explain_player(club_swiss(), 3, "fide")}
    assert list(explained) == list(PRESETS["fide"])
    bh_c1 = explained["BH-C1"]
    assert bh_c1.value == F(13, 2)
    assert "#6 Fay 1.5" in bh_c1.text and "cut: r2 dummy (VUR) 2" in bh_c1.text
    assert "= 6.5" in bh_c1.text
    assert "tied with" in explained["DE"].text
    c02 = {e.acronym: e for e in explain_player(club_swiss(), 4, ["BH"], unplayed="c02")}
    assert "virtual opponent" in c02["BH"].text
    with pytest.raises(KeyError):
        explain_player(club_swiss(), 99)


def test_format_value() -> None:
    assert format_value(F(7, 2)) == "3.5"
    assert format_value(F(23, 4)) == "5.75"
    assert format_value(F(2200)) == "2200"
    assert format_value(F(16, 27)) == "0.5926"
    assert format_value(F(-1, 2)) == "-0.5"


@pytest.mark.parametrize("text", ["BH-C١٢", "ARO/U١٢", "BH/M٢", "KS/L+١", "KS/L٦٠", "BH-C²"])
def test_modifier_digits_of_other_scripts_are_refused(text: str) -> None:
    # re's \d matches every script's digits, and int("١٢") is 12: "BH-C١٢" was BH-C12.
    with pytest.raises(TiebreakError, match="ASCII digits 0-9"):
        parse_tiebreak(text)
