"""``swissbot advise`` end to end: the table and the sentence, determinism, bad input."""

from __future__ import annotations

import pytest

from cli.exit_codes import EXIT_USAGE
from cli.main import main
from swiss.pairing import SYSTEMS

BASE = ["advise", "--players", "10", "--rounds", "4", "--tournaments", "10", "--seed", "2"]


def test_prints_the_table_and_the_recommendation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(BASE) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("# 10 players, 4 rounds, chess scoring, results as in rated chess games "
                        "(Milvang's model, draws included), strengths spread evenly from 1400 "
                        "to 2200, seed 2")
    # (no rematch column: no system needed one)
    assert lines[1].split() == ["system", "events", "tau", "(95%)", "vs", "dutch", "best", "wins",
                                "clear", "win", "floats/rd", "colour"]
    rows = lines[2:2 + len(SYSTEMS)]
    assert sorted(r.split()[0] for r in rows) == sorted(SYSTEMS)
    # every figure with its interval (the reference's own difference is "-")
    assert all(r.split()[1] == "10" and r.count("±") >= 5 for r in rows)
    assert lines[2 + len(SYSTEMS)].startswith("# tau: how well the final standings match")
    assert lines[3 + len(SYSTEMS)].startswith(("Use ", "No clear difference: use dutch"))
    assert lines[-1].startswith("Tiebreaks: with ")


def test_same_numbers_for_any_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    args = [*BASE, "--scoring", "match", "--draw-rate", "0.1"]
    assert main([*args, "--jobs", "1"]) == 0
    one = capsys.readouterr().out
    assert main([*args, "--jobs", "2"]) == 0
    assert capsys.readouterr().out == one
    assert "match scoring, results by the Elo curve (10% draws between equal players)" in one


def test_too_few_rounds_are_said(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["advise", "--players", "64", "--rounds", "3", "--tournaments", "10"]) == 0
    out = capsys.readouterr().out
    assert "3 rounds are too few for 64 players to find a clear winner" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "8", "--rounds", "8"], "--rounds must be below --players (8)"),
        (["--players", "1", "--rounds", "1"], "--players"),
        (["--players", "eight", "--rounds", "3"], "--players 'eight' is not a whole number"),
        (["--players", "8", "--rounds", "3", "--draw-rate", "1"], "--draw-rate must be below 1"),
        (["--players", "8", "--rounds", "3", "--draw-rate", "-0.1"], "--draw-rate"),
        (["--players", "8", "--rounds", "3", "--seconds", "0"], "--seconds must be more than 0"),
        (["--players", "8", "--rounds", "3", "--tournaments", "0"], "--tournaments"),
        (["--players", "8", "--rounds", "3", "--strengths", "uniform:9:1"], "LOW must be below"),
        (["--players", "8", "--rounds", "3", "--jobs", "x"], "--jobs"),
    ],
)
def test_bad_input_exits_2_with_a_message(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["advise", *args]) == EXIT_USAGE
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("swissbot advise: ")
    assert message in captured.err


def test_unknown_scoring_and_missing_options_are_usage_errors(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for args in (["--players", "8", "--rounds", "3", "--scoring", "go"], ["--players", "8"]):
        with pytest.raises(SystemExit) as exit_:
            main(["advise", *args])
        assert exit_.value.code == EXIT_USAGE
        assert "usage: swissbot advise" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["advise", "simulate", "pair", "header", "demo"])
def test_help_shows_percent_signs_as_written(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """argparse formats the option helps with %, not the descriptions: "95%%" showed as is."""
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = capsys.readouterr().out
    assert "%%" not in text
    if command == "advise":
        assert "with 95% intervals" in " ".join(text.split())
