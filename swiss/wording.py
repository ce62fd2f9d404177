"""Counted nouns for messages: "1 game", "2 games", never "1 games" or "game(s)".

Pure, like the rest of :mod:`swiss`; the service, the bot, the cogs and the command line use it.
"""

from __future__ import annotations

__all__ = ["plural"]


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, the noun plural unless the count is one (thousands separated).

    >>> plural(1, "game"), plural(3, "game"), plural(0, "board"), plural(2, "match", "matches")
    ('1 game', '3 games', '0 boards', '2 matches')
    >>> plural(10_000, "player")
    '10,000 players'
    """
    word = noun if count == 1 else (many if many is not None else noun + "s")
    return f"{count:,} {word}"
