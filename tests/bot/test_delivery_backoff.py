"""The wait before a failed post is tried again: 2, 4, 8 ... s by default, at most 5 minutes,
and the first wait set by SWISSBOT_DELIVERY_RETRY_SECONDS."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.delivery import MAX_BACKOFF_SECONDS, backoff
from bot.settings import Settings


def test_the_default_waits_double_from_two_seconds_up_to_five_minutes() -> None:
    assert [backoff(n) for n in range(1, 10)] == [2, 4, 8, 16, 32, 64, 128, 256, 300]
    assert backoff(40) == MAX_BACKOFF_SECONDS


def test_a_shorter_first_wait_doubles_the_same_way() -> None:
    assert [backoff(n, 0.25) for n in (1, 2, 3)] == [0.25, 0.5, 1.0]


def test_the_first_wait_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SWISSBOT_TOKEN", "x")
    monkeypatch.delenv("SWISSBOT_DELIVERY_RETRY_SECONDS", raising=False)
    assert Settings().delivery_retry_seconds == 2.0
    monkeypatch.setenv("SWISSBOT_DELIVERY_RETRY_SECONDS", "0.5")
    assert Settings().delivery_retry_seconds == 0.5
    for bad in ("0", "-1", "nan", "1e9", "soon"):
        monkeypatch.setenv("SWISSBOT_DELIVERY_RETRY_SECONDS", bad)
        with pytest.raises(ValidationError, match=r"delivery_retry_seconds|SWISSBOT_DELIVERY"):
            Settings()
