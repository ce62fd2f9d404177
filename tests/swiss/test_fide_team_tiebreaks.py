"""Team tie-breaks (FIDE C.07) against gacrux's tiebreakchecker: recorded, live and by hand.

tests/fixtures/fide-team-tiebreaks/*.jsonl hold generated events (rebuilt from their seed and
recorded pairings) and gacrux's value of every tie-break for every team, recorded by
scripts/fide_team_tiebreaks.py (the first line names the gacrux version and commands). Every
value must come out identical. The live test runs gacrux itself when GACRUX_PYTHON names an
interpreter that has it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swiss.teams.model import MatchKind, MatchRecord, Team
from swiss.teams.tiebreaks import (
    TeamTables,
    TeamTiebreakError,
    parse_team_tiebreak,
    team_standings,
    team_tiebreak_values,
)
from swiss.teams.trf import parse_team_trf
from tests.paths import FIXTURES, REPO

ROOT = REPO
FIXTURES = FIXTURES / "fide-team-tiebreaks"
sys.path.insert(0, str(ROOT / "scripts"))

from fide_team_tiebreaks import compare, ours, rebuild  # noqa: E402


def recorded_events() -> list[dict]:
    events = []
    for path in sorted(FIXTURES.glob("*.jsonl")):
        lines = path.read_text(encoding="utf-8").splitlines()
        header = json.loads(lines[0])
        assert header["gacrux"].startswith("tiebreakchecker") and header["command"]
        events += [json.loads(line) for line in lines[1:]]
    return events


EVENTS = recorded_events()


def test_the_corpus_covers_every_tiebreak_and_real_ties() -> None:
    assert len(EVENTS) >= 150
    names = set(EVENTS[0]["values"])
    assert {"BH:MP/C1", "FB:GP", "EMGSB", "ESB", "PS:MP", "BC", "DE", "WIN"} <= names
    separated = sum(1 for e in EVENTS for value in e["values"]["DE"] if value != "0")
    assert separated >= 20  # direct encounter decided real ties, not only zeros


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: f"seed{e['seed']}")
def test_every_recorded_value_is_identical_to_gacrux(event: dict) -> None:
    differences = compare(event["values"], ours(rebuild(event["seed"], event["rounds"])))
    assert differences == [], differences[:5]


def test_live_gacrux_agrees_on_fresh_events() -> None:
    python = os.environ.get("GACRUX_PYTHON")
    if not python or not Path(python).exists():
        pytest.skip("set GACRUX_PYTHON to an interpreter that has gacrux")
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "fide_team_tiebreaks.py"), "--events", "3",
         "--first-seed", "900000", "--gacrux-python", python],
        capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    total, same = last.split(": ")[1].split(" values")[0], last.split(", ")[-1].split()[0]
    assert total == same, done.stdout


def _match(round_number: int, kind: MatchKind, opponent: int | None, mp: int, gp: str,
           colour: str | None = None, boards: tuple[tuple[str, str], ...] = ()
           ) -> MatchRecord:
    return MatchRecord(round_number, kind, opponent, colour,  # type: ignore[arg-type]
                       Fraction(mp), Fraction(gp), boards)


P, FW, FL = MatchKind.PLAYED, MatchKind.FORFEIT_WIN, MatchKind.FORFEIT_LOSS


def small_event() -> list[Team]:
    """Two boards, two rounds. Round 1: team 1 beats team 2 1.5-0.5; team 4 does not come
    (team 3 wins by forfeit). Round 2: team 1 and team 3 draw 1-1; team 2 beats team 4 2-0.
    Final: team 1 3 MP / 2.5 GP, team 2 2 / 2.5, team 3 3 / 3, team 4 0 / 0."""
    return [
        Team(1, "A", (1, 2), [
            _match(1, P, 2, 2, "3/2", "w", (("w", "1"), ("b", "="))),
            _match(2, P, 3, 1, "1", "b", (("b", "1"), ("w", "0")))]),
        Team(2, "B", (3, 4), [
            _match(1, P, 1, 0, "1/2", "b", (("b", "0"), ("w", "="))),
            _match(2, P, 4, 2, "2", "w", (("w", "1"), ("b", "1")))]),
        Team(3, "C", (5, 6), [
            _match(1, FW, 4, 2, "2", None, (("w", "+"), ("b", "+"))),
            _match(2, P, 1, 1, "1", "w", (("w", "0"), ("b", "1")))]),
        Team(4, "D", (7, 8), [
            _match(1, FL, 3, 0, "0", None, (("b", "-"), ("w", "-"))),
            _match(2, P, 2, 0, "0", "b", (("b", "0"), ("w", "0")))]),
    ]


def values(name: str, primary: str = "mp") -> dict[int, Fraction]:
    return team_tiebreak_values(TeamTables(small_event()),
                                parse_team_tiebreak(name, primary))  # type: ignore[arg-type]


def test_buchholz_of_match_points_with_a_forfeit_worked_by_hand() -> None:
    # Team 3's forfeit win is a dummy capped at the absent team's score (art. 16.4.1):
    # min(3, 0) = 0, plus team 1's 3. Team 4's forfeit loss: min(0, 3) = 0, plus team 2's 2.
    assert values("BH:MP") == {1: 5, 2: 3, 3: 3, 4: 2}
    # Team 4's Cut-1 removes its voluntary unplayed round (the forfeit) first (art. 16.5).
    assert values("BH:MP/C1")[4] == 2
    # In game points: team 3's dummy min(3, 0) + team 1's 2.5; team 4's min(0, 3) + 2.5.
    assert values("BH:GP") == {1: Fraction(11, 2), 2: Fraction(5, 2), 3: Fraction(5, 2),
                               4: Fraction(5, 2)}


def test_the_extended_sonneborn_berger_variants_worked_by_hand() -> None:
    # Team 1: team 2 (2 MP, 2.5 GP) beaten with 2 MP and 1.5 GP; team 3 (3 MP, 3 GP) drawn
    # with 1 MP and 1 GP. The first letter names the opponent's points, the second the team's.
    assert values("EMMSB")[1] == 2 * 2 + 3 * 1 == 7
    assert values("EMGSB")[1] == 2 * Fraction(3, 2) + 3 * 1 == 6
    assert values("EGMSB")[1] == Fraction(5, 2) * 2 + 3 * 1 == 8
    assert values("EGGSB")[1] == Fraction(5, 2) * Fraction(3, 2) + 3 * 1 == Fraction(27, 4)
    assert values("ESB")[1] == values("EMGSB")[1]  # match points primary
    assert values("ESB", "gp")[1] == values("EGMSB")[1]
    assert values("SB:MP") == values("EMMSB") and values("SB:GP") == values("EGGSB")


def test_board_and_match_counts_worked_by_hand() -> None:
    assert values("WIN:MP") == {1: 1, 2: 1, 3: 1, 4: 0}  # team 3's forfeit win counts
    assert values("WON:MP") == {1: 1, 2: 1, 3: 0, 4: 0}
    assert values("WIN:GP")[3] == 3 and values("WON:GP")[3] == 1
    assert values("BPG:MP")[1] == 1 and values("BPG:GP")[1] == 2
    assert values("BC")[1] == 1 * 1 + 2 * Fraction(1, 2) + 1 * 1 + 2 * 0  # board x points


def test_standings_put_direct_encounter_and_board_count_the_right_way_up() -> None:
    specs, rows = team_standings(small_event(), "mp", ["DE", "BC"])
    assert [s.acronym for s in specs] == ["DE", "BC"]
    # Teams 1 and 3 tie on 3 MP and drew each other: DE does not separate them (0); the
    # lower board count (team 1: 3, team 3: 5, its points being on board 2) ranks first.
    assert [(r.rank, r.tpn) for r in rows] == [(1, 1), (2, 3), (3, 2), (4, 4)]
    assert rows[0].values == (3, 0, 3) and rows[1].values == (3, 0, 5)


def test_teams_equal_on_everything_share_a_rank() -> None:
    _specs, rows = team_standings(small_event(), "mp", ["DE"])
    assert [(r.rank, r.tpn) for r in rows][:2] == [(1, 1), (1, 3)]


@pytest.mark.parametrize("text, message", [
    ("XYZ", "unknown team tie-break"),
    ("EMMSB:GP", "names its points already"),
    ("DE-C1", "takes no -C modifier"),
    ("SB-M1", "takes no -M modifier"),
])
def test_bad_tiebreaks_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(TeamTiebreakError, match=message):
        parse_team_tiebreak(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="BHSMPGCEFDWINOTRS:/-0123456789 xé", max_size=24))
def test_any_text_is_a_tiebreak_or_a_clear_error(text: str) -> None:
    try:
        spec = parse_team_tiebreak(text)
    except TeamTiebreakError as exc:
        assert "tie-break" in str(exc) or "modifier" in str(exc) or "names its" in str(exc)
        assert len(str(exc)) < 300
    else:
        assert spec.score in ("mp", "gp") and spec.own in ("mp", "gp")
        assert 0 <= spec.cut_high <= spec.cut_low


def test_modifier_spellings_are_equivalent() -> None:
    dashed, slashed = parse_team_tiebreak("bh:gp-c1"), parse_team_tiebreak("BH:GP/C1")
    assert (dashed.base, dashed.score, dashed.cut_low) == (slashed.base, slashed.score, 1)
    assert parse_team_tiebreak("BH", "gp").score == "gp"  # the primary score by default


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.sampled_from(EVENTS))
def test_cuts_only_remove_and_ranks_follow_the_keys(event: dict) -> None:
    parsed = parse_team_trf(rebuild(event["seed"], event["rounds"]))
    tables = TeamTables(parsed.teams)
    for which in ("MP", "GP"):
        full = team_tiebreak_values(tables, parse_team_tiebreak(f"BH:{which}"))
        cut = team_tiebreak_values(tables, parse_team_tiebreak(f"BH:{which}/C1"))
        median = team_tiebreak_values(tables, parse_team_tiebreak(f"BH:{which}/M1"))
        assert all(median[t] <= cut[t] <= full[t] for t in full)
    _specs, rows = team_standings(parsed.teams, parsed.rules.primary)
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
    assert rows[0].rank == 1
