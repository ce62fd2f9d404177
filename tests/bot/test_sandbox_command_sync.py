"""The fake Discord refuses a command sync as Discord does: one localized name or
description out of the rules and the whole PUT is a 400 (code 50035); the bot's own
translated commands are accepted."""

from __future__ import annotations

from typing import Any

import aiohttp
from hypothesis import given
from hypothesis import strategies as st

from sandbox import FakeDiscord
from sandbox.commands import command_problems, valid_name


def _command(**changes: Any) -> dict[str, Any]:
    command = {"type": 1, "name": "tournament", "description": "Create and run events",
               "name_localizations": {"de": "turnier"},
               "description_localizations": {"de": "Turniere erstellen und leiten"},
               "options": [{"type": 3, "name": "name", "description": "The name",
                            "name_localizations": {"de": "name"}}]}
    command.update(changes)
    return command


async def _put(server: FakeDiscord, body: list[dict[str, Any]]) -> tuple[int, Any]:
    url = f"{server.api_base}/applications/{server.application_id}/commands"
    async with aiohttp.ClientSession() as http, http.put(
        url, json=body, headers={"Authorization": f"Bot {server.token}"}
    ) as response:
        return response.status, await response.json()


async def test_a_sync_with_a_name_discord_refuses_is_refused_whole() -> None:
    async with FakeDiscord() as server:
        assert (await _put(server, [_command()]))[0] == 200
        for bad in (
            _command(name_localizations={"de": "Turnier"}),  # capital
            _command(name_localizations={"de": "turnier erstellen"}),  # space
            _command(name_localizations={"xx": "turnier"}),  # not a Discord locale
            _command(description_localizations={"fr": "x" * 101}),
            _command(options=[{"type": 3, "name": "a", "description": "d"},
                              {"type": 3, "name": "b", "description": "d",
                               "name_localizations": {"de": "a"}}]),  # two "a" in German
        ):
            status, body = await _put(server, [bad])
            assert (status, body["code"]) == (400, 50035), bad
        assert server.global_commands[0]["name_localizations"] == {"de": "turnier"}


def test_context_menus_keep_their_free_names() -> None:
    assert command_problems([{"type": 2, "name": "Show Profile", "description": ""}]) == []


@given(st.text(min_size=1, max_size=32))
def test_valid_names_are_lowercase_words(name: str) -> None:
    if valid_name(name):
        assert name == name.lower() and " " not in name and "/" not in name
