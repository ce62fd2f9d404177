"""Words for messages: counted nouns ("1 game", "2 games", never "1 games" or "game(s)"),
points ("½ point", "1½ points"), numbered lists ("board 3", "boards 1, 4") and what a
tournament's status means in a sentence ("still open for registration").

Pure, like the rest of :mod:`swiss`; the service, the bot, the cogs and the command line use it.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

__all__ = ["STATUS_PHRASES", "numbered", "plural", "points_text",
           "status_phrase"]


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``count`` and ``noun``, the noun plural unless the count is one (thousands separated).

    >>> plural(1, "game"), plural(3, "game"), plural(0, "board"), plural(2, "match", "matches")
    ('1 game', '3 games', '0 boards', '2 matches')
    >>> plural(10_000, "player")
    '10,000 players'
    """
    word = noun if count == 1 else (many if many is not None else noun + "s")
    return f"{count:,} {word}"


def points_text(value: Fraction | int) -> str:
    """A score as the tables show it: ``Fraction(5, 2)`` -> ``"2½"``; other fractions as
    ``"7/3"``."""
    value = Fraction(value)
    whole, rest = divmod(value, 1)
    if rest == 0:
        return str(int(whole))
    if rest == Fraction(1, 2):
        return f"{int(whole)}½" if whole else "½"
    return str(value)


def numbered(noun: str, numbers: Iterable[object], many: str | None = None) -> str:
    """A noun and the numbers it names: ``board 3``, ``boards 1, 4``.

    >>> numbered("board", [3]), numbered("board", [1, 4]), numbered("match", [1, 2], "matches")
    ('board 3', 'boards 1, 4', 'matches 1, 2')
    """
    items = [str(n) for n in numbers]
    word = noun if len(items) == 1 else (many if many is not None else noun + "s")
    return f"{word} {', '.join(items)}"


#: A tournament's status as it reads after "is": "'Friday Blitz' is still open for
#: registration".
STATUS_PHRASES = {
    "registration": "still open for registration",
    "running": "running",
    "finished": "finished",
    "cancelled": "cancelled",
}


def status_phrase(status: str) -> str:
    """What a status means after "is" ("still open for registration", "finished")."""
    return STATUS_PHRASES.get(status, status)
