"""swiss.numbers: the one strict parser for numbers from outside (issue 11, item 11)."""

from __future__ import annotations

import doctest
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import swiss.numbers
from swiss.numbers import NumberError, parse_fraction, parse_int, parse_real

HOSTILE = [
    "1e99999999", "1e400", "²", "١٢", "1_000", " 1", "1 ", "+1", "nan", "inf", "-inf", "0x10",
    "12345678901234567890", "9" * 5000, "1.", ".5", "--1", "1/0", "", "½", "1,5", "1e3",
]


def test_docstring_examples() -> None:
    assert doctest.testmod(swiss.numbers).failed == 0


@given(st.integers(-10**6, 10**6))
def test_whole_numbers_in_range_round_trip(value: int) -> None:
    assert parse_int(str(value), "n", low=-10**6, high=10**6) == value


@pytest.mark.slow
@given(st.text(max_size=60))
def test_any_text_is_a_number_in_range_or_a_number_error(text: str) -> None:
    try:
        value = parse_int(text, "the id", low=1, high=9999)
    except NumberError as exc:
        assert exc.reason.startswith("the id")
        assert 0 <= exc.offset <= max(len(text) - 1, 0)
    else:
        # leading zeros are fine (TRF pads numbers with them); nothing but ASCII digits is
        assert 1 <= value <= 9999 and text.isascii() and text.isdigit() and int(text) == value


@given(st.text(max_size=60))
def test_any_text_is_an_exact_fraction_in_range_or_a_number_error(text: str) -> None:
    try:
        value = parse_fraction(text, "points", low=-1000, high=1000, ratios=True)
    except NumberError as exc:
        assert exc.reason.startswith("points")
    else:
        assert isinstance(value, Fraction) and -1000 <= value <= 1000


@given(st.decimals(min_value=-999, max_value=999, places=3, allow_nan=False,
                   allow_infinity=False))
def test_decimals_are_exact(value: Decimal) -> None:
    text = f"{value:f}"
    assert parse_fraction(text, "points", low=-1000, high=1000) == Fraction(value)


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_is_refused_with_a_number_error(text: str) -> None:
    for parse in (
        lambda: parse_int(text, "x", low=0, high=2**63 - 1),
        lambda: parse_fraction(text, "x", low=-1000, high=1000),
        lambda: parse_real(text, "x", low=0, high=5000),
    ):
        with pytest.raises(NumberError):
            parse()


def test_messages_name_what_was_wrong() -> None:
    with pytest.raises(NumberError, match=r"'²' is not one of the ASCII digits 0-9"):
        parse_int("²", "the round", low=1, high=99)
    with pytest.raises(NumberError, match=r"out of range: it must be 1..9999"):
        parse_int("12345678901234567890", "player id", low=1, high=9999)
    with pytest.raises(NumberError, match=r"is not a number"):
        parse_fraction("1e99999999", "win", low=-1000, high=1000)
    with pytest.raises(NumberError, match=r"more than 4 decimals"):
        parse_fraction("0.12345", "win", low=-1000, high=1000)
    with pytest.raises(NumberError, match=r"--beta must be positive"):
        parse_fraction("0", "--beta", low=0, high=100, low_open=True)
    with pytest.raises(NumberError, match=r"denominator must be 1..1000"):
        parse_fraction("1/1001", "win", low=-1000, high=1000, ratios=True)
    with pytest.raises(NumberError) as error:
        parse_int("12a", "n", low=0, high=999)
    assert error.value.offset == 2
    assert parse_fraction("1/3", "win", low=0, high=10, ratios=True) == Fraction(1, 3)
    assert parse_real("1400", "low", low=0, high=5000) == 1400.0
