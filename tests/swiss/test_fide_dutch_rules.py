"""FIDE Dutch rule cases: one small round per rule fixed against the endorsed engine.

Each ``tests/fixtures/dutch-rules/<edition>-<name>.trf`` is a round (from the conformance
corpora or a fresh differential run) whose pairing is decided by the rule text named in
``RULE``; the ``.pairs`` beside it is bbpPairings' answer (6.0.0 for 2025, 5.0.1 for 2017).
"""

from __future__ import annotations

import pytest

from swiss.pairing import PairingConfig, pair_round
from swiss.pairing.fide_dutch.players import dutch_players
from swiss.state import Float
from swiss.trf import parse_trf, read_pairs
from tests.paths import FIXTURES

CASES = FIXTURES / "dutch-rules"

# Which rule text decides each case (docs/fide-dutch.md quotes them).
RULE = {
    "2017-zero-bye-is-a-downfloat": "2017 A.4.b: a player who does not play in a round "
                                    "also receives a downfloat",
    "2017-c7-following-bracket-alone": "2017 C.7: downfloaters chosen for the pairs of the "
                                       "following bracket, just in the following bracket",
    "2017-ppb-collapses-the-rest": "2017 A.9 and C.4: completion binds in the PPB only; "
                                   "the players below it form one collapsed last bracket",
    "2017-no-c7-in-the-ppb": "2017 C.7 applies only if the current bracket is neither the "
                             "PPB nor the CLB",
    "2017-no-pab-criterion-on-unplayed-rounds": "2017 C.1-C.19 have no PAB criterion on "
                                                "unplayed rounds (the 2025 edition added one)",
    # t0024 round 9: the downfloater C.7 chose was lost to the exchange order afterwards.
    "2017-c7-choice-survives-the-tie-break": "2017 C.7 ranks above the order of "
                                             "transpositions and exchanges (B.8)",
    # t0058 round 10: equal pairs, the following bracket's PSD on its own decides.
    "2017-c7-psd-of-the-following-bracket-alone": "2017 C.7: first the number of pairs, then "
                                                  "the PSD in the following bracket",
    # t0283 round 6: paired on its own the following bracket is as good with either
    # downfloater (completing the round would make one of them worse), so C.12 decides.
    "2017-c7-following-bracket-not-as-completed": "2017 C.7: just in the following "
                                                  "bracket; C.4 binds only in the PPB",
    # t0321 round 10: paired on its own (C.7 included) the 3.5 bracket floats 45, who met
    # everyone below but 46: it is the PPB, re-paired for completion without C.7.
    "2017-ppb-found-by-the-brackets-own-pairing": "2017 A.9: the PPB is the bracket whose "
                                                  "downfloaters, with all the remaining "
                                                  "players, do not allow completion",
    # A random history, round 6: the 3.0 bracket has MDPs 3 (5.0), 12 and 13 (4.0) and
    # residents 4, 5, 10; only two MDPs can be paired. S1 = {3, 12} comes first (13 in the
    # Limbo), so 3-5, 12-4, although 3-4 is the first pair of 3 (then 13-5, 12 in the Limbo).
    "2017-s1-chosen-before-the-mdp-pairing": "2017 B.7: transpositions of S2 for the "
                                             "current S1 first; only then an exchange "
                                             "of MDPs between S1 and the Limbo (D.3)",
    # t0071 round 7: the following bracket is the last one; its pairing assigns the PAB,
    # so C.7 sees it completed, the PAB to a player C.2 allows (50 may not have it).
    "2017-c7-last-bracket-keeps-c2": "2017 A.9 note: the assignment of the PAB (C.2) is "
                                     "part of the pairing of the last bracket",
    # A random 2025 history (40 players): three MDPs 16, 25, 29 (4.5) in the 4.0 bracket.
    # Choosing S1 before any MDP picks its partner gives 16-37, 25-12, 29-26 (bbpPairings
    # 6.0.0); the greedy MDP order (each MDP takes its first resident) gave 16-12, 25-26, 29-37.
    "2025-s1-chosen-before-the-mdp-pairing": "2025: as 2017 B.7/D.3, S1 of a heterogeneous "
                                             "bracket is chosen before the MDP-pairing (the "
                                             "endorsed engine's order)",
    # 2025: the PAB to the player with the fewest unplayed rounds (inferred from the endorsed
    # engine, see docs/fide-dutch.md); the Handbook text of the criterion was not readable.
    "2025-pab-unplayed-not-when-several-float": "2025 PAB criterion: not in a bracket that "
                                                "floats down more than the PAB (colours "
                                                "choose)",
    "2025-pab-unplayed-among-moved-down-players": "2025 PAB criterion: in the bracket whose "
                                                  "one leftover gets the PAB, MDPs included",
    "2025-pab-unplayed-counts-forfeit-losses": "2025 PAB criterion: a forfeit loss is an "
                                               "unplayed round",
    "2025-pab-unplayed-counts-zero-point-byes": "2025 PAB criterion: a zero-point bye is an "
                                                "unplayed round",
    "2025-pab-unplayed-counts-half-point-byes": "2025 PAB criterion: a half-point bye is an "
                                                "unplayed round",
    "2025-pab-unplayed-counts-absences": "2025 PAB criterion: a round without a record "
                                         "(absent) is an unplayed round",
    # Baku acceleration (192 ..._BAKU) as bbpPairings 6.0.0 applies C.04.5.1 (inferred by
    # black-box probes where it differs from the text: docs/fide-dutch.md).
    "2025-baku-group-a-is-half-the-field": "C.04.5.1 group A, as the engine reads it: the "
                                           "first ceil(N/2) players (13: 7, the text's "
                                           "2*ceil(N/4) is 8)",
    "2025-baku-late-entries-recount-group-a": "C.04.5.1 late entries, as the engine reads "
                                              "them: group A counted again from every "
                                              "player of the file (16: 8, the text keeps 6)",
    "2025-baku-past-rounds-float-on-virtual-points": "C.04.5.1 virtual points 1 then 0.5; "
                                                     "past floats on the pairing scores of "
                                                     "their round",
    "2025-baku-virtual-points-are-a-win": "C.04.5.1 virtual points, as the engine reads "
                                          "them: a win's and a draw's points (2/1/0: 2, 1)",
    "2025-baku-group-a-in-rank-order": "C.04.5.1 'the list of players to be paired "
                                       "(properly sorted)': XXC rank order",
}


def test_every_case_names_its_rule() -> None:
    assert sorted(p.stem for p in CASES.glob("*.trf")) == sorted(RULE)


@pytest.mark.parametrize("name", sorted(RULE))
def test_rule_case_matches_the_endorsed_engine(name: str) -> None:
    trf = CASES / f"{name}.trf"
    rules = name.split("-", 1)[0]
    result = pair_round(parse_trf(trf.read_text()).tournament,
                        PairingConfig(system="fide-dutch", rules=rules))
    got = (frozenset((g.white, g.black) for g in result.games), result.pairing_bye)
    assert got == read_pairs(trf.with_suffix(".pairs").read_text())


def test_2017_any_unplayed_round_is_a_downfloat_2025_only_those_scored() -> None:
    """2017 A.4.b floats every unplayed round; 2025 art. 1.4.3 only those scoring points."""
    tournament = parse_trf((CASES / "2017-zero-bye-is-a-downfloat.trf").read_text()).tournament
    ids = [p.id for p in tournament.players]
    old = dutch_players(tournament, 5, ids, "2017")
    new = dutch_players(tournament, 5, ids, "2025")
    # Zero-point byes: player 6 in round 4, player 12 in round 3.
    assert old[6].float_prev is Float.DOWN
    assert new[6].float_prev is Float.NONE
    assert old[12].float_prev2 is Float.DOWN
    assert new[12].float_prev2 is Float.NONE
    assert old[10].float_prev2 is Float.NONE  # round 3: a played game between equal scores


def test_2017_collapsed_last_bracket_needing_a_large_exchange_is_paired() -> None:
    """A random history whose collapsed last bracket (32 players, scores 4.0 down to 0.5)
    needs an exchange beyond the first 20,000 of its size: the engine raised "internal: no
    exchange reaches the optimum"; it now pairs it (like bbpPairings:
    tests/swiss/test_fide_dutch_exchanges.py)."""
    trf = FIXTURES / "dutch-random" / "2017-clb-large-exchange.trf"
    tournament = parse_trf(trf.read_text()).tournament
    result = pair_round(tournament, PairingConfig(system="fide-dutch", rules="2017"))
    seen = [p for g in result.games for p in (g.white, g.black)]
    seen += [b.player for b in result.byes]
    assert sorted(seen) == sorted(p.id for p in tournament.players)
    played = {frozenset((g.white, g.black)) for r in tournament.rounds for g in r.games}
    assert not any(frozenset((g.white, g.black)) in played for g in result.games)


def test_2025_pab_absence_case_differs_from_the_zero_point_bye_case_in_one_round() -> None:
    """The absence case is the zero-point bye case with player 13's round 2 left empty: both
    count one unplayed round, so the PAB goes to the same player (22, none unplayed)."""
    zero = (CASES / "2025-pab-unplayed-counts-zero-point-byes.trf").read_text()
    absent = (CASES / "2025-pab-unplayed-counts-absences.trf").read_text()
    differ = [(a, b) for a, b in zip(zero.replace("\r", "\n").splitlines(),
                                     absent.splitlines(), strict=True) if a != b]
    assert len(differ) == 1 and differ[0][0].startswith("001   13")
    for text in (zero, absent):
        tournament = parse_trf(text).tournament
        players = dutch_players(tournament, 3, [p.id for p in tournament.players], "2025")
        assert (players[13].unplayed, players[22].unplayed) == (1, 0)
