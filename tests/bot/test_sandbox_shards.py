"""The sandbox's sharded gateway (issue 17), spoken to directly: GET /gateway/bot, IDENTIFY
with [id, count], READY and events per shard, and Discord's close codes."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

from sandbox import FakeDiscord


async def _identify(fake: FakeDiscord, http: aiohttp.ClientSession,
                    shard: Any = None) -> aiohttp.ClientWebSocketResponse:
    ws = await http.ws_connect(fake.gateway_url)
    hello = json.loads((await ws.receive()).data)
    assert hello["op"] == 10
    data: dict[str, Any] = {"token": f"Bot {fake.token}", "intents": 1, "properties": {}}
    if shard is not None:
        data["shard"] = shard
    await ws.send_str(json.dumps({"op": 2, "d": data}))
    return ws


async def _events(ws: aiohttp.ClientWebSocketResponse, count: int) -> list[dict[str, Any]]:
    return [json.loads((await ws.receive(timeout=5)).data) for _ in range(count)]


async def test_gateway_bot_recommends_the_shard_count() -> None:
    async with FakeDiscord(shards=4) as fake, aiohttp.ClientSession() as http, http.get(
        f"{fake.api_base}/gateway/bot", headers={"Authorization": f"Bot {fake.token}"}
    ) as response:
        body = await response.json()
    assert body["shards"] == 4 and body["url"] == fake.gateway_url
    assert body["session_start_limit"]["max_concurrency"] >= 1


async def test_each_shard_gets_its_guilds_and_their_events_only() -> None:
    async with FakeDiscord(shards=2) as fake, aiohttp.ClientSession() as http:
        zero, one = fake.add_guild("Zero", shard=0), fake.add_guild("One", shard=1)
        ws0 = await _identify(fake, http, [0, 2])
        ready0, create0 = await _events(ws0, 2)
        ws1 = await _identify(fake, http, [1, 2])
        ready1, create1 = await _events(ws1, 2)
        assert ready0["d"]["guilds"] == [{"id": str(zero.id), "unavailable": True}]
        assert ready0["d"]["shard"] == [0, 2] and create0["d"]["id"] == str(zero.id)
        assert ready1["d"]["guilds"] == [{"id": str(one.id), "unavailable": True}]
        assert create1["d"]["id"] == str(one.id)
        # A change in guild One reaches shard 1 only.
        await fake.set_role_permissions(one, one.role("Organisers"), 8)
        (update,) = await _events(ws1, 1)
        assert update["t"] == "GUILD_ROLE_UPDATE" and update["d"]["guild_id"] == str(one.id)
        assert fake.dispatched == [(1, "GUILD_ROLE_UPDATE", one.id)]
        await ws0.close()
        await ws1.close()


async def test_discords_close_codes_for_bad_sharding() -> None:
    async with FakeDiscord(shards=4) as fake, aiohttp.ClientSession() as http:
        for shard, code in ((None, 4011), ([0, 2], 4011), ([4, 4], 4010), ([0, "x"], 4010)):
            ws = await _identify(fake, http, shard)
            message = await ws.receive(timeout=5)
            assert message.type == aiohttp.WSMsgType.CLOSE and message.data == code, shard
            await ws.close()
        assert fake.connected == 0


async def test_add_guild_on_a_shard() -> None:
    async with FakeDiscord(shards=3) as fake:
        guilds = [fake.add_guild(f"G{i}", shard=i % 3) for i in range(9)]
    assert [(g.id >> 22) % 3 for g in guilds] == [i % 3 for i in range(9)]
    assert len({g.id for g in guilds}) == 9
