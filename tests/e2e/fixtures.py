"""Fixtures for end-to-end tests: the sandbox, the real bot, and a guard on ERROR logs.

discord.py only *logs* exceptions raised in commands, views and event handlers, and swissbot
logs unexpected errors with an incident id; either would leave a broken test green. So every
e2e test fails if anything logged at ERROR under ``discord``, ``bot`` or ``cogs``.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
import yarl

from bot.client import SwissBot
from bot.settings import Settings
from sandbox import FakeDiscord, SandboxGuild
from sandbox.harness import RunningBot, start_bot

WATCHED_LOGGERS = ("discord", "bot", "cogs")


class ErrorRecorder(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []
        self.allowed: list[str] = []  # substrings of messages a test expects

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def unexpected(self) -> list[logging.LogRecord]:
        return [
            r
            for r in self.records
            if not any(text in r.getMessage() for text in self.allowed)
        ]


@pytest.fixture
def error_log() -> Iterator[ErrorRecorder]:
    recorder = ErrorRecorder()
    loggers = [logging.getLogger(name) for name in WATCHED_LOGGERS]
    for logger in loggers:
        logger.addHandler(recorder)
    yield recorder
    for logger in loggers:
        logger.removeHandler(recorder)
    bad = recorder.unexpected()
    if bad:
        lines = []
        for r in bad:
            lines.append(f"{r.name}: {r.getMessage()}")
            if r.exc_info and r.exc_info[1] is not None:
                lines.append(f"    {type(r.exc_info[1]).__name__}: {r.exc_info[1]}")
        pytest.fail("ERROR logged during the test:\n" + "\n".join(lines))


@pytest.fixture
async def fake(
    monkeypatch: pytest.MonkeyPatch, error_log: ErrorRecorder
) -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.api_base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(server.gateway_url)
    )
    yield server
    await server.stop()


@pytest.fixture
def guild(fake: FakeDiscord) -> SandboxGuild:
    return fake.add_guild("Sandbox Chess Club", players=12)


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "swissbot.sqlite3"


def sandbox_settings(fake: FakeDiscord, database: Path, **extra: Any) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        discord_token=fake.token,
        database=database,
        discord_api_base=fake.api_base,
        discord_gateway_url=fake.gateway_url,
        guild_ids=tuple(fake.guilds),
        **extra,
    )


BotStarter = Callable[..., Awaitable[SwissBot]]


@pytest.fixture
async def start_swissbot(
    fake: FakeDiscord, database: Path
) -> AsyncIterator[BotStarter]:
    """``await start_swissbot()`` starts a SwissBot on the test database; call it again after
    ``await stop_swissbot(bot)`` to simulate a restart. All bots are stopped at teardown."""
    running: list[RunningBot] = []

    async def start(**kwargs: Any) -> SwissBot:
        kwargs.setdefault("guild_ready_timeout", 0.05)
        kwargs.setdefault("delivery_interval", 0.05)
        settings = kwargs.pop("settings", {})  # e.g. {"web_port": 0} for the live page
        bot = SwissBot(sandbox_settings(fake, database, **settings), **kwargs)
        running.append(await start_bot(bot, fake))
        return bot

    yield start
    for run in running:
        if not run.client.is_closed() or not run.task.done():
            await run.stop()
        else:
            run.task.result()


async def stop_swissbot(bot: SwissBot) -> None:
    await bot.close()


class Club:
    """The test guild from a user's seat: run commands, click buttons, read the channel."""

    def __init__(self, fake: FakeDiscord, guild: SandboxGuild, channel_name: str = "tournaments"):
        self.fake = fake
        self.guild = guild
        self.channel = guild.channel(channel_name)
        self.owner = fake.owner_member(guild)
        self.players = fake.players(guild)

    async def run(self, member: Any, command: str, **options: Any) -> dict[str, Any]:
        """Run ``/command`` as ``member`` and return the bot's visible answer."""
        inter = await self.fake.send_slash_command(
            self.guild, self.channel, member, command, options
        )
        return await self.fake.reply(inter)

    async def configure(self, member: Any, tournament: str | None = None,
                        **settings: Any) -> dict[str, Any]:
        """Change settings one by one with ``/tournament settings setting: value:`` (True /
        False as on / off); the last answer."""
        reply: dict[str, Any] = {}
        extra = {} if tournament is None else {"tournament": tournament}
        for key, value in settings.items():
            text = ("on" if value else "off") if isinstance(value, bool) else str(value)
            reply = await self.run(member, "tournament settings", setting=key, value=text,
                                   **extra)
            assert "settings saved" in text_of(reply), reply
        return reply

    async def click(self, message: dict[str, Any], member: Any, label: str) -> dict[str, Any]:
        inter = await self.fake.click_button(message, member, label=label)
        return await self.fake.reply(inter)

    async def run_confirmed(self, member: Any, command: str, **options: Any) -> dict[str, Any]:
        """Run a destructive ``/command`` and click Confirm on the prompt it answers with
        (if it asks): the answer of the click, or the command's own answer."""
        reply = await self.run(member, command, **options)
        if has_button(reply, "Confirm"):
            return await self.click(reply, member, "Confirm")
        return reply

    @staticmethod
    def fake_text(message: dict[str, Any]) -> str:
        return text_of(message)

    def posts(self) -> list[dict[str, Any]]:
        """The bot's public messages in the channel (not interaction replies)."""
        return [
            m for m in self.channel.messages
            if "interaction_metadata" not in m and not m["flags"] & 64
        ]

    async def wait_post(self, predicate: Any, timeout: float = 10.0) -> dict[str, Any]:
        """Wait for a public post (an announcement) matching ``predicate``."""
        return await self.fake.wait_for_message(
            lambda m: m["channel_id"] == str(self.channel.id)
            and "interaction_metadata" not in m
            and predicate(m),
            timeout,
        )


async def running_club(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: BotStarter, name: str, rounds: int,
    players: int = 6,
) -> tuple[SwissBot, Club]:
    """A started bot and an event of ``players`` members, started: round 1 is open."""
    bot = await start_swissbot()
    club = Club(fake, guild)
    await club.run(club.owner, "tournament create", name=name, rounds=rounds)
    for player in club.players[:players]:
        await club.run(player, "join")
    await club.run(club.owner, "tournament start")
    return bot, club


def has_button(message: dict[str, Any], label: str) -> bool:
    return any(c.get("label") == label for row in message.get("components") or []
               for c in row.get("components") or [])


def text_of(message: dict[str, Any]) -> str:
    """Content, embed titles, descriptions and fields of a message, as one string."""
    parts = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f['name']}: {f['value']}" for f in embed.get("fields") or []]
        parts.append((embed.get("footer") or {}).get("text") or "")
    return "\n".join(parts)
