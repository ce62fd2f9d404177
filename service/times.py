"""The moments and durations of the settings, read from what the organiser typed.

Every option that takes a time ("start_at", the entry windows, the decklist deadline) or a
duration (the round deadline, the auto-advance delay, the no-show grace time, the interval
between rounds) goes through :func:`read_times` before the settings are validated: text
becomes UTC ISO text or whole minutes, read in the server's time zone (``/config timezone``)
by :mod:`swiss.moments`, and a refusal has one form for all of them: the option, what was
typed, why, and examples.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Mapping
from datetime import datetime
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo

from i18n import Message, lazy
from service.errors import InvalidInputError
from service.limits import (
    MAX_AUTO_ADVANCE_MINUTES,
    MAX_DEADLINE_MINUTES,
    MAX_NOSHOW_GRACE_MINUTES,
    MAX_ROUND_INTERVAL_MINUTES,
    MIN_AUTO_ADVANCE_MINUTES,
    MIN_DEADLINE_MINUTES,
    MIN_NOSHOW_GRACE_MINUTES,
    MIN_ROUND_INTERVAL_MINUTES,
    echo,
)
from storage.connection import Connection
from storage.timefmt import to_text
from storage.tournaments import get_guild_settings
from swiss.moments import (
    DURATION_EXAMPLES,
    MOMENT_EXAMPLES,
    Moment,
    TimeInputError,
    format_duration,
    parse_duration,
    parse_moment,
    whole_minutes,
)

#: Settings that hold a moment, and the option an organiser types it in.
MOMENT_SETTINGS = {
    "first_round_at": "start_at",
    "registration_opens": "registration_opens",
    "registration_closes": "registration_closes",
    "checkin_opens": "checkin_opens",
    "checkin_closes": "checkin_closes",
    "decklist_deadline": "deadline",
}
#: Settings that hold a number of minutes: their option and the range they take.
DURATION_SETTINGS = {
    "deadline_minutes": ("deadline_minutes", MIN_DEADLINE_MINUTES, MAX_DEADLINE_MINUTES),
    "auto_advance_minutes": ("auto_advance", MIN_AUTO_ADVANCE_MINUTES,
                             MAX_AUTO_ADVANCE_MINUTES),
    "noshow_grace_minutes": ("noshow_grace", MIN_NOSHOW_GRACE_MINUTES,
                             MAX_NOSHOW_GRACE_MINUTES),
    "round_interval_minutes": ("round_interval", MIN_ROUND_INTERVAL_MINUTES,
                               MAX_ROUND_INTERVAL_MINUTES),
}
#: Words that clear a moment setting rather than name one.
CLEARING_WORDS = ("", "off", "none")


def moment_error(option: str, text: str, reason: str | Message) -> InvalidInputError:
    return InvalidInputError(lazy("{option} {text}: {reason}. Write a time like {examples}.",
                                  option=option, text=echo(text), reason=reason,
                                  examples=MOMENT_EXAMPLES))


def duration_error(option: str, text: str, reason: str | Message) -> InvalidInputError:
    return InvalidInputError(lazy("{option} {text}: {reason}. Write a duration like "
                                  "{examples}.", option=option, text=echo(text), reason=reason,
                                  examples=DURATION_EXAMPLES))


def read_moment(text: str, *, option: str, now: datetime, zone: ZoneInfo,
                future: bool = False) -> Moment:
    """``text`` as an instant, or the one refusal naming ``option``. ``future``: a moment
    that has passed is refused too."""
    try:
        moment = parse_moment(text, now, zone)
    except TimeInputError as exc:
        raise moment_error(option, text, exc.reason) from None
    if future and moment.at <= now:
        raise moment_error(option, text, lazy("<t:{at}:F> has already passed; choose a time "
                                              "to come", at=int(moment.at.timestamp())))
    return moment


def read_minutes(text: str, *, option: str) -> int:
    """``"1h30"`` -> 90, or the one refusal naming ``option`` (ranges are checked later)."""
    try:
        duration = parse_duration(text)
    except TimeInputError as exc:
        raise duration_error(option, text, exc.reason) from None
    if duration.total_seconds() % 60:
        raise duration_error(option, text, lazy("give whole minutes"))
    return whole_minutes(duration)


def read_times(values: Mapping[str, Any], *, now: datetime, zone: ZoneInfo,
               future_start: bool = True) -> tuple[dict[str, Any], list[str]]:
    """``values`` with every typed moment as UTC ISO text and every typed duration as
    minutes (values of other kinds are left as they are for the validation to judge), and the
    notes to show (a local time that happens twice). ``future_start``: a scheduled start
    must be to come (before the event starts; once it runs, round 1's time is history)."""
    out, notes = dict(values), []
    for setting, option in MOMENT_SETTINGS.items():
        value = out.get(setting)
        if not isinstance(value, str):
            continue
        if value.strip().lower() in CLEARING_WORDS:  # "off": no such moment any more
            out[setting] = None
            continue
        moment = read_moment(value, option=option, now=now, zone=zone,
                             future=future_start and setting == "first_round_at")
        out[setting] = to_text(moment.at)
        if moment.note:
            notes.append(f"{option}: {moment.note}.")
    for setting, (option, low, high) in DURATION_SETTINGS.items():
        value = out.get(setting)
        if isinstance(value, str):
            minutes = read_minutes(value, option=option)
            if not low <= minutes <= high:
                raise duration_error(option, value, lazy(
                    "{duration} is not from {low} to {high}", duration=format_duration(minutes),
                    low=format_duration(low), high=format_duration(high)))
            out[setting] = minutes
    return out, notes


@cache
def zone_names() -> tuple[str, ...]:
    """Every IANA zone name this system knows, sorted (the autocomplete's list)."""
    return tuple(sorted(zoneinfo.available_timezones()))


def zone_named(name: str) -> ZoneInfo:
    """The zone ``name`` (any case: "europe/paris"), or a refusal with examples."""
    text = str(name).strip()
    lowered = text.lower()
    for known in zone_names():
        if known.lower() == lowered:
            return ZoneInfo(known)
    raise InvalidInputError(lazy(
        "Unknown time zone {zone}: give an IANA name such as Europe/Paris, America/New_York or "
        "UTC (the option suggests them as you type).", zone=echo(text)))


def stored_zone(name: str) -> ZoneInfo:
    """A zone read back from the database; UTC if this system no longer knows it."""
    try:
        return ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


async def guild_zone(conn: Connection, guild_id: int) -> ZoneInfo:
    return stored_zone((await get_guild_settings(conn, guild_id)).timezone)
