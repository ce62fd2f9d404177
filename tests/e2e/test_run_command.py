"""``swissbot run``: the real entry point, as a subprocess, against the sandbox."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import discord
import pytest

from cli.main import main
from sandbox import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


def _env(fake: FakeDiscord, tmp_path: Path, token: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SWISSBOT_"))}
    env.update(
        DISCORD_TOKEN=token,
        DISCORD_API_BASE=fake.api_base,
        DISCORD_GATEWAY_URL=fake.gateway_url,
        SWISSBOT_DATABASE=str(tmp_path / "bot.sqlite3"),
        SWISSBOT_GUILD_IDS=",".join(str(g) for g in fake.guilds),
        PYTHONPATH=str(ROOT),
    )
    return env


async def _swissbot(env: dict[str, str], cwd: Path) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "cli.main", "run",
        env=env, cwd=cwd,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )


def test_missing_token_is_one_clear_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "DISCORD_TOKEN is not set" in err


def test_bad_setting_is_reported_by_name(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SWISSBOT_GUILD_IDS", "12,x")
    assert main(["run"]) == 3
    err = capsys.readouterr().err
    assert "invalid setting SWISSBOT_GUILD_IDS" in err and "Traceback" not in err


async def test_rejected_token_is_one_clear_line(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        fake.add_guild()
        process = await _swissbot(_env(fake, tmp_path, "wrong-token"), tmp_path)
        _, err = await asyncio.wait_for(process.communicate(), timeout=30)
    text = err.decode()
    assert process.returncode == 4
    assert "Discord rejected the token" in text
    assert "Traceback" not in text
    assert [r.status for r in fake.requests if r.kind == "get_me"] == [401]


async def test_run_connects_syncs_and_answers(tmp_path: Path) -> None:
    """The installed entry point, configured only by the environment, serves commands."""
    async with FakeDiscord() as fake:
        guild = fake.add_guild(players=2)
        process = await _swissbot(_env(fake, tmp_path, fake.token), tmp_path)
        try:
            sync = await fake.wait_for_request(lambda r: r.kind == "sync_commands", timeout=30)
            assert sync.params["guild_id"] == str(guild.id)
            for _ in range(100):  # the sync happens in setup_hook, before READY
                if fake.connected:
                    break
                await asyncio.sleep(0.05)
            inter = await fake.send_slash_command(
                guild, guild.channel("general"), fake.players(guild)[0], "tournament list"
            )
            reply = await fake.reply(inter, timeout=10)
            assert "No tournaments yet" in reply["embeds"][0]["description"]
        finally:
            process.send_signal(signal.SIGINT)
            _, err = await asyncio.wait_for(process.communicate(), timeout=30)
    text = err.decode()
    assert "Traceback" not in text, text
    assert (tmp_path / "bot.sqlite3").exists()


def test_unusable_database_is_one_clear_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("bot.logs.configure_logging", lambda *a, **k: None)  # keep pytest's
    monkeypatch.setenv("DISCORD_TOKEN", "some-token")
    monkeypatch.setenv("SWISSBOT_DATABASE", str(tmp_path / "missing-dir" / "bot.sqlite3"))
    monkeypatch.setenv("DISCORD_API_BASE", "http://127.0.0.1:9/api/v10")  # never reached
    monkeypatch.setenv("DISCORD_GATEWAY_URL", "ws://127.0.0.1:9/")
    endpoints = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    try:
        assert main(["run"]) == 3
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = endpoints
    err = capsys.readouterr().err
    assert "cannot open the database" in err and "Traceback" not in err
