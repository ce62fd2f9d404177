"""Checks of user input, each failing with a message that says what to do instead."""

from __future__ import annotations

import re
import unicodedata

from service.errors import InvalidInputError
from service.limits import (
    MAX_AUTO_ADVANCE_MINUTES,
    MAX_DEADLINE_MINUTES,
    MAX_GAMES_IN_MATCH,
    MAX_PLAYER_NAME,
    MAX_RATING,
    MAX_ROUNDS,
    MAX_TOURNAMENT_NAME,
    MIN_RATING,
    MIN_ROUNDS,
    echo,
)

# Re-exported for the modules that import the limits from here.
__all__ = [
    "MAX_AUTO_ADVANCE_MINUTES",
    "MAX_DEADLINE_MINUTES",
    "MAX_GAMES_IN_MATCH",
    "MAX_PLAYER_NAME",
    "MAX_RATING",
    "MAX_ROUNDS",
    "MAX_TOURNAMENT_NAME",
    "check_choice",
    "check_range",
    "check_rating",
    "check_rounds",
    "clean_name",
]

# User, role and channel mentions, and the two mass pings.
_MENTION = re.compile(r"<@[!&]?\d+>|<#\d+>|@everyone|@here", re.IGNORECASE)


def clean_name(value: str, *, what: str, limit: int) -> str:
    """Trim, refuse empty, too long, mentions and control characters."""
    if not isinstance(value, str):
        raise InvalidInputError(f"The {what} must be text.")
    name = " ".join(value.split())
    if not name:
        raise InvalidInputError(f"The {what} is empty: give a name.")
    if len(name) > limit:
        raise InvalidInputError(
            f"The {what} is too long ({len(name)} characters): use at most {limit}."
        )
    if _MENTION.search(name) or "@" in name:
        raise InvalidInputError(
            f"The {what} contains a mention or '@': write it without mentions."
        )
    if any(unicodedata.category(ch) in ("Cc", "Cf") for ch in name):
        raise InvalidInputError(f"The {what} contains control characters: use plain text.")
    return name


def check_range(value: int | None, *, what: str, low: int, high: int) -> int:
    if value is None or isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(f"The {what} must be a whole number from {low} to {high}.")
    if not low <= value <= high:
        raise InvalidInputError(
            f"The {what} must be from {low} to {high} (you gave {value})."
        )
    return value


def check_rounds(rounds: int) -> int:
    return check_range(rounds, what="number of rounds", low=MIN_ROUNDS, high=MAX_ROUNDS)


def check_rating(rating: int | None) -> int:
    if rating is None:
        return 0
    return check_range(rating, what="rating", low=MIN_RATING, high=MAX_RATING)


def check_choice(value: str, *, what: str, choices: tuple[str, ...]) -> str:
    key = str(value).strip().lower()
    if key not in choices:
        raise InvalidInputError(
            f"Unknown {what} {echo(value)}: choose one of {', '.join(choices)}."
        )
    return key
