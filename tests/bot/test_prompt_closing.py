"""Fifty reports in flight each close the guild's settled prompts: a prompt another command
of the process is closing right now is left to it, so each message is edited once."""

from __future__ import annotations

import asyncio
from typing import Any

from cogs.views import close_settled_prompts
from service.views import PromptView


class _Service:
    def __init__(self, prompts: list[PromptView]) -> None:
        self.prompts, self.closed = prompts, set()

    async def settled_prompts(self, guild_id: int) -> list[PromptView]:
        return [p for p in self.prompts if p.game_id not in self.closed]

    async def close_prompt(self, guild_id: int, game_id: int) -> bool:
        first = game_id not in self.closed
        self.closed.add(game_id)
        return first


class _Client:
    """Discord as the prompts see it: each edit takes a moment (a REST round trip)."""

    shutting_down = False

    def __init__(self, service: _Service) -> None:
        self.service, self.edits = service, []

    def is_closed(self) -> bool:
        return False

    def get_channel(self, channel_id: int) -> Any:
        client = self

        class Message:
            def __init__(self, message_id: int) -> None:
                self.message_id = message_id

            async def edit(self, **_: Any) -> None:
                client.edits.append(self.message_id)
                await asyncio.sleep(0.01)

        class Channel:
            def get_partial_message(self, message_id: int) -> Message:
                return Message(message_id)

        return Channel()


async def test_concurrent_commands_edit_each_settled_prompt_once() -> None:
    prompts = [PromptView(game_id=g, channel_id=5, message_id=1000 + g, game=None)
               for g in range(1, 11)]
    service = _Service(prompts)
    client = _Client(service)
    source = type("Source", (), {"guild_id": 9, "client": client})()
    closed = await asyncio.gather(*(close_settled_prompts(source) for _ in range(50)))
    assert sum(closed) == 10
    assert sorted(client.edits) == [1000 + g for g in range(1, 11)]  # once each
