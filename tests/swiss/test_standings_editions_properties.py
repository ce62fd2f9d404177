"""Invariants of the tie-breaks in both C.07 editions, on random tournaments (hypothesis).

* cutting never raises a value: BH >= BH-C1 >= BH-C2, BH-C1 >= BH-M1, SB >= SB-C1, FB >= FB-C1;
* the 2026 caps only lower dummy scores: BH, FB and SB are never higher under 2026;
* a player who won every round over the board has SB = win points x BH (no dummy, every
  opponent counted with the full win), in both editions;
* tie-breaks the two editions define alike give the same values (and, with no unplayed round,
  so do BH, FB, SB and their cuts);
* every new acronym evaluates and is explained with the same value;
* the acronym parser: valid acronyms round-trip through their canonical form, anything else
  raises a TiebreakError.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swiss.model import Tournament
from swiss.standings import (
    CATALOGUE,
    TiebreakError,
    compute_standings,
    explain_player,
    parse_tiebreak,
)
from swiss.standings.records import RoundKind, build_records
from tests.swiss.test_standings_properties import tournaments

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


@pytest.mark.slow
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


# -- the acronym parser ---------------------------------------------------------------------------
MODIFIED = {"BH": "CM", "FB": "CM", "SB": "C", "PS": "C", "ARO": "CMU", "TPR": "U", "PTP": "U",
            "APRO": "U", "APPO": "U", "RTNG": "U", "KS": "L", "AOB": "F"}


@st.composite
def acronyms(draw: st.DrawFn) -> str:
    base = draw(st.sampled_from(sorted(CATALOGUE)))
    allowed = MODIFIED.get(base, "")
    text = base
    if "C" in allowed or "M" in allowed:
        kind = draw(st.sampled_from(["", *[k for k in "CM" if k in allowed]]))
        if kind:
            text += draw(st.sampled_from("-/")) + kind + str(draw(st.integers(1, 3)))
    if "U" in allowed and draw(st.booleans()):
        text += f"/U{draw(st.integers(0, 3000))}"
    if "L" in allowed and draw(st.booleans()):
        text += "/L" + draw(st.sampled_from(["+1", "-2", "60", "+1.5"]))
    if "F" in allowed and draw(st.booleans()):
        text += "/F"
    return draw(st.sampled_from([text, text.lower()]))


@given(acronyms())
def test_every_valid_acronym_parses_and_its_canonical_form_round_trips(text: str) -> None:
    spec = parse_tiebreak(text)
    assert spec.base in CATALOGUE
    assert parse_tiebreak(spec.acronym) == spec


@given(st.text(alphabet="ABCDEFGHIJKLMNOPRSTUVW%-/+.0123456789", max_size=14))
def test_any_text_parses_or_raises_a_tiebreak_error(text: str) -> None:
    try:
        spec = parse_tiebreak(text)
    except TiebreakError as exc:
        assert str(exc)
    else:
        assert spec.base in CATALOGUE
