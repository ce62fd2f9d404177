"""Each interaction handled in its member's language.

A slash command runs in a task of the command tree, a button's callback in a task that
discord.py creates for it when the interaction arrives. Both tasks are created while the
gateway's INTERACTION_CREATE is parsed, and a task starts with a copy of the context it was
created in: so the parse runs in a context of its own where :data:`i18n.current` is the
member's Discord locale, and everything that interaction says is in his language (his
refusals and answers; the channel's posts are in the server's language, see
``bot.render.announcements``).
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from typing import Any

import discord

from i18n import current, language_of

EVENT = "INTERACTION_CREATE"


def speak_each_interaction(client: discord.Client) -> None:
    """Parse every interaction of ``client`` in the language of its member."""
    parsers: dict[str, Callable[[Any], None]] = client._connection.parsers
    parse = parsers[EVENT]
    if getattr(parse, "in_language", False):
        return  # already wrapped (a restarted client keeps its state)

    def parse_in_language(data: Any) -> None:
        contextvars.copy_context().run(_parse, parse, data)

    parse_in_language.in_language = True  # type: ignore[attr-defined]
    parsers[EVENT] = parse_in_language


def _parse(parse: Callable[[Any], None], data: Any) -> None:
    current.set(language_of(data.get("locale") if isinstance(data, dict) else None))
    parse(data)
