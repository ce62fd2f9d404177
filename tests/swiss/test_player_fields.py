"""The rating fields of a TRF 001 line as typed by an organiser: what is accepted, how it is
normalised, and that everything else is refused with a FieldError (never another exception)."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from swiss.trf.player_fields import (
    FEDERATIONS,
    FIELD_NAMES,
    TITLES,
    FieldError,
    parse_field,
)

TODAY = date(2026, 11, 28)


@pytest.mark.parametrize(("name", "typed", "stored"), [
    ("fide_id", "1503014", "1503014"),
    ("fide_id", " 00042 ", "42"),
    ("federation", "nor", "NOR"),
    ("federation", "FID", "FID"),
    ("birth", "1990", "1990"),
    ("birth", "1990/07/21", "1990/07/21"),
    ("birth", "1990-07-21", "1990/07/21"),
    ("sex", "F", "w"),
    ("sex", "male", "m"),
    ("title", "wgm", "WGM"),
    ("trf_name", "Carlsen,Magnus", "Carlsen, Magnus"),
    ("trf_name", "  Hou ,  Yifan ", "Hou, Yifan"),
    ("title", "-", ""),
    ("birth", "", ""),
])
def test_accepted_values_are_normalised(name: str, typed: str, stored: str) -> None:
    assert parse_field(name, typed, today=TODAY) == stored


@pytest.mark.parametrize(("name", "typed", "says"), [
    ("fide_id", "12a", "digits"),
    ("fide_id", "²³", "digits"),  # str.isdigit() says True
    ("fide_id", "123456789012", "digits"),
    ("fide_id", "0", "digits"),
    ("federation", "DEU", "GER, not DEU"),
    ("federation", "XX", "three-letter"),
    ("birth", "1990/02/30", "not a date"),
    ("birth", "2027", "1900 to 2026"),
    ("birth", "2026/11/29", "to today"),
    ("birth", "21.07.1990", "YYYY/MM/DD"),
    ("sex", "x", "m or w"),
    ("title", "NM", "GM, IM"),
    ("trf_name", "Magnus Carlsen", "Last, First"),
    ("trf_name", "A, B, C", "Last, First"),
    ("trf_name", "Carlsen, Magnus\u202e", "control"),
    ("trf_name", "L" * 30 + ", First", "33"),
])
def test_refused_values_say_what_is_accepted(name: str, typed: str, says: str) -> None:
    with pytest.raises(FieldError, match=says):
        parse_field(name, typed, today=TODAY)


def test_every_federation_code_is_three_capital_letters() -> None:
    assert len(FEDERATIONS) > 190
    assert all(len(code) == 3 and code.isascii() and code.isupper() for code in FEDERATIONS)
    assert {"ENG", "GER", "NED", "SUI", "IRI", "FID"} <= FEDERATIONS
    assert not {"DEU", "GBR", "NLD", "CHE"} & FEDERATIONS  # ISO codes are not FIDE's


@given(st.sampled_from(FIELD_NAMES), st.text(max_size=40))
def test_any_text_is_a_stored_value_or_a_field_error(name: str, typed: str) -> None:
    try:
        stored = parse_field(name, typed, today=TODAY)
    except FieldError:
        return
    # what is stored fits its TRF columns and reads back as itself
    width = {"fide_id": 11, "federation": 3, "birth": 10, "sex": 1, "title": 3,
             "trf_name": 33}[name]
    assert len(stored) <= width
    assert parse_field(name, stored or "-", today=TODAY) == stored


@given(st.sampled_from(TITLES), st.sampled_from(sorted(FEDERATIONS)),
       st.dates(min_value=date(1900, 1, 1), max_value=TODAY))
def test_valid_values_round_trip(title: str, federation: str, born: date) -> None:
    assert parse_field("title", title.lower(), today=TODAY) == title
    assert parse_field("federation", federation.lower(), today=TODAY) == federation
    typed = born.strftime("%Y/%m/%d")
    assert parse_field("birth", typed, today=TODAY) == typed
