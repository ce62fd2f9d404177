"""Times in the database: UTC ISO-8601 text of one fixed format, so they compare as text."""

from __future__ import annotations

from datetime import UTC, datetime


def to_text(moment: datetime) -> str:
    """A timezone-aware datetime as ``YYYY-MM-DDTHH:MM:SS+00:00`` (naive means UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).replace(microsecond=0).isoformat()


def from_text(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def utc_now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)
