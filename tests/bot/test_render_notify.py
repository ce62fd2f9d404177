"""Issue 16 renderers stay inside Discord's limits and never ping from user text."""

from __future__ import annotations

from bot.render.limits import problems
from bot.render.notify import (
    dm_closed,
    dm_message,
    lichess_thread,
    result_buttons,
    thread_name,
    thread_opening,
)

LONG = "x" * 400
HOSTILE = "@everyone <@123> **bold**"


def _payload(name: str = LONG) -> dict:
    return {
        "tournament": {"id": 1, "name": name, "guild_id": 5},
        "round": 99, "total_rounds": 99, "use_colours": True, "deadline_unix": 1_800_000_000,
        "game": {"id": 7, "board": 250,
                 "white": {"player_id": 1, "number": 1, "name": LONG, "user_id": None},
                 "black": {"player_id": 2, "number": 2, "name": HOSTILE, "user_id": 42}},
    }


def test_thread_name_fits_in_100_characters() -> None:
    assert len(thread_name(_payload())) <= 100
    assert thread_name(_payload()).startswith("R99 B250 · ")


def test_thread_opening_pings_only_the_member_and_fits() -> None:
    out = thread_opening(_payload(HOSTILE))
    assert out.mention_users == (42,)  # the guest cannot be pinged, nor anyone else
    assert "@\u200beveryone" in out.content and "<@123>" not in out.content
    assert problems(out.content, out.embeds) == []
    assert len(out.content) <= 2000


def test_result_buttons_labels_fit() -> None:
    view = result_buttons(7, LONG, HOSTILE, colours=False)
    labels = [item.label for item in view.children]  # type: ignore[attr-defined]
    assert all(label is not None and len(label) <= 80 for label in labels)
    ids = [item.custom_id for item in view.children]  # type: ignore[attr-defined]
    assert ids == ["swissbot:result:7:white", "swissbot:result:7:draw", "swissbot:result:7:black"]


def test_direct_messages_fit_and_are_inert() -> None:
    base = {"tournament": {"name": HOSTILE + LONG}, "user_id": 42, "round": 3, "board": 4,
            "colour": "white", "opponent": HOSTILE, "deadline_unix": 1_800_000_000,
            "game_id": 9, "guild_id": 5, "reporter": LONG, "reported": "1-0", "white": LONG,
            "black": HOSTILE, "rank": 1, "points": "4½", "players": 12, "text": LONG * 10}
    for kind in ("dm_pairing", "dm_confirm", "dm_final", "dm_reminder"):
        out, view = dm_message(kind, base)
        assert 0 < len(out.content) <= 2000
        assert out.mention_users == ()
        assert "<@123>" not in out.content
        assert (view is not None) == (kind == "dm_confirm")
    bye, _ = dm_message("dm_pairing", {**base, "bye": "1"})
    assert "bye" in bye.content
    closed = dm_closed({"tournament": {"name": HOSTILE}, "user_id": 42})
    assert closed.mention_users == (42,) and "/notify dm:on" in closed.content


def test_the_deadline_reminder_names_the_game_and_what_is_left_to_do() -> None:
    base = {"tournament": {"name": "Open"}, "user_id": 42, "round": 3, "board": 4,
            "opponent": HOSTILE, "deadline_unix": 1_800_000_000, "minutes_left": 15}
    report, _ = dm_message("dm_reminder", {**base, "to_confirm": False})
    assert "round 3, board 4" in report.content and "<t:1800000000:R>" in report.content
    assert "`/report`" in report.content and "<@123>" not in report.content
    confirm, _ = dm_message("dm_reminder", {**base, "to_confirm": True})
    assert "confirm or dispute" in confirm.content


def test_lichess_links_fit_are_inert_and_only_lichess_style_urls() -> None:
    """The DM of a board's Lichess game (the player's own colour's link) and its thread
    message (both links): within Discord's limit, no ping, and a link that is not an http(s)
    address (or carries spaces or angle brackets) is not shown."""
    base = {"tournament": {"name": HOSTILE + LONG}, "user_id": 42, "round": 3, "board": 4,
            "game_id": 9, "colour": "black", "opponent": HOSTILE + LONG,
            "url": "https://lichess.org/abcd1234?color=black"}
    out, view = dm_message("dm_lichess", base)
    assert view is None and out.mention_users == () and len(out.content) <= 2000
    assert "<https://lichess.org/abcd1234?color=black>" in out.content
    assert "**black**" in out.content and "<@123>" not in out.content
    for bad in ("javascript:alert(1)", "https://x.org/a b", "https://x.org/<@123>", None):
        shown, _ = dm_message("dm_lichess", {**base, "url": bad})
        assert "javascript" not in shown.content and "<@123>" not in shown.content
    thread = lichess_thread({"tournament": {"name": LONG}, "white": HOSTILE + LONG,
                             "black": LONG, "url_white": "https://lichess.org/x?color=white",
                             "url_black": "https://lichess.org/x?color=black"})
    assert thread.mention_users == () and len(thread.content) <= 2000
    assert "color=white>" in thread.content and "color=black>" in thread.content
