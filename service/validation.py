"""Checks of user input, each failing with a message that says what to do instead."""

from __future__ import annotations

import re
import unicodedata

from service.errors import InvalidInputError

MAX_TOURNAMENT_NAME = 50
MAX_PLAYER_NAME = 32
MAX_ROUNDS = 99
MAX_RATING = 4000
MAX_DEADLINE_MINUTES = 7 * 24 * 60
MAX_AUTO_ADVANCE_MINUTES = 24 * 60
MAX_GAMES_IN_MATCH = 99

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
    return check_range(rounds, what="number of rounds", low=1, high=MAX_ROUNDS)


def check_rating(rating: int | None) -> int:
    if rating is None:
        return 0
    return check_range(rating, what="rating", low=0, high=MAX_RATING)


def check_choice(value: str, *, what: str, choices: tuple[str, ...]) -> str:
    key = str(value).strip().lower()
    if key not in choices:
        raise InvalidInputError(
            f"Unknown {what} {value!r}: choose one of {', '.join(choices)}."
        )
    return key
