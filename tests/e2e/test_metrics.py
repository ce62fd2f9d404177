"""An operator watches a real event: the bot (the real discord.py client against the sandbox)
serves Prometheus metrics on SWISSBOT_METRICS_PORT; a scrape before and after the commands
shows the counters move as the commands did, and no user data."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import pytest
from discord.gateway import DiscordWebSocket
from prometheus_client.parser import text_string_to_metric_families

from tests.e2e.fixtures import Club

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

    reconnect.set()
    monkeypatch.undo()
    await bot.wait_until_ready()
    for _ in range(100):
        status, text = await _get(bot, "/readyz")
        if status == 200:
            break
        await asyncio.sleep(0.05)
    assert status == 200, text
