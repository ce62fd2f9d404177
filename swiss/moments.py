"""Moments and durations as people type them: "tomorrow 19:00", "fri 18:30", "in 2h", "90m".

Pure: the current moment and the server's time zone are arguments, so the same text always
means the same instant in a test and on the server.

Why a small grammar of our own rather than ``dateparser``: that library guesses. Tried on
the forms below, it read "05.12.2026" as the 12th of May, "1h30" as half past one in the
night and "fri 18:30" on a Saturday as the day before; text that means nothing becomes *some*
date rather than an error; and it brings four dependencies and about 0.25 s of CPU and 17 MB
to import (regular expressions for 200 languages). A tournament's start is
not the place for a guess: the forms below are few, documented in the README, and anything
else is refused with examples. The time zone rules come from :mod:`zoneinfo` (IANA names).

Moments (case-insensitive; ``at`` may stand before the time):

* ``now``; ``in 2h``, ``in 90 minutes``, ``in 1h30`` (any duration below);
* ``19:00``, ``7pm``, ``7:30 pm``, ``19h30``: the next time the clock shows it;
* ``today 18:00``, ``tomorrow 19:00``, ``fri 18:30`` / ``friday 18:30`` (the next Friday, today
  if that time is still to come);
* ``2026-12-05 19:00`` (or with ``T``, seconds), ``05.12.2026 19:00`` (day first, as written in
  most of Europe); slashes are refused, since 05/12 means May in the USA;
* ISO 8601 with an offset (``2026-12-05T19:00+01:00``, ``...Z``) and a Unix timestamp (digits
  only) name the instant whatever the zone.

A local time that does not exist (the hour skipped when clocks go forward) is refused with the
reason; one that happens twice (clocks go back) is the first of the two, and the result says so.

Durations: ``90`` (minutes, as the options always meant), ``90m``, ``90 min``, ``1h30``,
``1h 30m``, ``1:30``, ``7d``, ``2w``, ``1d12h``; whole minutes only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

#: Longest text parsed: a longer one is refused before any regular expression sees it.
MAX_TIME_TEXT = 40
#: Moments beyond these years are typing mistakes (and outside what the tables store).
FIRST_YEAR, LAST_YEAR = 2000, 2999
#: The longest duration any option takes is four weeks; this bound only keeps numbers sane.
MAX_DURATION = timedelta(days=3650)

MOMENT_EXAMPLES = '"tomorrow 19:00", "fri 18:30", "in 2h", "2026-12-05 19:00"'
DURATION_EXAMPLES = '"90m", "1h30", "7d" or minutes as a number'

WEEKDAYS = {name: index for index, names in enumerate((
    ("mon", "monday"), ("tue", "tues", "tuesday"), ("wed", "wednesday"),
    ("thu", "thur", "thurs", "thursday"), ("fri", "friday"), ("sat", "saturday"),
    ("sun", "sunday"),
)) for name in names}

_UNIT_MINUTES = {"w": 7 * 24 * 60, "d": 24 * 60, "h": 60, "m": 1}
_UNIT_NAMES = {
    "w": "w", "wk": "w", "wks": "w", "week": "w", "weeks": "w",
    "d": "d", "day": "d", "days": "d",
    "h": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
    "m": "m", "min": "m", "mins": "m", "minute": "m", "minutes": "m",
}
_DURATION_PART = re.compile(r"(\d{1,6})\s*([a-z]+)")
_H_MM = re.compile(r"(\d{1,4}):(\d{2})")  # "1:30"
_CLOCK = re.compile(
    r"(?P<hour>\d{1,2})(?:(?::|h)(?P<minute>\d{2})(?::00)?)?\s*(?P<half>am|pm)?|(?P<bare>\d{1,2})h"
)
_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_DOT_DATE = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})")


class TimeInputError(ValueError):
    """Text that is no moment or duration; ``reason`` says why, in words for the user."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Moment:
    """An instant (aware, UTC) and, when the local time was ambiguous, a note saying which
    of the two was taken (``None`` otherwise)."""

    at: datetime
    note: str | None = None


def parse_duration(text: str) -> timedelta:
    """``"1h30"`` -> 90 minutes. A plain number is minutes. Raises :class:`TimeInputError`."""
    compact = _normalised(text).replace(" ", "")
    if not compact:
        raise TimeInputError("it is empty")
    if compact.isdigit():
        if len(compact) > 7:
            raise TimeInputError("it is longer than ten years")
        return _bounded(timedelta(minutes=int(compact)))
    clock = _H_MM.fullmatch(compact)
    if clock:
        return _bounded(timedelta(hours=int(clock.group(1))) + _past_hour(clock.group(2)))
    total, position, units = timedelta(), 0, []
    while position < len(compact):
        part = _DURATION_PART.match(compact, position)
        if part is None:
            break
        unit = _UNIT_NAMES.get(part.group(2))
        if unit is None:
            if part.group(2) in ("s", "sec", "secs", "second", "seconds"):
                raise TimeInputError("give whole minutes, not seconds")
            raise TimeInputError(f"{part.group(2)!r} is not a unit (use w, d, h or m)")
        if unit in units:
            raise TimeInputError(f"the unit {unit!r} is given twice")
        units.append(unit)
        total += timedelta(minutes=int(part.group(1)) * _UNIT_MINUTES[unit])
        position = part.end()
    tail = compact[position:]
    if tail and units and units[-1] == "h" and re.fullmatch(r"\d{1,2}", tail):
        total, tail = total + _past_hour(tail), ""  # "1h30": the minutes need no unit
    if tail or not units:
        raise TimeInputError("it is not a duration")
    return _bounded(total)


def parse_moment(text: str, now: datetime, zone: ZoneInfo) -> Moment:
    """The instant ``text`` names, read in ``zone`` at ``now`` (aware). Past moments are
    returned as they are: whether the past is allowed is the caller's rule. Raises
    :class:`TimeInputError`."""
    words = _normalised(text)
    if not words:
        raise TimeInputError("it is empty")
    local_now = now.astimezone(zone)
    if words == "now":
        return Moment(_plausible(now.astimezone(UTC)))
    if words.startswith("in "):
        return Moment(_plausible((now + parse_duration(words[3:])).astimezone(UTC)))
    if words.isdigit():
        if len(words) < 9:  # "19" is no Unix timestamp anybody means
            raise TimeInputError(f"{words!r} is not a time of day (write it like 19:00 or 7pm)")
        return Moment(_unix(words))
    absolute = _with_offset(text.strip())
    if absolute is not None:
        return Moment(_plausible(absolute.astimezone(UTC)))
    day_word, clock_text = _split_day(words)
    clock = _clock(clock_text) if clock_text else None
    if day_word is None:
        if clock is None:
            raise TimeInputError("give a time of day too, like 19:00")
        day = local_now.date()
        if datetime.combine(day, clock) <= local_now.replace(tzinfo=None):
            day += timedelta(days=1)
        return _localised(day, clock, zone)
    if clock is None:
        raise TimeInputError("give a time of day too, like 19:00")
    return _localised(_day(day_word, local_now, clock), clock, zone)


def format_moment(moment: datetime, zone: ZoneInfo) -> str:
    """``"2026-12-05 19:00"`` in ``zone``: the form :func:`parse_moment` reads back."""
    return f"{moment.astimezone(zone):%Y-%m-%d %H:%M}"


def format_duration(minutes: int) -> str:
    """``90`` -> ``"1h 30m"``: the form :func:`parse_duration` reads back."""
    parts = []
    for unit in ("w", "d", "h", "m"):
        count, minutes = divmod(minutes, _UNIT_MINUTES[unit])
        if count:
            parts.append(f"{count}{unit}")
    return " ".join(parts) or "0m"


def whole_minutes(duration: timedelta) -> int:
    return int(duration.total_seconds()) // 60


# -- the pieces ----------------------------------------------------------------------------------
def _normalised(text: str) -> str:
    if not isinstance(text, str):
        raise TimeInputError("it is not text")
    if len(text) > MAX_TIME_TEXT:
        raise TimeInputError(f"it is longer than {MAX_TIME_TEXT} characters")
    if not text.isascii():  # "١٢" passes isdigit(): digits of other scripts are refused
        raise TimeInputError("use the digits 0-9 and English words")
    return " ".join(text.lower().replace(",", " ").split())


def _bounded(duration: timedelta) -> timedelta:
    if duration > MAX_DURATION:
        raise TimeInputError("it is longer than ten years")
    return duration


def _past_hour(digits: str) -> timedelta:
    if int(digits) >= 60:
        raise TimeInputError(f"{digits} minutes past the hour is not a time")
    return timedelta(minutes=int(digits))


def _unix(digits: str) -> datetime:
    if len(digits) > 11:
        raise TimeInputError("the Unix timestamp is out of range")
    return _plausible(datetime.fromtimestamp(int(digits), UTC))


def _plausible(moment: datetime) -> datetime:
    if not FIRST_YEAR <= moment.year <= LAST_YEAR:
        raise TimeInputError(f"the year {moment.year} is not plausible")
    return moment.replace(microsecond=0)


def _with_offset(text: str) -> datetime | None:
    """ISO 8601 text that names its offset (or Z); None for anything else."""
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|z|[+-]\d{2}:?\d{2})",
                        text):
        return None
    try:
        moment = datetime.fromisoformat(text.upper().replace(" ", "T", 1))
    except ValueError:
        raise TimeInputError("the date or the offset does not exist") from None
    return moment


def _split_day(words: str) -> tuple[str | None, str]:
    """``"tomorrow at 19:00"`` -> ``("tomorrow", "19:00")``; the day may come second."""
    tokens = [t for t in words.split(" ") if t != "at"]
    for index in (0, len(tokens) - 1):
        if tokens and (_ISO_DATE.fullmatch(tokens[index]) or _DOT_DATE.fullmatch(tokens[index])
                       or tokens[index] in WEEKDAYS or tokens[index] in ("today", "tomorrow")):
            rest = tokens[:index] + tokens[index + 1:]
            return tokens[index], " ".join(rest)
    first = tokens[0] if tokens else ""
    if "t" in first and _ISO_DATE.match(first):  # "2026-12-05t19:00"
        day, _, clock = first.partition("t")
        return day, " ".join([clock, *tokens[1:]])
    if "/" in words:
        raise TimeInputError("write the date as 2026-12-05 or 05.12.2026 (with a slash, "
                             "05/12 means May in some countries and December in others)")
    return None, " ".join(tokens)


def _clock(text: str) -> time:
    match = _CLOCK.fullmatch(text)
    if match is None:
        raise TimeInputError(f"{text!r} is not a time of day (write it like 19:00 or 7pm)")
    if match["bare"] is not None:  # "19h"
        hour, minute, half = int(match["bare"]), 0, None
    else:
        hour, minute, half = int(match["hour"]), int(match["minute"] or 0), match["half"]
        if half is None and match["minute"] is None:
            raise TimeInputError(f"{text!r} is not a time of day (write it like 19:00 or 7pm)")
    if half is not None:
        if not 1 <= hour <= 12:
            raise TimeInputError(f"{hour}{half} is not a time of day")
        hour = hour % 12 + (12 if half == "pm" else 0)
    if hour > 23 or minute > 59:
        raise TimeInputError(f"{text!r} is not a time of day")
    return time(hour, minute)


def _day(word: str, local_now: datetime, clock: time) -> date:
    today = local_now.date()
    if word == "today":
        return today
    if word == "tomorrow":
        return today + timedelta(days=1)
    if word in WEEKDAYS:
        ahead = (WEEKDAYS[word] - today.weekday()) % 7
        if ahead == 0 and clock <= local_now.time().replace(tzinfo=None):
            ahead = 7  # "fri 18:30" on a Friday evening: next week's
        return today + timedelta(days=ahead)
    iso, dotted = _ISO_DATE.fullmatch(word), _DOT_DATE.fullmatch(word)
    year, month, day = (
        (int(iso.group(1)), int(iso.group(2)), int(iso.group(3))) if iso else
        (int(dotted.group(3)), int(dotted.group(2)), int(dotted.group(1)))  # type: ignore[union-attr]
    )
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise TimeInputError(f"the year {year} is not plausible")
    try:
        return date(year, month, day)
    except ValueError:
        raise TimeInputError(f"there is no day {day:02d} in month {month:02d} of "
                             f"{year}") from None


def _localised(day: date, clock: time, zone: ZoneInfo) -> Moment:
    """The wall time ``day clock`` in ``zone`` as an instant, refusing a skipped one."""
    wall = datetime.combine(day, clock)
    first = wall.replace(tzinfo=zone, fold=0)
    second = wall.replace(tzinfo=zone, fold=1)
    # a wall time that does not exist does not survive the round trip through UTC
    if first.astimezone(UTC).astimezone(zone).replace(tzinfo=None) != wall:
        raise TimeInputError(
            f"{wall:%Y-%m-%d %H:%M} does not exist in {zone.key}: the clocks skip that hour "
            "(summer time begins); choose another time")
    note = None
    if first.utcoffset() != second.utcoffset():
        note = (f"{wall:%Y-%m-%d %H:%M} happens twice in {zone.key} (the clocks go back): "
                "the first one was taken")
    return Moment(_plausible(first.astimezone(UTC)), note)
