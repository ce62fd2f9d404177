"""SWISSBOT_SHARDS and SWISSBOT_SHARD_IDS (issue 17): parsing, clear errors, the client chosen,
and the guilds a process serves."""

from __future__ import annotations

from pathlib import Path

import pytest
from discord.ext import commands
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from bot.client import ShardedSwissBot, SwissBot, make_bot
from bot.settings import MAX_SHARDS, Settings, parse_shard_ids
from service import ALL_SHARDS, Shards

VARS = ("SWISSBOT_SHARDS", "SWISSBOT_SHARD_IDS", "SWISSBOT_OUTBOX_LEASE_SECONDS",
        "SWISSBOT_DELIVERY_INTERVAL")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def _settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> Settings:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return Settings()


def _error(monkeypatch: pytest.MonkeyPatch, **env: str) -> str:
    with pytest.raises(ValidationError) as caught:
        _settings(monkeypatch, **env)
    return str(caught.value)


def test_default_is_one_connection_serving_every_guild(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = _settings(monkeypatch)
    assert settings.shard_count is None and settings.shard_ids == ()
    assert not settings.sharded and settings.shards == ALL_SHARDS
    bot = make_bot(settings, service=object())
    assert type(bot) is SwissBot and not isinstance(bot, commands.AutoShardedBot)
    assert bot.sync_commands_on_start and bot.delivery_interval == 2.0


def test_auto_and_a_count(monkeypatch: pytest.MonkeyPatch) -> None:
    auto = _settings(monkeypatch, SWISSBOT_SHARDS=" Auto ")
    assert auto.shard_count == "auto" and auto.sharded and auto.shards.everything
    bot = make_bot(auto, service=object())
    assert isinstance(bot, ShardedSwissBot) and bot.shard_count is None  # asks Discord
    four = _settings(monkeypatch, SWISSBOT_SHARDS="4")
    assert four.shard_count == 4 and four.shards.everything  # all four in this process


def test_some_shards_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = _settings(monkeypatch, SWISSBOT_SHARDS="8", SWISSBOT_SHARD_IDS="2-3, 6")
    assert settings.shard_ids == (2, 3, 6)
    assert settings.shards == Shards(8, frozenset({2, 3, 6}))
    bot = make_bot(settings, service=object())
    assert isinstance(bot, ShardedSwissBot)
    assert bot.shard_count == 8 and bot.shard_ids == [2, 3, 6]
    assert not bot.sync_commands_on_start  # the process of shard 0 syncs
    guild_on_6 = (6 << 22) | 12345
    assert settings.shards.owns(guild_on_6) and not settings.shards.owns(guild_on_6 + (1 << 22))


@pytest.mark.parametrize(("env", "words"), [
    ({"SWISSBOT_SHARDS": "zero"}, "SWISSBOT_SHARDS must be auto or a number"),
    ({"SWISSBOT_SHARDS": "0"}, "SWISSBOT_SHARDS must be auto or a number"),
    ({"SWISSBOT_SHARDS": str(MAX_SHARDS + 1)}, "SWISSBOT_SHARDS must be auto or a number"),
    ({"SWISSBOT_SHARD_IDS": "0-1"}, "needs SWISSBOT_SHARDS"),
    ({"SWISSBOT_SHARDS": "auto", "SWISSBOT_SHARD_IDS": "0"}, "cannot be auto"),
    ({"SWISSBOT_SHARDS": "4", "SWISSBOT_SHARD_IDS": "3-5"}, "shard 4 does not exist"),
    ({"SWISSBOT_SHARDS": "4", "SWISSBOT_SHARD_IDS": "3-1"}, "backwards range"),
    ({"SWISSBOT_SHARDS": "4", "SWISSBOT_SHARD_IDS": "0,0"}, "listed twice"),
    ({"SWISSBOT_SHARDS": "4", "SWISSBOT_SHARD_IDS": "0,,1"}, "empty item"),
    ({"SWISSBOT_SHARDS": "4", "SWISSBOT_SHARD_IDS": "a-b"}, "SWISSBOT_SHARD_IDS"),
    ({"SWISSBOT_OUTBOX_LEASE_SECONDS": "0"}, "SWISSBOT_OUTBOX_LEASE_SECONDS"),
])
def test_bad_values_are_named(monkeypatch: pytest.MonkeyPatch, env: dict[str, str],
                              words: str) -> None:
    assert words in _error(monkeypatch, **env)


def _render(ids: list[int], style: list[bool]) -> str:
    """Write sorted distinct ``ids`` as a list, joining runs into ranges where ``style`` says."""
    parts: list[str] = []
    index = 0
    while index < len(ids):
        end = index
        while end + 1 < len(ids) and ids[end + 1] == ids[end] + 1:
            end += 1
        if end > index and style[index % len(style)]:
            parts.append(f"{ids[index]}-{ids[end]}")
        else:
            parts.extend(str(i) for i in ids[index:end + 1])
        index = end + 1
    return " , ".join(parts) if style[0] else ",".join(parts)


@given(st.sets(st.integers(0, 200), min_size=1, max_size=40),
       st.lists(st.booleans(), min_size=1, max_size=5))
def test_parser_reads_back_any_list_of_ranges(ids: set[int], style: list[bool]) -> None:
    ordered = sorted(ids)
    assert parse_shard_ids(_render(ordered, style)) == tuple(ordered)


@given(st.text(max_size=20))
def test_parser_accepts_only_what_it_can_explain(text: str) -> None:
    """Any text either parses to distinct, sorted ids in range, or raises ValueError."""
    try:
        ids = parse_shard_ids(text)
    except ValueError as exc:
        assert str(exc)
        return
    assert list(ids) == sorted(set(ids)) and all(0 <= i < MAX_SHARDS for i in ids)
