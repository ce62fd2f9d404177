"""``swissbot simulate`` end to end: the table, the files, the errors, determinism."""

from __future__ import annotations

import csv

import pytest

from cli.main import main

BASE = ["simulate", "--players", "8", "--rounds", "3", "--tournaments", "6", "--quiet"]


def test_prints_a_table_per_system(capsys):
    assert main([*BASE, "--systems", "burstein,monrad"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("# 6 tournaments per system, 8 players, 3 rounds, beta 2")
    assert "Kendall tau" in lines[1] and "float pairs" in lines[1]
    assert lines[2].startswith("burstein") and lines[3].startswith("monrad")
    assert "±" in lines[2]


def test_same_seed_same_table_for_any_jobs(capsys):
    assert main([*BASE, "--systems", "random,dutch", "--seed", "9", "--jobs", "1"]) == 0
    one = capsys.readouterr().out
    assert main([*BASE, "--systems", "random,dutch", "--seed", "9", "--jobs", "2"]) == 0
    two = capsys.readouterr().out
    assert main([*BASE, "--systems", "random,dutch", "--seed", "10", "--jobs", "2"]) == 0
    other = capsys.readouterr().out
    assert one == two
    assert one != other


def test_reference_engine_gives_the_same_numbers(capsys):
    assert main([*BASE, "--systems", "random2"]) == 0
    fast = capsys.readouterr().out
    assert main([*BASE, "--systems", "random2", "--reference-engine"]) == 0
    assert capsys.readouterr().out == fast


def test_out_writes_csv_and_plots(tmp_path, capsys):
    out = tmp_path / "run"
    args = [*BASE, "--systems", "dutch,random", "--out", str(out), "--markdown",
            "--strengths", "normal:1800:200", "--model", "elo:0.2"]
    assert main(args) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("| system |")
    with (out / "tournaments.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 12
    assert {r["system"] for r in rows} == {"dutch", "random"}
    columns = {"kendall_tau", "float_pairs", "acd_r1", "acd_r3", "floats_r3", "strength_diff_ratio"}
    assert columns <= set(rows[0])
    for name in ("kendall_tau", "float_pairs", "colour_difference", "summary"):
        assert any(p.name.startswith(name) for p in out.iterdir())
    png = (out / "kendall_tau.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    # A second run drawn against the first one (the beta comparison of the paper).
    again = tmp_path / "again"
    assert main([*BASE, "--systems", "dutch,random", "--beta", "0.1", "--out", str(again),
                 "--baseline", str(out / "tournaments.csv"), "--labels", "b=0.1,b=2"]) == 0
    assert (again / "float_pairs.png").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "4", "--rounds", "4"], "--rounds must be between 1 and players - 1"),
        (["--strengths", "uniform:3:1"], "LOW must be below HIGH"),
        (["--model", "glicko"], "unknown outcome model"),
        (["--tiebreaks", "XYZ"], "--tiebreaks"),
        (["--systems", "", "--external", "bbp --dutch"], "{trf}"),
        (["--systems", ""], "nothing to simulate"),
        (["--baseline", "/nonexistent/run.csv"], "--baseline"),
    ],
)
def test_bad_input_exits_3_with_a_clear_message(args, message, capsys):
    code = main([*BASE, *args])
    err = capsys.readouterr().err
    assert code == 3
    assert err.startswith("swissbot simulate: ")
    assert message in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--systems", "swiss"], "unknown pairing system 'swiss'"),
        (["--systems", "dutch", "--rules", "2017"], "--rules applies to fide-dutch only"),
        (["--systems", "fide-dutch", "--rules", "2019"], "unknown FIDE Dutch rules edition"),
    ],
)
def test_a_bad_system_or_edition_is_a_usage_error(args, message, capsys):
    """As in ``swissbot pair``: exit 2 under the sub-command's usage, never ignored."""
    with pytest.raises(SystemExit) as exit_:
        main([*BASE, *args])
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert err.startswith("usage: swissbot simulate ") and message in err


def test_external_failure_exits_1(capsys):
    code = main([*BASE, "--systems", "", "--external", "no-such-engine-here {trf}"])
    assert code == 1
    assert "external engine not found" in capsys.readouterr().err


def test_external_engine_column(capsys):
    import sys

    command = f"{sys.executable} -m cli pair {{trf}} --system burstein"
    code = main(["simulate", "--players", "6", "--rounds", "2", "--tournaments", "2", "--quiet",
                 "--systems", "burstein", "--external", command, "--external-name", "ext"])
    assert code == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].startswith("burstein") and lines[3].startswith("ext")


def test_fide_dutch_runs_the_official_dutch_of_the_edition_asked(capsys):
    """``--systems fide-dutch`` pairs through the engine with ``--rules``; the two editions
    get their own labels; a tournament it plays is the engine's pairing round by round."""
    from dataclasses import replace

    from swiss.pairing import PairingConfig, pair_round
    from swiss.sim.runner import EnginePairer, SimulationConfig, play_tournament

    assert main([*BASE, "--systems", "fide-dutch,dutch"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].startswith("fide-dutch ") and lines[3].startswith("dutch ")
    assert main([*BASE, "--systems", "fide-dutch", "--rules", "2017"]) == 0
    assert capsys.readouterr().out.splitlines()[2].startswith("fide-dutch (2017 rules) ")
    config = SimulationConfig(players=9, rounds=4)
    played = play_tournament(config, "fide-dutch-2017",
                             0, EnginePairer("fide-dutch", rules="2017"), fast=False)
    t = played.tournament
    for rnd in t.rounds:
        before = replace(t, rounds=tuple(r for r in t.rounds if r.number < rnd.number))
        again = pair_round(before, PairingConfig(system="fide-dutch", rules="2017"))
        assert {(g.white, g.black) for g in again.games} == \
            {(g.white, g.black) for g in rnd.games}


@pytest.mark.parametrize(("column", "value"), [("games", "١٢"), ("draws", "inf"),
                                               ("kendall_tau", "inf"), ("ndcg", "٠.5"),
                                               ("tournament", "1_000")])
def test_a_baseline_with_hostile_numbers_names_line_and_column(tmp_path, column, value) -> None:
    """int() read "١٢" as 12 and float() took "inf": a baseline CSV is read strictly."""
    from cli.simulation.experiment import read_csv, write_csv
    from swiss.sim.runner import TournamentMeasures

    record = TournamentMeasures("dutch", 0, 0.5, 0.5, 0.9, 1, (0, 1), 10.0, 0.1,
                                float("nan"), 12, 3, True, (1, 0))
    path = tmp_path / "tournaments.csv"
    write_csv({"dutch": [record]}, path)
    assert read_csv(path)["dutch"][0].games == 12  # as written: read back
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    rows[0][column] = value
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    with pytest.raises(ValueError, match=f"line 2, column {column}: "):
        read_csv(path)
