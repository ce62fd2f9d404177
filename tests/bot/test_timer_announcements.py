"""The timers' announcements as Discord messages: within Discord's limits at 150 boards, and
pinging each player once (the reminder) or the organisers only (the deadline)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.render import limits as discord_limits
from bot.render.announcements import render_announcement


def _big_round(boards: int) -> list[dict[str, Any]]:
    def seat(n: int) -> dict[str, Any]:
        return {"player_id": n, "number": n, "name": "W" * 32, "user_id": 10**17 + n}

    return [{"game_id": b, "board": b, "white": seat(2 * b), "black": seat(2 * b + 1)}
            for b in range(1, boards + 1)]


@pytest.mark.parametrize("kind", ["deadline_reminder", "deadline_passed"])
def test_timer_announcements_fit_discord_and_ping_each_player_once(kind: str) -> None:
    games = _big_round(150)
    payload: dict[str, Any] = {"tournament": {"name": "N" * 50}, "round": 3,
                               "deadline_unix": 1767290400, "minutes_left": 15, "games": games,
                               "decided": [], "waiting": games, "organiser_role_id": 77}
    messages = render_announcement(kind, payload)
    for message in messages:
        assert discord_limits.problems(message.content, message.embeds) == []
    pinged = [u for m in messages for u in m.mention_users]
    if kind == "deadline_reminder":
        assert sorted(pinged) == sorted(s["user_id"] for g in games
                                        for s in (g["white"], g["black"]))
    else:  # the organisers only, once
        assert pinged == [] and [r for m in messages for r in m.mention_roles] == [77]
