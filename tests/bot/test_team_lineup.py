"""``/team lineup players:``: mentions or ids in board order; anything else is refused with
what was not understood (never an exception the member cannot read)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.errors import UserFacingError
from bot.render.teams import lineup_text, pairings
from cogs.teams import parse_lineup
from service.team_views import LineupView, MemberView

IDS = st.integers(min_value=1, max_value=2**63 - 1)


@given(st.lists(IDS, min_size=1, max_size=12),
       st.lists(st.sampled_from(["<@{}>", "<@!{}>", "{}"]), min_size=12, max_size=12),
       st.sampled_from([" ", ", ", ",", "  \n"]))
def test_mentions_and_ids_read_back_in_board_order(ids: list[int], forms: list[str],
                                                  separator: str) -> None:
    text = separator.join(form.format(i) for i, form in zip(ids, forms, strict=False))
    assert parse_lineup(text) == ids


@given(st.text(max_size=60))
def test_anything_else_is_a_readable_refusal_or_a_lineup(text: str) -> None:
    try:
        members = parse_lineup(text)
    except UserFacingError as error:
        assert str(error) and len(str(error)) < 200
    else:
        assert 1 <= len(members) <= 12 and all(0 < m < 2**63 for m in members)


@pytest.mark.parametrize(("text", "says"), [
    ("", "board 1 first"), ("@Ann @Bob", "'@Ann' is not a mention"),
    (" ".join(["<@1>"] * 13), "at most 12"), ("<@0>", "not a Discord member"),
    ("99999999999999999999", "not a Discord member")])
def test_refusals_say_what_is_wrong(text: str, says: str) -> None:
    with pytest.raises(UserFacingError, match=says):
        parse_lineup(text)


def test_names_never_ping_and_forgotten_members_show_their_pseudonym() -> None:
    payload = {"number": 1, "system": "fide-team", "matches": [
        {"number": 1, "white": "@everyone <@&5>", "black": "Rooks", "best_of": 1,
         "state": "pending", "score": None, "forfeit": None, "lineups": [[], []],
         "boards": [{"board": 1, "white": {"user_id": 7, "name": "Ann"},
                     "black": {"user_id": -3, "name": "Withdrawn player 1"},
                     "result": "*"}]}]}
    (message,) = pairings("Cup", payload)
    text = message.embeds[0].description or ""
    assert "@\u200beveryone" in text and "<@&5>" not in text
    assert "<@7>" in text and "Withdrawn player 1" in text and "<@-3>" not in text
    assert message.mention_users == (7,)
    view = LineupView("Cup", "Rooks", 2, 3, (MemberView(7, "Ann", 1, False),), late=True)
    assert "Lineup 3 of **Rooks** for round 2 (set after the pairing" in lineup_text(view)
