"""Reminders are typed as text ("15,5"): ASCII digits only, any other script's digits refused
with a specific InvalidInputError (never a ValueError: "²" passes str.isdigit() and then
fails int(); int("١٢") is 12)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.errors import InvalidInputError
from service.limits import MAX_DEADLINE_MINUTES, MAX_REMINDERS
from service.schedule import check_reminders, parse_start_time

FOREIGN = st.characters(categories=["Nd", "No"], exclude_characters="0123456789")


@given(st.lists(st.integers(1, MAX_DEADLINE_MINUTES), min_size=1, max_size=MAX_REMINDERS,
                unique=True))
def test_ascii_reminders_round_trip(minutes: list[int]) -> None:
    text = ",".join(map(str, minutes))
    assert check_reminders(text) == ",".join(map(str, sorted(minutes, reverse=True)))


@given(st.lists(st.integers(1, 60), max_size=2), FOREIGN, st.text("0123456789", max_size=2))
def test_other_scripts_digits_are_refused_by_name(before: list[int], digit: str,
                                                  rest: str) -> None:
    text = ",".join([*map(str, before), digit + rest])
    with pytest.raises(InvalidInputError, match="is not one of the ASCII digits 0-9"):
        check_reminders(text)


@given(st.text(FOREIGN, min_size=1, max_size=10))
def test_start_times_in_other_scripts_are_refused(text: str) -> None:
    with pytest.raises(InvalidInputError, match="ASCII digits"):
        parse_start_time(text)
