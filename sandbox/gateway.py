"""The gateway websocket: hello, heartbeat, identify (READY and GUILD_CREATE for every guild
of the connection's shard), resume (refused: sessions do not survive here), member chunks, and
event dispatch.

Sharding as Discord does it: an IDENTIFY may carry ``shard: [id, count]``; guild ``g`` then
belongs to shard ``(g >> 22) % count``, its READY lists only its guilds, and a guild's events
(its slash commands included) go only to the connection of its shard. Events of no guild (DMs)
go to shard 0. A connection without ``shard`` is shard 0 of 1 and gets everything."""

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
    shard: tuple[int, int] = (0, 1)  # (id, count) from IDENTIFY
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def carries(self, guild_id: int | None) -> bool:
        """True when this connection's shard carries the events of ``guild_id``."""
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % count == shard_id

    async def send(self, payload: dict[str, Any]) -> None:
        async with self.lock:
            if payload.get("op") == 0:
                self.seq += 1
                payload["s"] = self.seq
            await self.ws.send_str(json.dumps(payload))


class GatewayMixin:
    """The gateway side of :class:`sandbox.FakeDiscord`."""

    shard_count: int
    dispatched: list[tuple[int, str, int | None]]
    _sessions: list[_Session]

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway event to every identified connection of the shard that carries its
        guild (every connection when the bot does not shard)."""
        guild_id = _guild_of(event, data)
        for session in list(self._sessions):
            if session.identified and not session.ws.closed and session.carries(guild_id):
                await session.send({"op": 0, "t": event, "d": data})
                self.dispatched.append((session.shard[0], event, guild_id))

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
            shard = data.get("shard")
            if shard is not None:
                valid = (isinstance(shard, list) and len(shard) == 2
                         and all(isinstance(x, int) for x in shard) and 0 <= shard[0] < shard[1])
                if not valid:
                    await session.ws.close(code=4010, message=b"Invalid shard.")
                    return
                if shard[1] < self.shard_count:  # Discord: too many guilds for so few shards
                    await session.ws.close(code=4011, message=b"Sharding required.")
                    return
                session.shard = (shard[0], shard[1])
            elif self.shard_count > 1:
                await session.ws.close(code=4011, message=b"Sharding required.")
                return
            session.identified = True
            mine = [g for g in self.guilds.values() if session.carries(g.id)]
            ready = {
                "v": 10,
                "user": self.bot_user.payload(),
                "guilds": [{"id": str(g.id), "unavailable": True} for g in mine],
                "session_id": f"sandbox-{self.snowflake()}",
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": 0},
            }
            if "shard" in data:
                ready["shard"] = data["shard"]
            await session.send({"op": 0, "t": "READY", "d": ready})
            for guild in mine:
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


def _guild_of(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to (None: a DM or a global event)."""
    if event.startswith("GUILD_") and "guild_id" not in data and "id" in data:
        return int(data["id"])  # GUILD_CREATE / GUILD_UPDATE carry the guild itself
    guild_id = data.get("guild_id")
    return None if guild_id is None else int(guild_id)
