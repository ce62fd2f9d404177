"""Hostile numbers and files on the command line and in TRF (issue 11, items 11 and 12).

Every case exits 3 at once with a message naming what was wrong -- and, for the file, the line
and column -- instead of hanging, printing a traceback or exiting 0 with nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cli.exit_codes import EXIT_USAGE
from cli.main import EXIT_INVALID_INPUT, main
from tests.paths import FIXTURES, REPO
from tests.time_limit import time_limit

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

FIXTURES = FIXTURES / "trf"
README = REPO / "README.md"
LOCATION = re.compile(r": line (\d+), column (\d+): ")


def tiny() -> str:
    return (FIXTURES / "tiny_r2.trf").read_text(encoding="utf-8")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    with time_limit(60):  # the hostile numbers used to hang; fail instead
        code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, data: str | bytes) -> str:
    path = tmp_path / "hostile.trf"
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return str(path)


@pytest.mark.parametrize(
    ("extra_line", "line_column", "reason"),
    [
        # Fraction("1e99999999") built a 100-million-digit integer: pair and standings hung.
        ("SBS win=1e99999999", (4, 10), "the win points '1e99999999' is not a number"),
        # 1e400 parsed, then float() of it raised OverflowError (a traceback).
        ("SBS win=1e400 draw=1", (4, 10), "the win points '1e400' is not a number"),
        ("BBW 1e400", (4, 6), "the BBW points value '1e400' is not a number"),
        # The column is that of the first offending character.
        ("SBS win=5000", (4, 9), "the win points 5000 is out of range: it must be -1000..1000"),
        # "²".isdigit() is true and int("²") raised ValueError.
        ("XXP 1 ²", (4, 7), "player id '²' is not a whole number: '²' is not one of the ASCII"),
        ("XXR ²", (2, 5), None),  # replaces the XXR line below
        # A 20-digit id overflowed (OverflowError) further down.
        ("XXP 1 12345678901234567890", (4, 7), "player id '12345678901234567890' is out of "
                                               "range: it must be 1..9999"),
        ("SBE 99999999999999999999999", (4, 5), "the event seed '99999999999999999999999' is "
                                                "out of range"),
        ("240 H   ²    3", (4, 9), "the bye round '²' is not a whole number"),
        ("SBW 3 ١", (4, 7), "the withdrawal round '١' is not a whole number"),
    ],
)
@pytest.mark.parametrize("command", ["pair", "standings"])
def test_hostile_numbers_in_trf_exit_3_with_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, extra_line: str,
    line_column: tuple[int, int], reason: str | None,
) -> None:
    lines = tiny().splitlines()
    if extra_line.startswith("XXR"):
        lines[1] = extra_line
    else:
        lines.insert(3, extra_line)
    path = write(tmp_path, "\n".join(lines) + "\n")
    code, out, err = run(capsys, command, path)
    assert (code, out) == (EXIT_INVALID_INPUT, ""), err
    assert "Traceback" not in err
    location = LOCATION.search(err)
    assert location is not None, err
    assert (int(location[1]), int(location[2])) == line_column, err
    if reason is not None:
        assert reason in err


def test_invalid_utf8_is_reported_by_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tiny().encode("utf-8").replace(b"Charlie, Cy", b"Ch\xe9rlie, Cy")
    path = write(tmp_path, data)
    for command in ("pair", "standings"):
        code, _, err = run(capsys, command, path)
        assert code == EXIT_INVALID_INPUT
        assert f"{path}: line 6, column 17: not valid UTF-8: byte 0xe9" in err, err
        assert "byte 4" not in err  # no byte offsets


def test_invalid_utf8_after_multibyte_characters_counts_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "012 Échecs ½\r\n".encode() + b"XXR 3\r\n001  \xff")
    code, _, err = run(capsys, "pair", path)
    assert code == EXIT_INVALID_INPUT
    assert ": line 3, column 6: not valid UTF-8: byte 0xff" in err, err


@pytest.mark.parametrize("command", ["pair", "standings"])
@pytest.mark.parametrize("source", ["devnull", "empty", "readme"])
def test_a_file_without_player_lines_exits_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, source: str
) -> None:
    if source == "devnull":
        path = "/dev/null"
    elif source == "empty":
        path = write(tmp_path, b"")
    else:
        path = str(README)
    code, out, err = run(capsys, command, path)
    assert (code, out) == (EXIT_INVALID_INPUT, "")
    assert f"{path}: line 1, column 1: no player lines ('001')" in err, err


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["pair", "--seed", "²"], "--seed: value '²' is not a whole number: '²' is not one of "
                                  "the ASCII"),
        (["pair", "--seed", "1_000"], "--seed: value '1_000' is not a whole number"),
        (["pair", "--seed", "-3"], "--seed: value must be 0 or more"),
        (["pair", "--beta", "1e99999999"], "--beta: value '1e99999999' is not a number"),
        (["pair", "--beta", "1e400"], "--beta: value '1e400' is not a number"),
        (["pair", "--beta", "nan"], "--beta: value 'nan' is not a number"),
        (["standings", "--rounds", "١"], "--rounds: value '١' is not a whole number"),
        (["standings", "--lot-seed", "12345678901234567890"], "--lot-seed: value "),
        (["standings", "--explain", "99999999999999999999"], "--explain: value "),
    ],
)
def test_hostile_numbers_on_the_command_line_are_usage_errors_naming_the_option(
    capsys: pytest.CaptureFixture[str], argv: list[str], reason: str
) -> None:
    code, out, err = _usage(capsys, *argv, str(FIXTURES / "tiny_r2.trf"))
    assert (code, out) == (EXIT_USAGE, "")
    assert f"argument {reason}" in err, err


def _usage(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run a command whose options argparse refuses (SystemExit with its exit code)."""
    with pytest.raises(SystemExit) as exit_, time_limit(60):
        main(list(argv))
    out, err = capsys.readouterr()
    return exit_.value.code, out, err  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("argv", "reason"),
    [  # numbers of an option: argparse's usage error (2)
        (["--players", "١٢"], "argument --players: value '١٢' is not a whole number"),
        (["--players", "99999999999"], "argument --players: value '99999999999' is out of "
                                       "range: it must be 2..4096"),
        (["--seed", "-1"], "argument --seed: value must be 0 or more"),
        (["--jobs", "²"], "argument --jobs: value '²' is not a whole number"),
        (["--beta", "1e400"], "argument --beta: value '1e400' is not a number"),
        # numbers inside a specification: invalid input (3)
        (["--strengths", "uniform:1e400:2200"], "a parameter '1e400' is not a number"),
        (["--strengths", "uniform:nan:2200"], "a parameter 'nan' is not a number"),
        (["--model", "elo:1e-400"], "the draw share '1e-400' is not a number"),
    ],
)
def test_hostile_simulate_options_are_refused_naming_the_option(
    capsys: pytest.CaptureFixture[str], argv: list[str], reason: str
) -> None:
    argv = ["simulate", "--tournaments", "1", "--quiet", *argv]
    if reason.startswith("argument "):
        code, _out, err = _usage(capsys, *argv)
        assert code == EXIT_USAGE
    else:
        code, _out, err = run(capsys, *argv)
        assert code == EXIT_INVALID_INPUT and err.startswith("swissbot simulate: ")
    assert reason in err, err


# -- the bot: a player list imported from CSV (service level) --------------------------------
@pytest.mark.parametrize(
    ("csv_text", "reason"),
    [
        # "²".isdigit() is true and int("²") raised ValueError ("Something went wrong").
        ("Ann,²\n", "CSV line 1: The rating '²' is not a whole number: '²' is not one of the "
                    "ASCII digits 0-9."),
        ("Ann,1500,١٢\n", "CSV line 1: '١٢' is not a valid Discord user id"),
        # A 20-digit user id overflowed SQLite's INTEGER (OverflowError).
        ("Ann,1500,12345678901234567890\n",
         "CSV line 1: '12345678901234567890' is not a valid Discord user id"),
        ("Ann,1e400\n", "CSV line 1: The rating '1e400' is not a whole number"),
    ],
)
async def test_hostile_numbers_in_an_imported_csv_are_refused_in_words(
    tmp_path: Path, csv_text: str, reason: str
) -> None:
    from service import InvalidInputError
    from tests.service_helpers import open_service, organiser

    async with open_service(tmp_path / "import.sqlite3") as service:
        await service.create_tournament(organiser(), "Cup", 3, seed=1)
        with pytest.raises(InvalidInputError) as caught:
            await service.import_players(organiser(), csv_text, "csv", "Cup")
        assert reason in caught.value.message, caught.value.message
        assert await service.list_players(organiser().guild_id) == []


# -- other numbers from outside -----------------------------------------------------------------
@pytest.mark.parametrize("date", ["2024/²/01", "99999999999999999999/1/1", "2024/08/١"])
def test_a_hostile_start_date_is_an_error_with_its_line_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], date: str
) -> None:
    # "²".isdigit() made int() raise ValueError; a 20-digit year made date() overflow. The
    # date decides the tie-break rules, so one that cannot be read is an error, not ignored.
    path = write(tmp_path, f"042 {date}\n" + tiny())
    code, out, err = run(capsys, "standings", path)
    assert (code, out) == (EXIT_INVALID_INPUT, "")
    assert f"{path}: line 1, column " in err and "start date (042)" in err, err


@pytest.mark.parametrize("output", ["²\n", "1\n1 ²\n", "1\n1 99999999999999999999\n"])
def test_hostile_external_engine_output_is_an_engine_error(output: str) -> None:
    from cli.simulation.experiment import ExternalEngineError, parse_pairs
    from swiss.trf import parse_trf

    tournament = parse_trf(tiny()).tournament
    with pytest.raises(ExternalEngineError, match=r"pair count|bad pair line"):
        parse_pairs(output, tournament)


@pytest.mark.parametrize("ids", ["²", "12345678901234567890123", "1_000"])
def test_hostile_guild_ids_in_the_environment_are_refused_in_words(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, ids: str
) -> None:
    from pydantic import ValidationError

    from bot.settings import Settings

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SWISSBOT_GUILD_IDS", f"123, {ids}")
    with pytest.raises(ValidationError, match="SWISSBOT_GUILD_IDS must be comma-separated "
                                              "numeric guild ids: guild id"):
        Settings()
