"""Small formatting helpers shared by the renderers."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from fractions import Fraction
from typing import Literal, Protocol

import discord

from i18n import ngettext
from swiss.wording import points_text

TimestampStyle = Literal["t", "T", "d", "D", "f", "F", "R"]


class SeatLike(Protocol):
    """What the renderers need of a player seat (``service.views.Seat`` and friends)."""

    @property
    def name(self) -> str: ...

    @property
    def user_id(self) -> int | None: ...

    @property
    def number(self) -> int | None: ...


def discord_timestamp(moment: datetime, style: TimestampStyle = "R") -> str:
    """``<t:unix:style>``: Discord shows it in each reader's own time zone (R: "in 2 hours")."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return f"<t:{int(moment.timestamp())}:{style}>"


def point_phrase(value: Fraction | int | str) -> str:
    """"½ point", "1 point", "0 points", "1½ points", in the language of the message: one
    point or less (but not none) is singular, whole numbers follow the language's plural
    rule. Text already formatted ("1½", "½", "0.5") is read back; text that is no number is
    shown as it is, with the plural noun."""
    text = value.strip() if isinstance(value, str) else None
    try:
        if text is not None and text.endswith("½"):
            whole = text.removesuffix("½")
            amount = Fraction(int(whole) if whole.isdigit() else 0) + Fraction(1, 2)
        else:
            amount = Fraction(value)
    except ValueError:
        return ngettext("{points} point", "{points} points", 2, points=text)
    n = int(amount) if amount.denominator == 1 else (1 if amount < 1 else 2)
    return ngettext("{points} point", "{points} points", n, points=points(amount))


def points(value: Fraction | int | float | str) -> str:
    """``Fraction(5, 2)`` -> ``"2½"``; floats (percentages, ratings) with two decimals;
    text (already formatted by the service, e.g. in an outbox payload) as it is."""
    if isinstance(value, str):
        return value
    if isinstance(value, float):
        return f"{value:.2f}"
    value = Fraction(value)
    if value.denominator in (1, 2):
        return points_text(value)
    return f"{float(value):.2f}"


_MENTION_LIKE = re.compile(r"<(@[!&]?|#)(\d+)>")


def plain(text: str, limit: int = 100) -> str:
    """User-supplied text made inert for Markdown and mentions, and cut to ``limit``."""
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    text = discord.utils.escape_markdown(text)
    text = _MENTION_LIKE.sub(lambda m: f"<{m.group(1)}\u200b{m.group(2)}>", text)
    return text.replace("@everyone", "@\u200beveryone").replace("@here", "@\u200bhere")


def code_safe(text: str, width: int) -> str:
    """A name for a code-block table: no backticks, one line, padded or cut to ``width``."""
    text = " ".join(text.replace("`", "'").split())
    if len(text) > width:
        text = text[: width - 1] + "…"
    return text.ljust(width)


def seat(seat: SeatLike, *, number: bool = True) -> str:
    """A player as shown in an embed: a mention for members (it renders as their name and,
    inside an embed, pings nobody), the escaped name for guests; ``(#n)`` pairing number."""
    who = f"<@{seat.user_id}>" if seat.user_id is not None else plain(seat.name, 60)
    if number and seat.number is not None:
        return f"{who} `#{seat.number}`"
    return who


def seat_text(seat: SeatLike) -> str:
    """A player in plain text (attachments, logs): the name and pairing number."""
    name = " ".join(seat.name.split())
    return f"{name} (#{seat.number})" if seat.number is not None else name
