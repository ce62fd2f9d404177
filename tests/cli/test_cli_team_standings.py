"""`swissbot standings --teams`: a team TRF ranked by the team tie-breaks, and its errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.main import main
from swiss.teams.tiebreaks import team_standings
from swiss.teams.trf import parse_team_trf
from tests.swiss.test_fide_team_tiebreaks import EVENTS, rebuild


def test_the_standings_command_ranks_a_team_file(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    event = EVENTS[1]
    path = tmp_path / "event.trf"
    path.write_text(rebuild(event["seed"], event["rounds"]), encoding="utf-8")
    assert main(["standings", "--teams", str(path), "--tiebreaks", "DE,BC",
                 "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    parsed = parse_team_trf(path.read_text(encoding="utf-8"))
    primary = parsed.rules.primary
    assert lines[0] == f"rank,team,name,{primary.upper()},DE,BC"
    _specs, rows = team_standings(parsed.teams, primary, ["DE", "BC"],
                                  total_rounds=parsed.total_rounds)
    assert [line.split(",")[1] for line in lines[1:]] == [str(r.tpn) for r in rows]
    assert main(["standings", "--teams", str(path)]) == 0
    assert capsys.readouterr().out.split()[:4] == ["rank", "team", "name", primary.upper()]


@pytest.mark.parametrize("options, message", [
    (["--tiebreaks", "BH,NOPE"], "unknown team tie-break 'NOPE'"),
    (["--rounds", "99"], "--rounds 99: only"),
    (["--format", "json"], "--teams prints text or csv"),
])
def test_the_standings_command_refuses_bad_options(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str],
        message: str) -> None:
    path = tmp_path / "event.trf"
    path.write_text(rebuild(EVENTS[0]["seed"], EVENTS[0]["rounds"]), encoding="utf-8")
    assert main(["standings", "--teams", str(path), *options]) == 3
    assert message in capsys.readouterr().err


def test_the_standings_command_names_the_line_of_a_broken_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "event.trf"
    text = rebuild(EVENTS[0]["seed"], EVENTS[0]["rounds"])
    path.write_text(text.replace("192 FIDE_TEAM", "192 FIDE_TEAMX", 1), encoding="utf-8")
    assert main(["standings", "--teams", str(path)]) == 3
    assert "line 4" in capsys.readouterr().err
