"""Invariants of the tie-breaks in both C.07 editions, on random tournaments (hypothesis).

* cutting never raises a value: BH >= BH-C1 >= BH-C2, BH-C1 >= BH-M1, SB >= SB-C1, FB >= FB-C1;
* the 2026 caps only lower dummy scores: BH, FB and SB are never higher under 2026;
* a player who won every round over the board has SB = win points x BH (no dummy, every
  opponent counted with the full win), in both editions;
* tie-breaks the two editions define alike give the same values (and, with no unplayed round,
  so do BH, FB, SB and their cuts);
* every new acronym parses, evaluates and is explained with the same value.
"""

from __future__ import annotations

from hypothesis import given, settings

from swiss.model import Tournament
from swiss.standings import compute_standings, explain_player
from swiss.standings.records import RoundKind, build_records
from tests.test_standings_properties import tournaments

CUTS = ["BH", "BH-C1", "BH-C2", "BH-M1", "SB", "SB-C1", "FB", "FB-C1"]
SAME_IN_BOTH = [
    "PS", "PS-C1", "KS", "WIN", "WON", "BPG", "BWG", "REP", "STD", "ARO", "AROC", "ARO/U1000",
    "TPR", "TPR/U1000", "PTP", "APRO", "APPO/U1200", "RTNG", "TPN", "DE",
]
OPPONENT_SUMS = ["BH", "BH-C1", "BH-M1", "FB", "FB-C1", "SB", "SB-C1", "AOB"]


def table(t: Tournament, acronyms: list[str], rules: str) -> dict[int, tuple]:
    standings = compute_standings(t, acronyms, rules=rules)
    return {row.player_id: row.values for row in standings.rows}


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_cutting_never_raises_a_value(t: Tournament) -> None:
    for rules in ("2026", "2024"):
        for bh, c1, c2, m1, sb, sb1, fb, fb1 in table(t, CUTS, rules).values():
            assert bh >= c1 >= c2
            assert c1 >= m1
            assert sb >= sb1
            assert fb >= fb1


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_2026_caps_never_raise_opponent_sums(t: Tournament) -> None:
    new, old = table(t, ["BH", "FB", "SB"], "2026"), table(t, ["BH", "FB", "SB"], "2024")
    for pid in new:
        assert all(a <= b for a, b in zip(new[pid], old[pid], strict=True))


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_sb_of_a_player_with_only_wins_is_the_sum_of_opponents_scores(t: Tournament) -> None:
    records = build_records(t)
    winners = [
        pid for pid, r in records.items()
        if r.rounds and all(c.kind is RoundKind.WIN for c in r.rounds)
    ]
    for rules in ("2026", "2024"):
        values = table(t, ["SB", "BH"], rules)
        for pid in winners:
            sb, bh = values[pid]
            assert sb == t.scoring.win * bh


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_edition_independent_values_agree(t: Tournament) -> None:
    assert table(t, SAME_IN_BOTH, "2026") == table(t, SAME_IN_BOTH, "2024")
    records = build_records(t)
    all_played = all(
        c.kind in (RoundKind.WIN, RoundKind.DRAW, RoundKind.LOSS)
        for r in records.values() for c in r.rounds
    )
    if all_played:
        assert table(t, OPPONENT_SUMS, "2026") == table(t, OPPONENT_SUMS, "2024")


@settings(max_examples=30, deadline=None)
@given(tournaments())
def test_explanations_report_the_values_of_the_standings(t: Tournament) -> None:
    acronyms = [*SAME_IN_BOTH, *OPPONENT_SUMS, "KS/L+1"]
    for rules in ("2026", "2024"):
        values = table(t, acronyms, rules)
        for pid in values:
            explained = explain_player(t, pid, acronyms, rules=rules)
            assert tuple(e.value for e in explained) == values[pid]
            assert all(e.edition == rules and e.article for e in explained)
