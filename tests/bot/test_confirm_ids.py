"""The confirmation buttons' custom_id carries the whole state a click needs: it reads back
exactly what was written, fits Discord's 100 characters, and a forged number beyond the
database's integers reads as 0 (which names nothing) instead of overflowing the driver."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from cogs.confirm import ConfirmButton
from service.confirm import CONFIRM_ACTIONS
from service.validation import MAX_ID

numbers = st.integers(min_value=0, max_value=MAX_ID)
TEMPLATE: re.Pattern[str] = ConfirmButton.__discord_ui_compiled_template__  # type: ignore[attr-defined]


def _read(custom_id: str) -> ConfirmButton:
    match = TEMPLATE.fullmatch(custom_id)
    assert match is not None, custom_id
    coroutine = ConfirmButton.from_custom_id(None, None, match)  # type: ignore[arg-type]
    try:
        coroutine.send(None)
    except StopIteration as done:  # it awaits nothing
        return done.value  # type: ignore[no-any-return]
    raise AssertionError("from_custom_id awaited something")


@given(st.sampled_from(["sure", "keep"]), st.sampled_from(CONFIRM_ACTIONS), numbers, numbers,
       numbers, st.none() | numbers)
def test_a_custom_id_reads_back_what_it_carries(
    choice: str, action: str, tournament: int, version: int, number: int, player: int | None,
) -> None:
    button = ConfirmButton(choice, action, tournament, version, number, player)
    custom_id = button.item.custom_id
    assert custom_id is not None and len(custom_id) <= 100
    read = _read(custom_id)
    assert (read.choice, read.action, read.tournament_id, read.version, read.round_number,
            read.player_number) == (choice, action, tournament, version, number, player)


@given(st.integers(min_value=MAX_ID + 1, max_value=10**40))
def test_a_forged_number_beyond_the_database_reads_as_zero(huge: int) -> None:
    read = _read(f"swissbot:sure:drop:{huge}:{huge}:{huge}:{huge}")
    assert (read.tournament_id, read.version, read.round_number, read.player_number) == \
        (0, 0, 0, 0)
