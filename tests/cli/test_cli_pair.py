"""``swissbot pair``: pairs output like bbpPairings, exit codes 0 / 1 / 2 / 3, options."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cli.main import EXIT_INVALID_INPUT, EXIT_NO_PAIRING, EXIT_OK, EXIT_USAGE, main
from swiss.model import Game, Player, Result, Round, Tournament
from swiss.trf import write_trf
from tests.paths import FIXTURES

FIXTURES = FIXTURES / "trf"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["pair", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_eight_new_players_dutch_like_bbppairings(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--system", "dutch", str(FIXTURES / "new8.trf"))
    assert (code, out, err) == (EXIT_OK, "4\n1 5\n6 2\n3 7\n8 4\n", "")


def test_odd_field_gets_the_pab_printed_last(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--system", "dutch", str(FIXTURES / "tiny_r1.trf"))
    assert code == EXIT_OK
    assert out == "4\n1 4\n5 2\n3 6\n7 0\n"  # byte for byte what bbpPairings printed


@pytest.mark.parametrize("name", ["tiny_r2_hbye.trf", "tiny_r2_240.trf"])
def test_requested_bye_is_left_out_and_not_printed(capsys: pytest.CaptureFixture[str],
                                                   name: str) -> None:
    code, out, _ = run(capsys, str(FIXTURES / name))
    lines = out.splitlines()
    assert code == EXIT_OK and lines[0] == "3" and len(lines) == 4
    paired = [int(x) for line in lines[1:] for x in line.split()]
    assert sorted(paired) == [1, 2, 4, 5, 6, 7]  # player 3 is out, nobody gets "0"


def test_second_round_repeats_nobody(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, str(FIXTURES / "tiny_r2.trf"))
    assert code == EXIT_OK
    pairs = {frozenset(map(int, line.split())) for line in out.splitlines()[1:]}
    assert not pairs & {frozenset(p) for p in ((1, 4), (5, 2), (3, 6))}
    assert frozenset((7, 0)) not in pairs  # 7 had the PAB in round 1


@pytest.mark.parametrize(
    ("system", "boards"),
    [("burstein", {(1, 8), (2, 7), (3, 6), (4, 5)}), ("monrad", {(1, 2), (3, 4), (5, 6), (7, 8)})],
)
def test_other_systems_pair_the_score_group_like_the_paper(
    capsys: pytest.CaptureFixture[str], system: str, boards: set[tuple[int, int]]
) -> None:
    code, out, _ = run(capsys, "--system", system, str(FIXTURES / "new8.trf"))
    assert code == EXIT_OK
    assert {tuple(sorted(map(int, line.split()))) for line in out.splitlines()[1:]} == boards


def test_output_file_and_explanations(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "round1.pairs"
    code, out, err = run(capsys, "--system", "dutch", "--explain", "--beta", "0.1",
                         "--backend", "networkx", str(FIXTURES / "tiny_r1.trf"),
                         "-o", str(out_file))
    assert (code, out) == (EXIT_OK, "")
    assert out_file.read_text(encoding="utf-8") == "4\n1 4\n5 2\n3 6\n7 0\n"
    explained = err.splitlines()
    assert len(explained) == 4
    assert explained[-1].startswith("7 bye: ") and "score difference=" in explained[0]


def test_random_systems_follow_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(FIXTURES / "new8.trf")
    first = run(capsys, "--system", "random", "--seed", "5", path)
    again = run(capsys, "--system", "random", "--seed", "5", path)
    assert first == again and first[0] == EXIT_OK
    outputs = {run(capsys, "--system", "random", "--seed", str(s), path)[1] for s in range(6)}
    assert len(outputs) > 1


def met_already(tmp_path: Path) -> Path:
    players = (Player(1, "One"), Player(2, "Two"))
    t = Tournament(players=players, total_rounds=3)
    t = t.with_round(Round(1, (Game(1, 2, Result.DRAW, board=1),)))
    path = tmp_path / "met.trf"
    path.write_text(write_trf(t), encoding="utf-8")
    return path


def test_no_valid_pairing_exits_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = str(met_already(tmp_path))
    code, out, err = run(capsys, "--system", "dutch", "--policy", "forbid", path)
    assert (code, out) == (EXIT_NO_PAIRING, "")
    assert err.startswith("swissbot pair: no valid pairing")
    # The default policy allows the rematch because nothing else is possible; colours swap.
    assert run(capsys, "--system", "dutch", path)[:2] == (EXIT_OK, "1\n2 1\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--system", "swiss"], "unknown pairing system 'swiss'"),
        (["--policy", "maybe"], "argument --policy: invalid choice: 'maybe'"),
        (["--backend", "scipy"], "argument --backend: invalid choice: 'scipy'"),
        (["--score-tier", "sum"], "argument --score-tier: invalid choice: 'sum'"),
        (["--system", "dutch", "--rules", "2017"], "applies to fide-dutch only; dutch has no"),
        (["--system", "fide-team", "--rules", "2025"], "fide-team has no editions"),
        (["--rules", "2019"], "unknown FIDE Dutch rules edition '2019'; use 2025 or 2017"),
        (["--system", "fide-dutch-2017", "--rules", "2025"], "is the 2017 edition"),
    ],
)
def test_bad_option_values_exit_2_with_the_usage(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    """A bad option value is a usage error, as the README says: exit 2, the sub-command's
    usage, the option named; the file is not read (nor paired)."""
    with pytest.raises(SystemExit) as exit_:
        main(["pair", *args, str(FIXTURES / "new8.trf")])
    out, err = capsys.readouterr()
    assert (exit_.value.code, out) == (EXIT_USAGE, "")
    assert err.startswith("usage: swissbot pair ") and message in err


def test_a_wrong_option_prints_the_sub_commands_usage(
    capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["pair", "--bogus", str(FIXTURES / "new8.trf")])
    err = capsys.readouterr().err
    assert exit_.value.code == EXIT_USAGE
    assert err.startswith("usage: swissbot pair ")
    assert err.rstrip().endswith("swissbot pair: error: unrecognized arguments: --bogus")


@pytest.mark.parametrize("argv", [["db", "check", "--bogus"], ["db", "copy", "a", "b", "--bogus"]])
def test_a_wrong_option_of_a_nested_command_prints_its_own_usage(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    err = capsys.readouterr().err
    name = " ".join(argv[:2])
    assert exit_.value.code == EXIT_USAGE
    assert err.startswith(f"usage: swissbot {name} ")
    assert err.rstrip().endswith(f"swissbot {name}: error: unrecognized arguments: --bogus")


def test_the_default_system_is_the_fide_dutch(capsys: pytest.CaptureFixture[str]) -> None:
    """An arbiter expects FIDE Dutch from a bbpPairings-compatible command: the default is
    fide-dutch with the 2025 rules, and the earlier spelling fide-dutch-2017 still works."""
    path = str(FIXTURES / "tiny_r1.trf")
    default = run(capsys, path)
    assert default == run(capsys, "--system", "fide-dutch", "--rules", "2025", path)
    assert default[0] == EXIT_OK
    assert run(capsys, "--system", "fide-dutch-2017", path) == \
        run(capsys, "--system", "fide-dutch", "--rules", "2017", path)
    with pytest.raises(SystemExit):
        main(["pair", "--help"])
    assert "(default: fide-dutch, the official FIDE Dutch)" in " ".join(
        capsys.readouterr().out.split())


def test_dash_output_means_standard_output(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = str(FIXTURES / "tiny_r1.trf")
    code, out, _ = run(capsys, "--system", "dutch", path, "-o", "-")
    assert (code, out) == (EXIT_OK, "4\n1 4\n5 2\n3 6\n7 0\n")
    assert list(tmp_path.iterdir()) == []  # no file named "-"


def test_malformed_trf_exits_3_naming_line_and_column(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    text = (FIXTURES / "tiny_r2.trf").read_text(encoding="utf-8")
    bad = tmp_path / "bad.trf"
    bad.write_text(text.replace("     5 b =", "   x12 b ="), encoding="utf-8")
    code, out, err = run(capsys, str(bad))
    assert (code, out) == (EXIT_INVALID_INPUT, "")
    assert err == (f"swissbot pair: {bad}: line 5, column 93: round 1: opponent id 'x12' is "
                   "not a whole number\n")


def test_unreadable_or_undecodable_file_exits_3(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    code, _, err = run(capsys, str(tmp_path / "missing.trf"))
    assert code == EXIT_INVALID_INPUT and "cannot read" in err
    latin = tmp_path / "latin1.trf"
    latin.write_bytes((FIXTURES / "new8.trf").read_bytes().replace(b"Hugo", b"H\xfcgo"))
    code, _, err = run(capsys, str(latin))
    assert code == EXIT_INVALID_INPUT and "not valid UTF-8" in err


def test_finished_tournament_exits_3(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    text = (FIXTURES / "tiny_r2.trf").read_text(encoding="utf-8").replace("XXR 3", "XXR 1")
    path = tmp_path / "done.trf"
    path.write_text(text, encoding="utf-8")
    code, _, err = run(capsys, str(path))
    assert code == EXIT_INVALID_INPUT and "the only round has been played" in err


def test_installed_command(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("swissbot")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "cli.main"]
    out_file = tmp_path / "pairs.txt"
    done = subprocess.run(
        [*command, "pair", "--system", "dutch", str(FIXTURES / "new8.trf"), "-o", str(out_file)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == EXIT_OK, done.stderr
    assert out_file.read_text(encoding="utf-8") == "4\n1 5\n6 2\n3 7\n8 4\n"
    bad = subprocess.run([*command, "pair", str(tmp_path / "nope.trf")],
                         capture_output=True, text=True, timeout=120, check=False)
    assert bad.returncode == EXIT_INVALID_INPUT and "cannot read" in bad.stderr


def test_seed_defaults_to_the_event_seed_in_the_file(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    plain = str(FIXTURES / "new8.trf")
    seeded = tmp_path / "seeded.trf"
    seeded.write_text((FIXTURES / "new8.trf").read_text(encoding="utf-8") + "SBE 5\n",
                      encoding="utf-8")
    with_file_seed = run(capsys, "--system", "random", str(seeded))
    assert with_file_seed == run(capsys, "--system", "random", "--seed", "5", plain)
    assert run(capsys, "--system", "random", plain) == run(
        capsys, "--system", "random", "--seed", "0", plain)


def test_a_file_without_players_is_invalid_input(tmp_path, capsys) -> None:
    from cli.main import main

    path = tmp_path / "empty.trf"
    path.write_text("012 Nothing here\nXXR 3\n", encoding="utf-8")
    assert main(["pair", str(path)]) == 3
    assert "no player lines" in capsys.readouterr().err


def test_a_closed_pipe_ends_the_command_quietly() -> None:
    """`swissbot pair FILE | head -0`: no BrokenPipeError traceback, exit 141 like Unix tools."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", "pair", "--system", "dutch", str(FIXTURES / "new8.trf")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    proc.stdout.close()  # the reader leaves before the command writes anything
    err = proc.stderr.read().decode() if proc.stderr else ""
    assert proc.wait(timeout=60) == 141
    assert "Traceback" not in err and "BrokenPipe" not in err
