"""An operator watches a real event: the bot (the real discord.py client against the sandbox)
serves Prometheus metrics on SWISSBOT_METRICS_PORT; a scrape before and after the commands
shows the counters move as the commands did, and no user data."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from discord.gateway import DiscordWebSocket
from prometheus_client.parser import text_string_to_metric_families

from sandbox import FakeDiscord
from tests.e2e.fixtures import Club
from tests.e2e.processes import bot_env, start_process, stop_process, wait_until

METRICS = {"metrics_port": 0, "metrics_host": "127.0.0.1"}


async def _get(bot: Any, path: str, method: str = "GET") -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.request(
            method, f"http://127.0.0.1:{bot.metrics.port}{path}") as response:
        return response.status, await response.text()


async def scrape(bot: Any) -> tuple[str, dict[tuple[str, frozenset[tuple[str, str]]], float]]:
    status, text = await _get(bot, "/metrics")
    assert status == 200
    samples = {(s.name, frozenset(s.labels.items())): s.value
               for family in text_string_to_metric_families(text) for s in family.samples}
    return text, samples


def value(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


async def test_the_counters_move_as_the_commands_do(fake, guild, start_swissbot) -> None:
    bot = await start_swissbot(settings=METRICS)
    club = Club(fake, guild)
    _, before = await scrape(bot)

    reply = await club.run(club.owner, "tournament create", name="Metrics Open", rounds=2)
    assert "Created **Metrics Open**" in reply["content"]
    for player in club.players[:3]:
        assert "joined" in (await club.run(player, "join"))["content"]
    again = await club.run(club.players[0], "join")  # already registered: refused
    assert "already" in again["content"]
    await club.run(club.owner, "tournament start")  # round 1, paired inline, then posted
    await club.wait_post(lambda m: "Round 1" in Club.fake_text(m))
    await asyncio.sleep(0.3)  # the delivery marks the post delivered after sending it

    text, after = await scrape(bot)

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("swissbot_commands_total", command="join", outcome="ok", code="") == 3
    assert moved("swissbot_commands_total", command="join", outcome="refused",
                 code="already_registered") == 1
    assert moved("swissbot_commands_total", command="tournament create", outcome="ok",
                 code="") == 1
    assert moved("swissbot_command_duration_seconds_count", command="join") == 4
    assert moved("swissbot_pairing_runs_total", where="inline", outcome="ok") == 1
    assert moved("swissbot_outbox_deliveries_total", outcome="delivered") >= 1
    assert value(after, "swissbot_gateway_connected") == 1
    assert value(after, "swissbot_database_up") == 1
    assert value(after, "swissbot_outbox_oldest_due_seconds") < 60
    latency = value(after, "swissbot_gateway_latency_seconds", shard="0")
    assert latency == latency and 0 <= latency < 5  # not NaN: the heartbeat was answered

    # no user data: no names, no ids of the guild, its channels or its members
    names = [guild.name, "Metrics Open", club.owner.display_name,
             *(p.display_name for p in club.players[:3])]
    ids = [guild.id, club.channel.id, club.owner.id, *(p.id for p in club.players[:3])]
    for secret in [*names, *map(str, ids)]:
        assert secret not in text, secret

    for path in ("/metrics", "/healthz", "/readyz"):
        assert (await _get(bot, path, "POST"))[0] == 405
    assert await _get(bot, "/healthz") == (200, "ok\n")


async def test_ready_only_while_the_gateway_is_connected(fake, guild, start_swissbot,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    bot = await start_swissbot(settings=METRICS)
    status, text = await _get(bot, "/readyz")
    assert (status, text) == (200, "ready\ndatabase: ok\ngateway: ok\noutbox: ok\n")

    # The gateway drops the connection; the bot's reconnection is held until we let it go.
    reconnect = asyncio.Event()
    connect = DiscordWebSocket.from_client.__func__  # type: ignore[attr-defined]

    async def held(cls: Any, client: Any, **kwargs: Any) -> Any:
        await reconnect.wait()
        return await connect(cls, client, **kwargs)

    monkeypatch.setattr(DiscordWebSocket, "from_client", classmethod(held))
    try:
        for session in list(fake._sessions):
            await session.ws.close(code=4000, message=b"going away")
        for _ in range(100):
            status, text = await _get(bot, "/readyz")
            if status == 503:
                break
            await asyncio.sleep(0.05)
        assert status == 503 and "gateway: disconnected" in text and "database: ok" in text
        _, samples = await scrape(bot)
        assert value(samples, "swissbot_gateway_connected") == 0
    finally:
        reconnect.set()  # a failed assertion must not leave the bot hanging at teardown
        monkeypatch.undo()
    await bot.wait_until_ready()
    for _ in range(100):
        status, text = await _get(bot, "/readyz")
        if status == 200:
            break
        await asyncio.sleep(0.05)
    assert status == 200, text


async def test_a_swissbot_run_process_logs_json_and_serves_its_metrics(tmp_path: Path) -> None:
    """``swissbot run`` as an operator starts it: JSON logs (every line one object, the token
    nowhere) and the metrics port, scraped while players join."""
    with socket.socket() as probe:  # a free port for the process
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = tmp_path / "bot.log"
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Json Club", players=3)
        club = Club(fake, guild)
        env = bot_env(fake, tmp_path / "bot.sqlite3", SWISSBOT_LOG_FORMAT="json",
                      SWISSBOT_LOG_LEVEL="INFO", SWISSBOT_METRICS_PORT=str(port),
                      SWISSBOT_DELIVERY_INTERVAL="0.1")
        process = await start_process(env, tmp_path, log)
        try:
            await wait_until(lambda: fake.connected > 0 and guild.id in fake.guild_commands,
                             90, "the bot connected and synced its commands")
            base = f"http://127.0.0.1:{port}"
            async with aiohttp.ClientSession() as http:
                ready: list[int] = []

                async def readyz() -> None:
                    async with http.get(f"{base}/readyz") as response:
                        ready.append(response.status)

                for _ in range(200):  # ready once discord.py has received READY and the guilds
                    await readyz()
                    if ready[-1] == 200:
                        break
                    await asyncio.sleep(0.1)
                assert ready[-1] == 200, ready
                await club.run(club.owner, "tournament create", name="Json Open", rounds=1)
                for player in club.players:
                    assert "joined" in (await club.run(player, "join"))["content"]
                async with http.get(f"{base}/metrics") as response:
                    text = await response.text()
        finally:
            await stop_process(process)
    assert 'swissbot_commands_total{code="",command="join",outcome="ok"} 3.0' in text
    lines = log.read_text(encoding="utf-8").splitlines()
    entries = [json.loads(line) for line in lines]  # every line is one JSON object
    assert {"time", "level", "logger", "message"} <= set(entries[0])
    assert any(e["message"].startswith("connected as") for e in entries)
    assert any(e["message"].startswith("metrics served on") for e in entries)
    assert fake.token not in log.read_text(encoding="utf-8")


async def test_a_taken_metrics_port_stops_the_start_with_one_clear_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        async with FakeDiscord() as fake:
            fake.add_guild("Busy Club", players=1)
            env = bot_env(fake, tmp_path / "bot.sqlite3", SWISSBOT_METRICS_PORT=str(port))
            log = tmp_path / "bot.log"
            process = await start_process(env, tmp_path, log)
            try:
                code = await asyncio.wait_for(process.wait(), 90)
            finally:
                await stop_process(process)
    text = log.read_text(encoding="utf-8")
    assert code == 3, text
    assert f"swissbot: cannot listen on 127.0.0.1:{port} (SWISSBOT_METRICS_PORT)" in text
    assert "Traceback" not in text
