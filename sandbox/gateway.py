"""The gateway websocket: hello, heartbeat, identify (READY and GUILD_CREATE for every guild),
resume (refused: sessions do not survive here), member chunks, and event dispatch."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

HEARTBEAT_INTERVAL_MS = 41_250  # long, so discord.py's keep-alive thread never fires mid-test


@dataclass
class _Session:
    ws: web.WebSocketResponse
    seq: int = 0
    identified: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, payload: dict[str, Any]) -> None:
        async with self.lock:
            if payload.get("op") == 0:
                self.seq += 1
                payload["s"] = self.seq
            await self.ws.send_str(json.dumps(payload))


class GatewayMixin:
    """The gateway side of :class:`sandbox.FakeDiscord`."""

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway event to every identified connection."""
        for session in list(self._sessions):
            if session.identified and not session.ws.closed:
                await session.send({"op": 0, "t": event, "d": data})

    @property
    def connected(self) -> int:
        return sum(1 for s in self._sessions if s.identified and not s.ws.closed)

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session = _Session(ws)
        self._sessions.append(session)
        self.gateway_queries.append(dict(request.query))
        await session.send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                await self._gateway_op(session, json.loads(msg.data))
        finally:
            session.identified = False
            self._sessions.remove(session)
        return ws

    async def _gateway_op(self, session: _Session, payload: dict[str, Any]) -> None:
        op, data = payload.get("op"), payload.get("d")
        if op == 1:  # heartbeat
            self.heartbeats.append(asyncio.get_running_loop().time())
            await session.send({"op": 11})
        elif op == 2:  # identify
            self.identifies.append(data)
            token = str(data.get("token", "")).removeprefix("Bot ")
            if token != self.token:
                await session.ws.close(code=4004, message=b"Authentication failed.")
                return
            session.identified = True
            ready = {
                "v": 10,
                "user": self.bot_user.payload(),
                "guilds": [{"id": str(g), "unavailable": True} for g in self.guilds],
                "session_id": f"sandbox-{self.snowflake()}",
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": 0},
            }
            if "shard" in data:
                ready["shard"] = data["shard"]
            await session.send({"op": 0, "t": "READY", "d": ready})
            for guild in self.guilds.values():
                await session.send({"op": 0, "t": "GUILD_CREATE", "d": guild.payload()})
        elif op == 6:  # resume: sessions do not survive here; ask for a fresh identify
            await session.send({"op": 9, "d": False})
        elif op == 8:  # request guild members
            guild = self.guilds.get(int(data["guild_id"]))
            if guild is not None:
                chunk = {
                    "guild_id": str(guild.id),
                    "members": [m.payload() for m in guild.members.values()],
                    "chunk_index": 0,
                    "chunk_count": 1,
                    "nonce": data.get("nonce"),
                }
                await session.send({"op": 0, "t": "GUILD_MEMBERS_CHUNK", "d": chunk})
