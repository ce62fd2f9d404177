"""What the service needs from Lichess, as a protocol the bot's HTTP client implements
(``bot.lichess.client.LichessClient``; tests pass it pointed at a fake Lichess). The service
stays free of HTTP: it awaits these calls outside its transactions and stores the answers.

Also the pure rules of Lichess time controls: a clock's speed as Lichess derives it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Protocol

#: The rating categories of standard chess an event may use (Lichess's perf keys).
SPEEDS = ("ultraBullet", "bullet", "blitz", "rapid", "classical")


class LichessError(Exception):
    """A call to Lichess failed; the message is for the user (never carries a token)."""


class LichessUnavailable(LichessError):
    """Lichess could not be reached, or kept answering with errors."""


class LichessNotFound(LichessError):
    """No such account (or a closed one)."""


class LichessUnauthorized(LichessError):
    """The token was refused (revoked, expired) or lacks the scope the call needs."""


@dataclass(frozen=True, slots=True)
class Perf:
    rating: int
    games: int
    provisional: bool


@dataclass(frozen=True, slots=True)
class LichessUser:
    id: str  # lowercase
    username: str
    bio: str = ""
    location: str = ""
    perfs: dict[str, Perf] = field(default_factory=dict)
    disabled: bool = False


@dataclass(frozen=True, slots=True)
class OAuthToken:
    access_token: str
    expires_in: int


@dataclass(frozen=True, slots=True)
class OpenChallenge:
    """A game only two named players may join, each by the link of his colour."""

    id: str
    url_white: str
    url_black: str


@dataclass(frozen=True, slots=True)
class LichessGame:
    """A game as Lichess exports it (``GameJson``)."""

    id: str
    status: str  # GameStatusName: created, started, aborted, mate, resign, draw, ...
    winner: str | None  # "white", "black", or None (a draw, or not over)
    white_id: str | None  # Lichess user ids (None: anonymous or the AI)
    black_id: str | None
    clock_initial: int | None
    clock_increment: int | None
    created_at_ms: int


#: Statuses of a game still to be played or being played.
GOING_ON = frozenset({"created", "started"})
#: Statuses of a game that ended without a result (nothing played, or no first move).
NOT_PLAYED = frozenset({"aborted", "noStart"})


def result_of(game: LichessGame) -> str | None:
    """The result (swiss.model.Result value, white first) of a finished game; None while it
    is going on or when it ended without one (aborted, never started)."""
    if game.status in GOING_ON or game.status in NOT_PLAYED:
        return None
    if game.winner == "white":
        return "1-0"
    if game.winner == "black":
        return "0-1"
    return "1/2-1/2"  # draw, stalemate, insufficient material, time out against a lone king


class LichessApi(Protocol):
    """The calls the service makes. Each raises a :class:`LichessError` subclass."""

    def authorize_url(self, *, state: str, code_challenge: str, redirect_uri: str,
                      scopes: tuple[str, ...] = ()) -> str:
        """The page of Lichess where a member approves the OAuth request (PKCE, S256)."""
        ...

    async def exchange_code(self, *, code: str, code_verifier: str,
                            redirect_uri: str) -> OAuthToken:
        """``POST /api/token``: the authorization code for an access token."""
        ...

    async def account(self, token: str) -> LichessUser:
        """``GET /api/account``: the token's own account."""
        ...

    async def revoke(self, token: str) -> None:
        """``DELETE /api/token``: the token stops working."""
        ...

    async def user(self, username: str) -> LichessUser:
        """``GET /api/user/{username}``: public data (profile, ratings)."""
        ...

    async def users(self, ids: list[str]) -> list[LichessUser]:
        """``POST /api/users``: several accounts at once (at most 300); closed or unknown
        ones are left out."""
        ...

    async def export_games(self, ids: list[str]) -> list[LichessGame]:
        """``POST /api/games/export/_ids`` (at most 300): the games Lichess knows of them (a
        challenge nobody accepted is no game yet)."""
        ...

    async def export_pgn(self, ids: list[str]) -> str:
        """``POST /api/games/export/_ids`` as PGN (at most 300 games): tags and moves."""
        ...

    async def users_status(self, ids: list[str]) -> dict[str, bool]:
        """``GET /api/users/status`` (at most 100): whether each account is online now."""
        ...


# Lichess's own rule: the estimated duration of a game is the base time plus 40 moves of
# increment; under 30 s is UltraBullet, under 3 min bullet, 8 min blitz, 25 min rapid.
_SPEED_LIMITS = ((29, "ultraBullet"), (179, "bullet"), (479, "blitz"), (1499, "rapid"))

_CLOCK = re.compile(r"^\s*(\d{1,3}(?:\.\d+)?|½|¼|¾)\s*\+\s*(\d{1,3})\s*$")
_FRACTIONS = {"½": 0.5, "¼": 0.25, "¾": 0.75}


def speed_of(limit_seconds: int, increment_seconds: int) -> str:
    """The Lichess speed of a clock (``limit`` + ``increment`` seconds)."""
    estimate = limit_seconds + 40 * increment_seconds
    for bound, speed in _SPEED_LIMITS:
        if estimate <= bound:
            return speed
    return "classical"


def parse_clock(text: str) -> tuple[int, int]:
    """``"3+2"`` (minutes + seconds, as Lichess writes it; ``"0.5+0"`` or ``"½+0"`` too) ->
    ``(limit_seconds, increment_seconds)``. Raises ValueError with what is expected."""
    match = _CLOCK.match(text or "")
    text = (text or "")[:12]  # as much as a message needs to show
    if match is None:
        raise ValueError(
            f"the clock {text!r} is not minutes+increment like 3+2 or 15+10")
    minutes_text, increment_text = match.groups()
    minutes = _FRACTIONS.get(minutes_text) or float(minutes_text)
    limit = round(minutes * 60)
    increment = int(increment_text)
    # the limits Lichess accepts for a challenge's clock
    if limit not in (0, 15, 30, 45, 60, 90) and (limit % 60 or limit > 180 * 60):
        raise ValueError(f"the clock {text!r}: the base time must be 0, ¼, ½, ¾, 1, 1.5 or a "
                         "whole number of minutes up to 180")
    if increment > 60:  # Lichess's limit for the games the bot creates
        raise ValueError(f"the clock {text!r}: the increment is at most 60 seconds")
    if limit == 0 and increment == 0:
        raise ValueError("the clock 0+0 has no time at all")
    return limit, increment


def clock_text(limit_seconds: int, increment_seconds: int) -> str:
    minutes = limit_seconds / 60
    shown = {0.25: "¼", 0.5: "½", 0.75: "¾"}.get(minutes) or f"{minutes:g}"
    return f"{shown}+{increment_seconds}"


def profile_has_code(user: LichessUser, code: str) -> bool:
    """The code appears, whole, in the bio or the location."""
    return any(code in text for text in (user.bio or "", user.location or ""))
