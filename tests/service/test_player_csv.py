"""The CSV reader of /admin import-players (service.player_csv): any text is either rows or
one InvalidInputError listing each bad line and column; valid files read back exactly."""

from __future__ import annotations

import csv
import io
import re
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.errors import InvalidInputError
from service.player_csv import COLUMNS, MAX_IMPORT_ROWS, read_player_csv
from swiss.trf.player_fields import FEDERATIONS, TITLES

TODAY = date(2026, 11, 28)


@settings(max_examples=300)
@given(st.text(max_size=300))
def test_any_text_is_rows_or_one_clear_refusal(text: str) -> None:
    try:
        rows = read_player_csv(text, today=TODAY)
    except InvalidInputError as refused:
        assert str(refused) and len(str(refused)) < 2000  # one Discord message
        return
    assert rows and all(row.name is not None or row.user_id is not None for row in rows)


PLAYER = st.fixed_dictionaries({
    "name": st.from_regex(r"[A-Z][a-z]{1,10} [A-Z][a-z]{1,10}", fullmatch=True),
    "federation": st.sampled_from(sorted(FEDERATIONS)),
    "title": st.sampled_from(TITLES),
    "birth": st.dates(min_value=date(1900, 1, 1), max_value=TODAY).map(
        lambda d: d.strftime("%Y/%m/%d")),
    "fide_id": st.integers(1, 10**10).map(str),
})


@given(st.lists(PLAYER, min_size=1, max_size=8, unique_by=lambda p: p["name"].lower()),
       st.permutations(["name", "federation", "title", "birth", "fide_id"]))
def test_a_valid_file_reads_back_exactly_in_any_column_order(
    players: list[dict[str, str]], order: list[str]
) -> None:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([name.upper() for name in order])  # headers in any case
    writer.writerows([[p[name] for name in order] for p in players])
    rows = read_player_csv(out.getvalue(), today=TODAY)
    assert [row.line for row in rows] == list(range(2, len(players) + 2))
    for row, player in zip(rows, players, strict=True):
        assert row.name == player["name"]
        assert row.fields == {key: player[key] for key in order if key != "name"}


@pytest.mark.parametrize(("text", "says"), [
    ("name,federation,\nAnn,ENG,\n", None),  # a trailing empty column is fine
    ("name,federation,\nAnn,ENG,x\n", "line 2, column 3: a value in a column the header"),
    ("name,rating\nAnn,²\n", "line 2, column 2 (rating)"),
    ("name,rating\nAnn,5000\n", "line 2, column 2 (rating)"),
    ("name\n<@123>\n", "line 2, column 1 (name)"),
    ("user_id\n99999999999999999999\n", "line 2, column 1 (user_id)"),
    ("name\n" + "P\n" * (MAX_IMPORT_ROWS + 1), f"at most {MAX_IMPORT_ROWS}"),
    ("name\n" + "x" * 1_000_001, "too large"),
])
def test_each_problem_names_its_line_and_column(text: str, says: str | None) -> None:
    if says is None:
        assert read_player_csv(text, today=TODAY)[0].fields == {"federation": "ENG"}
        return
    with pytest.raises(InvalidInputError, match=re.escape(says)):
        read_player_csv(text, today=TODAY)


def test_the_columns_are_those_the_docs_name() -> None:
    assert COLUMNS == ("name", "user_id", "rating", "fide_id", "federation", "birth", "sex",
                       "title", "trf_name")


def test_invisible_characters_never_reach_the_database() -> None:
    """A NUL (PostgreSQL refuses it in text) or a bidi override in a name is dropped."""
    (row,) = read_player_csv("name,trf_name\nA\x00B\u202e,\"Bee, A\"\n", today=TODAY)
    assert row.name == "AB" and row.fields == {"trf_name": "Bee, A"}
    with pytest.raises(InvalidInputError, match="control or invisible"):
        read_player_csv("name,trf_name\nAB,\"B\x00ee, A\"\n", today=TODAY)
