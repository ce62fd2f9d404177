"""swiss.moments: the moments and durations organisers type, read in the server's zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from swiss.moments import (
    Moment,
    TimeInputError,
    format_duration,
    format_moment,
    parse_duration,
    parse_moment,
    whole_minutes,
)

PARIS = ZoneInfo("Europe/Paris")
NEW_YORK = ZoneInfo("America/New_York")
# Friday 27 November 2026, 15:00 UTC (16:00 in Paris)
NOW = datetime(2026, 11, 27, 15, 0, tzinfo=UTC)
ZONES = [ZoneInfo(name) for name in ("UTC", "Europe/Paris", "America/New_York",
                                     "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Apia")]


def at(text: str, zone: ZoneInfo = PARIS, now: datetime = NOW) -> datetime:
    return parse_moment(text, now, zone).at


@pytest.mark.parametrize(("text", "expected"), [
    ("now", datetime(2026, 11, 27, 15, 0)),
    ("tomorrow 19:00", datetime(2026, 11, 28, 18, 0)),
    ("Tomorrow at 7pm", datetime(2026, 11, 28, 18, 0)),
    ("19:00 tomorrow", datetime(2026, 11, 28, 18, 0)),
    ("today 18:00", datetime(2026, 11, 27, 17, 0)),
    ("fri 18:30", datetime(2026, 11, 27, 17, 30)),   # today: still to come
    ("friday 15:30", datetime(2026, 12, 4, 14, 30)),  # today's has passed: next week
    ("mon 9am", datetime(2026, 11, 30, 8, 0)),
    ("in 2h", datetime(2026, 11, 27, 17, 0)),
    ("in 90 minutes", datetime(2026, 11, 27, 16, 30)),
    ("in 1h30", datetime(2026, 11, 27, 16, 30)),
    ("19:00", datetime(2026, 11, 27, 18, 0)),
    ("15:00", datetime(2026, 11, 28, 14, 0)),         # passed today: tomorrow's
    ("19h30", datetime(2026, 11, 27, 18, 30)),
    ("2026-12-05 19:00", datetime(2026, 12, 5, 18, 0)),
    ("2026-12-05T19:00", datetime(2026, 12, 5, 18, 0)),
    ("2026-12-05 19:00:00", datetime(2026, 12, 5, 18, 0)),
    ("05.12.2026 19:00", datetime(2026, 12, 5, 18, 0)),
    ("2026-12-05T19:00+00:00", datetime(2026, 12, 5, 19, 0)),
    ("2026-12-05T19:00Z", datetime(2026, 12, 5, 19, 0)),
    ("1796497200", datetime(2026, 12, 5, 19, 0)),      # a Unix timestamp
])
def test_the_forms_people_write(text: str, expected: datetime) -> None:
    assert at(text) == expected.replace(tzinfo=UTC)


@pytest.mark.parametrize(("text", "minutes"), [
    ("90", 90), ("90m", 90), ("90 min", 90), ("90 minutes", 90), ("1h30", 90),
    ("1h 30m", 90), ("1h30m", 90), ("1:30", 90), ("7d", 7 * 1440), ("2w", 2 * 7 * 1440),
    ("1d12h", 36 * 60), ("2 hours", 120), ("0", 0),
])
def test_durations(text: str, minutes: int) -> None:
    assert parse_duration(text) == timedelta(minutes=minutes)


@pytest.mark.parametrize(("text", "reason"), [
    ("30s", "whole minutes"), ("1x", "not a unit"), ("1h1h", "twice"), ("h", "not a duration"),
    ("1h75", "not a time"), ("", "empty"), ("١٢", "0-9"), ("0000000090", "ten years"),
    ("99999999", "ten years"),
])
def test_bad_durations_say_why(text: str, reason: str) -> None:
    with pytest.raises(TimeInputError, match=reason):
        parse_duration(text)


@pytest.mark.parametrize(("text", "reason"), [
    ("05/12/2026 19:00", "slash"), ("tomorrow", "time of day"), ("25:00", "not a time"),
    ("2026-02-30 10:00", "no day 30"), ("1999-01-01 10:00", "1999"), ("13pm", "not a time"),
    ("whenever", "not a time"), ("x" * 41, "longer"), ("19", "'19' is not a time of day"),
    ("in 99999w", "ten years"), ("0", "not a time of day"),
])
def test_bad_moments_say_why(text: str, reason: str) -> None:
    with pytest.raises(TimeInputError, match=reason):
        at(text)


def test_the_zone_decides_what_a_local_time_means() -> None:
    assert at("2026-12-05 19:00", ZoneInfo("UTC")) == datetime(2026, 12, 5, 19, tzinfo=UTC)
    assert at("2026-12-05 19:00", NEW_YORK) == datetime(2026, 12, 6, 0, tzinfo=UTC)
    # an offset names the instant whatever the zone
    assert at("2026-12-05T19:00+01:00", NEW_YORK) == datetime(2026, 12, 5, 18, tzinfo=UTC)


def test_tomorrow_is_the_servers_tomorrow() -> None:
    # 23:30 UTC on the 27th is already the 28th in Kolkata (05:00): tomorrow is the 29th there
    late = datetime(2026, 11, 27, 23, 30, tzinfo=UTC)
    assert at("tomorrow 10:00", ZoneInfo("Asia/Kolkata"), late) == \
        datetime(2026, 11, 29, 4, 30, tzinfo=UTC)


def test_a_skipped_local_time_is_refused_with_the_reason() -> None:
    with pytest.raises(TimeInputError, match="does not exist in Europe/Paris"):
        at("2026-03-29 02:30")
    with pytest.raises(TimeInputError, match="does not exist in America/New_York"):
        at("2026-03-08 02:15", NEW_YORK)


def test_a_repeated_local_time_is_the_first_and_says_so() -> None:
    moment = parse_moment("2026-10-25 02:30", NOW, PARIS)
    assert moment.at == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)  # still summer time
    assert moment.note is not None and "twice" in moment.note
    assert parse_moment("2026-10-25 04:30", NOW, PARIS).note is None


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=45), st.sampled_from(ZONES),
       st.datetimes(min_value=datetime(2001, 1, 1), max_value=datetime(2998, 1, 1),
                    timezones=st.just(UTC)))
def test_any_text_is_a_moment_or_the_parsers_error(text: str, zone: ZoneInfo,
                                                   now: datetime) -> None:
    try:
        moment = parse_moment(text, now, zone)
    except TimeInputError as exc:
        assert exc.reason
    else:
        assert isinstance(moment, Moment) and moment.at.tzinfo is UTC


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789hmdw: .ominutesr", max_size=20))
def test_any_text_is_a_duration_or_the_parsers_error(text: str) -> None:
    try:
        duration = parse_duration(text)
    except TimeInputError as exc:
        assert exc.reason
    else:
        assert duration >= timedelta(0) and duration.seconds % 60 == 0


@settings(max_examples=300, deadline=None)
@given(st.datetimes(min_value=datetime(2001, 1, 1), max_value=datetime(2998, 1, 1),
                    timezones=st.just(UTC)), st.sampled_from(ZONES))
def test_formatting_then_parsing_gives_the_moment_back(moment: datetime,
                                                       zone: ZoneInfo) -> None:
    moment = moment.replace(second=0, microsecond=0)
    text = format_moment(moment, zone)
    try:
        parsed = parse_moment(text, NOW, zone)
    except TimeInputError:  # only a skipped hour; a formatted instant is never one
        pytest.fail(f"{text} was refused")
    # the local text of the second of two repeated hours reads back as the first
    assert parsed.at == moment or (parsed.note is not None
                                   and parsed.at < moment <= parsed.at + timedelta(hours=1))


@given(st.integers(min_value=0, max_value=3650 * 1440))
def test_a_formatted_duration_reads_back(minutes: int) -> None:
    assert whole_minutes(parse_duration(format_duration(minutes))) == minutes
