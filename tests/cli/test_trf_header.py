"""The TRF report header (012-122, swiss.trf.header) and ``swissbot header``: checked values,
and a header written then read back is the same header."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli.main import main
from swiss.model import Player, Tournament
from swiss.trf import parse_trf, write_trf
from swiss.trf.header import (
    HEADER_FIELDS,
    MAX_TEXT,
    HeaderError,
    check_header,
    header_lines,
    read_header,
)

TOURNAMENT = Tournament(players=tuple(Player(id=i, name=f"P{i}") for i in range(1, 5)),
                        total_rounds=3, name="Club Open")

_TEXT = st.text(st.characters(max_codepoint=0x2FF, exclude_characters=";",
                              exclude_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp",
                                                  "Zs"),
                              include_characters=" "),
                min_size=1, max_size=MAX_TEXT).filter(lambda s: s.strip())
_DATES = st.dates(min_value=date(1900, 1, 1), max_value=date(2999, 12, 31))


@st.composite
def headers(draw: st.DrawFn) -> dict[str, str]:
    out: dict[str, str] = {}
    for field in HEADER_FIELDS:
        if not draw(st.booleans()):
            continue
        if field.kind == "date":
            value = draw(_DATES).strftime(draw(st.sampled_from(["%Y/%m/%d", "%Y-%m-%d"])))
        elif field.kind == "count":
            value = str(draw(st.integers(0, 99_999)))
        elif field.kind == "federation":
            value = draw(st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
                                 min_size=3, max_size=3))
        elif field.kind == "list":
            value = "; ".join(draw(st.lists(_TEXT.map(str.strip), min_size=1, max_size=3)))
            value = value[:MAX_TEXT]
        else:
            value = draw(_TEXT)
        out[draw(st.sampled_from([field.key, field.code]))] = value
    return out


@settings(max_examples=200, deadline=None)
@given(headers())
def test_a_header_written_and_read_back_is_the_same(raw: dict[str, str]) -> None:
    try:
        header = check_header(raw)
    except HeaderError as exc:  # only the end-before-start rule may refuse generated values
        assert "before the date of start" in str(exc)
        return
    text = write_trf(replace(TOURNAMENT, name=header.get("012", "")),
                     other_lines=header_lines(header))
    parsed = parse_trf(text)
    assert read_header(parsed.tournament.name, parsed.other_lines) == header
    assert check_header(header) == header  # normalising twice changes nothing


def test_values_are_normalised() -> None:
    assert check_header({"city": " Sankt  Pölten ", "federation": "aut",
                         "start": "2026-03-01", "052": "2026/03/09",
                         "deputies": " A. One ;; B. Two ", "players": "007"}) == {
        "022": "Sankt Pölten", "032": "AUT", "042": "2026/03/01", "052": "2026/03/09",
        "062": "7", "112": "A. One; B. Two"}


@pytest.mark.parametrize(("raw", "message"), [
    ({"start": "01/03/2026"}, "YYYY/MM/DD"),
    ({"end": "2026/13/01"}, "YYYY/MM/DD"),
    ({"start": "2026/03/09", "end": "2026/03/01"}, "before the date of start"),
    ({"federation": "A1B"}, "three-letter"),
    ({"rated": "-1"}, "whole number"),
    ({"teams": "١٢"}, "whole number"),  # Arabic-Indic digits are not ASCII
    ({"type": "x" * (MAX_TEXT + 1)}, "at most 80"),
    ({"city": "a\x00b"}, "control character"),
    ({"round": "1"}, "unknown TRF header field"),
])
def test_bad_values_say_what_is_wrong(raw: dict[str, str], message: str) -> None:
    with pytest.raises(HeaderError, match=message):
        check_header(raw)


def test_cli_sets_the_header_and_reads_it_back(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "in.trf"
    source.write_text(write_trf(TOURNAMENT), encoding="utf-8")
    out = tmp_path / "out.trf"
    assert main(["header", str(source), "--set", "city=Oslo", "--set", "042=2026-05-01",
                 "--set", "chief-arbiter=Ann", "-o", str(out)]) == 0
    assert main(["header", str(out)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "012 Club Open", "022 Oslo", "042 2026/05/01", "102 Ann"]
    # the tournament itself is unchanged
    assert parse_trf(out.read_text(encoding="utf-8")).tournament == TOURNAMENT


def test_cli_set_without_output_rewrites_the_file_whole(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``--set`` without ``-o`` writes FILE itself, as documented (keeping its permissions),
    ``-o -`` writes to standard output, and a write that fails leaves FILE as it was."""
    source = tmp_path / "in.trf"
    source.write_text(write_trf(TOURNAMENT), encoding="utf-8")
    source.chmod(0o640)
    assert main(["header", str(source), "--set", "city=Oslo"]) == 0
    assert capsys.readouterr().out == ""
    assert "022 Oslo" in source.read_text(encoding="utf-8").splitlines()
    assert source.stat().st_mode & 0o777 == 0o640
    assert parse_trf(source.read_text(encoding="utf-8")).tournament == TOURNAMENT
    assert main(["header", str(source), "--set", "city=Bergen", "-o", "-"]) == 0
    assert "022 Bergen" in capsys.readouterr().out.splitlines()
    assert "022 Oslo" in source.read_text(encoding="utf-8").splitlines()  # untouched

    before = source.read_bytes()

    def full_disk(*_args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("cli.trf_file.os.replace", full_disk)
    assert main(["header", str(source), "--set", "city=Tromsø"]) == 3
    assert "No space left on device" in capsys.readouterr().err
    assert source.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.trf"]  # no temporary left


def test_cli_errors_name_the_value_or_the_line(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "in.trf"
    source.write_text(write_trf(TOURNAMENT, other_lines=["022 Oslo", "052 2026/02/31"]),
                      encoding="utf-8")
    assert main(["header", str(source)]) == 3
    err = capsys.readouterr().err
    assert "line 3" in err and "YYYY/MM/DD" in err  # 012, 022, then the bad 052
    good = tmp_path / "good.trf"
    good.write_text(write_trf(TOURNAMENT), encoding="utf-8")
    assert main(["header", str(good), "--set", "federation=France"]) == 3
    assert "three-letter" in capsys.readouterr().err
    assert main(["header", str(good), "--set", "city"]) == 3
    assert "KEY=VALUE" in capsys.readouterr().err


def test_the_discord_option_allows_exactly_what_a_header_line_holds() -> None:
    from service.limits import MAX_TRF_HEADER_TEXT

    assert MAX_TRF_HEADER_TEXT == MAX_TEXT


DIGITS_OF_OTHER_SCRIPTS = st.text(
    st.characters(categories=["Nd"], exclude_characters="0123456789"), min_size=1, max_size=2)


@given(DIGITS_OF_OTHER_SCRIPTS, st.sampled_from(["042", "052"]))
def test_dates_with_digits_of_other_scripts_are_refused(digits: str, code: str) -> None:
    """re's \\d matches every script's digits: "2026/01/١٢" used to be stored as the 12th."""
    from swiss.trf.header import HeaderError, check_header

    with pytest.raises(HeaderError, match="YYYY/MM/DD"):
        check_header({code: f"2026/01/{digits}"})


@given(st.dates(date(1900, 1, 1), date(2999, 12, 31)))
def test_ascii_dates_round_trip(day: date) -> None:
    from swiss.trf.header import check_header

    assert check_header({"042": day.strftime("%Y/%m/%d")})["042"] == day.strftime("%Y/%m/%d")
