"""The timer settings and the arming of stored timers (see :mod:`service.timers`).

Kept apart from the operations so that ``service.rounds`` (which arms a round's timers when it
pairs it) and ``service.tournaments`` (which validates the settings) can use it without an
import cycle. Only storage and the service's own value types are imported here.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

from i18n import lazy
from service.errors import InvalidInputError
from service.limits import (
    DEADLINE_ACTIONS,
    DEADLINE_FALLBACKS,
    MAX_DEADLINE_MINUTES,
    MAX_NOSHOW_DROP_AFTER,
    MAX_NOSHOW_GRACE_MINUTES,
    MAX_REMINDERS,
    MAX_REMINDERS_TEXT,
    MAX_ROUND_INTERVAL_MINUTES,
    MAX_START_TIME_TEXT,
    MIN_NOSHOW_DROP_AFTER,
    MIN_NOSHOW_GRACE_MINUTES,
    MIN_ROUND_INTERVAL_MINUTES,
    echo,
)
from service.validation import check_choice, check_range
from service.views import TournamentSettings
from storage import timers as timer_repo
from storage.connection import Connection
from storage.timefmt import from_text, to_text
from storage.tournaments import TournamentRow
from swiss.moments import TimeInputError, format_duration, parse_duration, whole_minutes
from swiss.numbers import NumberError, parse_int


# -- settings ------------------------------------------------------------------------------------
def check_reminders(value: str | None) -> str:
    """``"15,5"`` or ``"1h, 15m"`` -> ``"60,15"`` (distinct minutes before the deadline,
    largest first). Each reminder is a duration (:mod:`swiss.moments`; a number is minutes);
    without commas, numbers may be separated by spaces ("15 5")."""
    text = "" if value is None else str(value).strip()
    if not text or text.lower() in ("none", "off", "0"):
        return ""
    if len(text) > MAX_REMINDERS_TEXT:
        raise InvalidInputError(
            f"The reminders are too long: give at most {MAX_REMINDERS} times before the "
            "deadline, such as 15,5."
        )
    words = text.split()
    parts = text.split(",") if "," in text or not all(w.isdigit() for w in words) else words
    minutes: set[int] = set()
    for part in (p.strip() for p in parts):
        if part:
            minutes.add(_reminder(part, text))
    if len(minutes) > MAX_REMINDERS:
        raise InvalidInputError(f"Give at most {MAX_REMINDERS} reminders (you gave "
                                f"{len(minutes)}).")
    return ",".join(str(m) for m in sorted(minutes, reverse=True))


def _reminder(part: str, text: str) -> int:
    """One reminder in minutes, or the refusal that quotes the whole option."""
    try:
        if part.isdigit() or not part.isascii():  # strictly: "²" passes isdigit()
            return parse_int(part, "the reminder", low=1, high=MAX_DEADLINE_MINUTES)
        minutes = whole_minutes(parse_duration(part))
        if not 1 <= minutes <= MAX_DEADLINE_MINUTES:
            raise NumberError(f"the reminder {part!r} is not from 1m to "
                              f"{format_duration(MAX_DEADLINE_MINUTES)}")
        return minutes
    except (NumberError, TimeInputError) as exc:
        raise InvalidInputError(
            f"Reminders {echo(text)}: {exc.reason}. Give times before the deadline "
            "separated by commas, such as 15,5 or 1h, 15m."
        ) from None


def reminder_minutes(settings: TournamentSettings) -> list[int]:
    return [int(m) for m in settings.reminders.split(",") if m]


def parse_start_time(value: str | datetime | None) -> str | None:
    """A scheduled first round: a datetime, ``YYYY-MM-DD HH:MM`` (UTC), an ISO time with an
    offset, or a Unix timestamp; stored as the tables' UTC text."""
    if value is None:
        return None
    if isinstance(value, datetime):
        return to_text(value)
    text = str(value).strip()
    if not text or text.lower() in ("none", "off"):
        return None
    if len(text) > MAX_START_TIME_TEXT:
        raise InvalidInputError(
            "The start time is too long: write it as YYYY-MM-DD HH:MM (UTC) or a Unix "
            "timestamp."
        )
    if not text.isascii():  # digits of other scripts are no time anybody means
        raise InvalidInputError(
            f"The start time {echo(text)} may only use the ASCII digits 0-9: write it as "
            "YYYY-MM-DD HH:MM (UTC), e.g. 2026-03-01 18:00, or as a Unix timestamp."
        )
    try:
        if text.isdigit():
            moment = datetime.fromtimestamp(int(text), UTC)
        else:
            moment = datetime.fromisoformat(text.replace(" ", "T", 1))
    except (ValueError, OverflowError, OSError):
        raise InvalidInputError(
            f"Unknown start time {echo(text)}: write it as YYYY-MM-DD HH:MM (UTC), e.g. "
            "2026-03-01 18:00, or as a Unix timestamp."
        ) from None
    if not 2000 <= moment.year <= 2999:
        raise InvalidInputError(lazy("The start time {text} is not a plausible date.",
                                     text=echo(text)))
    return to_text(moment)


def validate_timer_settings(settings: TournamentSettings) -> TournamentSettings:
    action = check_choice(settings.deadline_action, what="deadline action",
                          choices=DEADLINE_ACTIONS)
    fallback = check_choice(settings.deadline_fallback, what="deadline fallback",
                            choices=DEADLINE_FALLBACKS)
    if settings.noshow_grace_minutes is not None:
        check_range(settings.noshow_grace_minutes, what="no-show grace time in minutes",
                    low=MIN_NOSHOW_GRACE_MINUTES, high=MAX_NOSHOW_GRACE_MINUTES)
    check_range(settings.noshow_drop_after, what="missed games before a drop",
                low=MIN_NOSHOW_DROP_AFTER, high=MAX_NOSHOW_DROP_AFTER)
    if settings.round_interval_minutes is not None:
        check_range(settings.round_interval_minutes, what="interval between rounds in minutes",
                    low=MIN_ROUND_INTERVAL_MINUTES, high=MAX_ROUND_INTERVAL_MINUTES)
    first = parse_start_time(settings.first_round_at)
    if first is not None and settings.rounds > 1 and settings.round_interval_minutes is None:
        raise InvalidInputError(lazy(
            "A scheduled start needs the interval between rounds too (round_interval), e.g. "
            "1440 for one round a day."))
    return dataclasses.replace(
        settings, reminders=check_reminders(settings.reminders), deadline_action=action,
        deadline_fallback=fallback, first_round_at=first,
    )


# -- arming --------------------------------------------------------------------------------------
def scheduled_at(settings: TournamentSettings, number: int) -> datetime | None:
    """When round ``number`` is scheduled to start, or None without a schedule."""
    first = from_text(settings.first_round_at)
    if first is None:
        return None
    if number == 1:
        return first
    if settings.round_interval_minutes is None:
        return None
    return first + timedelta(minutes=settings.round_interval_minutes * (number - 1))


async def arm_round(
    conn: Connection,
    t: TournamentRow,
    settings: TournamentSettings,
    *,
    round_id: int,
    number: int,
    deadline: datetime | None,
    now: datetime,
) -> None:
    """A round was paired: store its reminders and its deadline action. The timers are
    deleted with the round (undo), and a setting changed later is read when they fire."""
    if deadline is None:
        return
    for minutes in reminder_minutes(settings):
        due = deadline - timedelta(minutes=minutes)
        if due > now:  # a reminder already past at pairing time says nothing useful
            await timer_repo.insert_timer(conn, tournament_id=t.id, round_id=round_id,
                                          round_number=number, kind="reminder", due_at=due,
                                          subject=minutes, now=now)
    await timer_repo.insert_timer(conn, tournament_id=t.id, round_id=round_id,
                                  round_number=number, kind="deadline", due_at=deadline,
                                  now=now)


async def arm_schedule(
    conn: Connection,
    t: TournamentRow,
    settings: TournamentSettings,
    number: int,
    now: datetime,
    *,
    future_only: bool = False,
) -> datetime | None:
    """Replace the pending scheduled start by one for round ``number`` (when the schedule is
    on and the round exists); returns its time. ``future_only``: not if that time has passed
    (after an undo, a past time would re-pair the undone round at once)."""
    await timer_repo.cancel_pending(conn, t.id, "round_start", now)
    due = scheduled_at(settings, number)
    if due is None or number > settings.rounds or (future_only and due <= now):
        return None
    await timer_repo.insert_timer(conn, tournament_id=t.id, round_id=None, round_number=number,
                                  kind="round_start", due_at=due, now=now)
    return due
