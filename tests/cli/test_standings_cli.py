"""``swissbot standings``: table, CSV and JSON output, explanations, exit codes."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from cli.main import main
from swiss.standings import PRESETS
from tests.paths import FIXTURES

FIXTURES = FIXTURES / "standings"
CLUB = str(FIXTURES / "club_swiss.trf")  # byes, a forfeit, a half-point bye, a withdrawal
HAMILTON = str(FIXTURES / "hamilton_2018.trf")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["standings", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_text_table_has_every_fide_tiebreak(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, CLUB)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert "after round 4" in lines[0] and "C.07" in lines[0]
    assert lines[1].split() == ["Rank", "ID", "Name", "Pts", *PRESETS["fide"]]
    first = lines[2].split()
    # Boris: BH-C1 6.5, BH 8, DE 0 (alone on 3.5), AROC (2000 + 2400 + 1900) / 3 = 2100,
    # WIN 3, BWG 2, BPG 2, SB 6.5
    assert first == ["1", "2", "Boris", "3.5", "6.5", "8", "0", "2100", "3", "2", "2", "6.5"]
    assert [line.split()[1] for line in lines[2:]] == ["2", "1", "5", "3", "6", "4", "7"]


def test_csv_with_custom_tiebreaks_and_c02(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, HAMILTON, "--tiebreaks", "DE,PS,BH,SB,BH-C1",
                       "--unplayed", "c02", "--format", "csv")
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["rank", "id", "name", "pts", "DE", "PS", "BH", "SB", "BH-C1"]
    assert rows[1] == ["1", "1", "Richard Dare", "5.5", "0", "19.5", "22.5", "19.75", "20"]
    assert rows[2] == ["2", "2", "Graham Nolan", "5.5", "0", "19.5", "20", "17.25", "19.5"]
    assert len(rows) == 28


def test_json_after_an_earlier_round(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, CLUB, "--format", "json", "--rounds", "2", "--preset", "lichess")
    assert code == 0
    data = json.loads(out)
    assert data["rounds"] == 2 and data["tiebreaks"] == ["SB", "TPR"]
    assert data["tournament"] == "Club Swiss"
    by_id = {row["id"]: row for row in data["rows"]}
    assert by_id[4]["points"] == 1  # round-2 forfeit win
    assert set(by_id[4]["values"]) == {"SB", "TPR"}


def test_explain_one_player(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, CLUB, "--explain", "3", "--tiebreaks", "BH-C1,SB", "--rules", "2024")
    assert code == 0
    assert out.splitlines()[0] == "Chen (#3)"
    assert "BH-C1 6.5: " in out and "cut: r2 dummy (VUR) 2" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["missing.trf"], "cannot read"),
        ([CLUB, "--tiebreaks", "BH,XYZ"], "unknown tiebreak"),
        ([CLUB, "--preset", "chess960"], "unknown --preset"),
        ([CLUB, "--format", "xml"], "unknown --format"),
        ([CLUB, "--rounds", "9"], "only 4 round"),
        ([CLUB, "--unplayed", "c03"], "unknown --unplayed"),
        ([CLUB, "--explain", "42"], "no player"),
    ],
)
def test_invalid_input_exits_3_with_a_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 3 and out == ""
    assert message in err and err.startswith("swissbot standings: ")


def test_malformed_trf_names_the_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.trf"
    bad.write_text("012 Bad\n001    1      Short line\n", encoding="utf-8")
    code, _, err = run(capsys, str(bad))
    assert code == 3 and "line 2" in err


def test_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["standings"])
    assert exc.value.code == 2


def test_club_fixture_is_the_hand_computed_event() -> None:
    from swiss.standings import compute_standings
    from swiss.trf import parse_trf
    from tests.standings_cases import club_swiss

    parsed = parse_trf(Path(CLUB).read_text(encoding="utf-8")).tournament
    every = ["BH-C1", "BH", "FB", "SB", "PS", "DE", "WIN", "WON", "BPG", "BWG", "AROC", "TPR"]
    assert compute_standings(parsed, every).rows == compute_standings(club_swiss(), every).rows


@pytest.mark.parametrize("date", ["2025/05/١٢", "12.05.2025", "2025/13/01", "sometime"])
def test_an_unreadable_start_date_is_an_error_with_its_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, date: str
) -> None:
    """The start date (042) decides the C.07 edition: one that cannot be read used to be
    taken as no date at all, and the standings silently followed the 2026 rules."""
    lines = Path(CLUB).read_text(encoding="utf-8").splitlines()
    lines = [line for line in lines if not line.startswith("042")]
    lines.insert(1, f"042 {date}")
    path = tmp_path / "dated.trf"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(capsys, str(path))
    assert code == 3 and out == ""
    assert f"{path}: line 2, column " in err and "start date (042)" in err
    assert "ASCII digits 0-9" in err
    path.write_text("\n".join(lines).replace(f"042 {date}", "042 2025/05/12") + "\n",
                    encoding="utf-8")
    code, out, _err = run(capsys, str(path))
    assert code == 0 and "edition in force from 1 August 2024" in out.splitlines()[0]
