"""``make messages``: the message ids of the code and of the slash commands into every
catalogue (i18n/locale/<lang>/LC_MESSAGES/swissbot.po); translations are kept."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.client import DEFAULT_EXTENSIONS
from bot.translator import command_strings, every_command_tree
from i18n.extract import code_messages, update

ROOT = Path(__file__).resolve().parent.parent


async def _commands() -> list[tuple[str | None, str]]:
    return await command_strings(await every_command_tree(DEFAULT_EXTENSIONS))


def main() -> None:
    messages = code_messages(ROOT)
    messages += asyncio.run(_commands())
    for path in update(messages):
        print(path.relative_to(ROOT))


if __name__ == "__main__":
    main()
