"""Numeric options of every command are read strictly (cli.options, swiss.numbers): ASCII
digits within the option's range, else argparse's usage error, exit code 2, naming the option
and saying what was wrong. ``type=int`` took "١٢" (Arabic-Indic 12) and any number of digits."""

from __future__ import annotations

import argparse

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cli.main import main
from cli.options import exact, whole
from tests.paths import FIXTURES

TRF = str(FIXTURES / "new8.trf")
STANDINGS = str(FIXTURES / "standings" / "club_swiss.trf")
SIMULATE = ["simulate", "--players", "8", "--rounds", "3", "--tournaments", "2"]


@pytest.mark.parametrize(("argv", "option", "words"), [
    (["pair", TRF, "--seed", "١٢"], "--seed", "'١' is not one of the ASCII digits 0-9"),
    (["pair", TRF, "--seed", "99999999999999999999"], "--seed",
     "it must be 0..9223372036854775807"),
    (["pair", TRF, "--seed", "1.5"], "--seed", "is not a whole number"),
    (["pair", TRF, "--beta", "two"], "--beta", "is not a number"),
    (["pair", TRF, "--beta", "0"], "--beta", "must be positive"),
    (["pair", TRF, "--beta", "1e3"], "--beta", "is not a number"),
    (["standings", STANDINGS, "--rounds", "²"], "--rounds", "'²' is not one of the ASCII"),
    (["standings", STANDINGS, "--rounds", "two"], "--rounds", "is not a whole number"),
    (["standings", STANDINGS, "--lot-seed", "1_000"], "--lot-seed", "is not a whole number"),
    (["standings", STANDINGS, "--explain", "٣"], "--explain", "ASCII digits"),
    ([*SIMULATE, "--jobs", "-1"], "--jobs", "must be 0 or more"),
    ([*SIMULATE, "--tournaments", "0"], "--tournaments", "it must be 1..10000000"),
    ([*SIMULATE, "--seed", "١٢"], "--seed", "ASCII digits"),
    ([*SIMULATE, "--beta", "inf"], "--beta", "is not a number"),
    (["advise", "--players", "١٢", "--rounds", "3"], "--players", "ASCII digits"),
])
def test_bad_numbers_are_usage_errors_naming_the_option(
    capsys: pytest.CaptureFixture[str], argv: list[str], option: str, words: str
) -> None:
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert option in err and words in err, err
    assert "Traceback" not in err


@given(st.text(st.characters(categories=["Nd", "No"], exclude_characters="0123456789"),
               min_size=1, max_size=6))
def test_digits_of_other_scripts_are_refused(text: str) -> None:
    for read in (whole(0, 10**9), exact(low=0, high=100)):
        with pytest.raises(argparse.ArgumentTypeError):
            read(text)


@given(st.integers(0, 10**9))
def test_ascii_whole_numbers_round_trip(value: int) -> None:
    assert whole(0, 10**9)(str(value)) == value
    assert whole(0, 10**9)(f"{value:07d}") == value  # leading zeros are fine
