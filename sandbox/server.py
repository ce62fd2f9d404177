"""A local stand-in for Discord: REST (API v10) and the gateway websocket on 127.0.0.1.

The real, unmodified discord.py client talks to it once ``discord.http.Route.BASE`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` point here (see :mod:`bot.client`).
It keeps a small world (guilds, roles, channels, members, messages), records every request,
and can inject slash commands, autocomplete requests and button clicks as a user would.

Only the routes swissbot uses are implemented; any other route is recorded in
:attr:`FakeDiscord.unhandled` and answered with Discord's 404 body, so a test can assert that
nothing unexpected was called.

The server is assembled from one mixin per responsibility: :mod:`sandbox.world` (the world and
the waits), :mod:`sandbox.messages`, :mod:`sandbox.gateway`, :mod:`sandbox.interactions` (the
user-side driver), :mod:`sandbox.rest` (routes and handlers); :mod:`sandbox.limits` holds
Discord's size limits and :mod:`sandbox.wire` the shared constants and shapes.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from aiohttp import web

from sandbox.console.routes import PREFIX as CONSOLE_PREFIX
from sandbox.console.routes import Console
from sandbox.gateway import HEARTBEAT_INTERVAL_MS, GatewayMixin, _Session
from sandbox.interactions import InteractionRecord, InteractionsMixin, find_button
from sandbox.limits import MAX_CONTENT, MAX_EMBED_TOTAL, MAX_FIELD_VALUE, MAX_FIELDS
from sandbox.messages import MessagesMixin
from sandbox.payloads import SandboxGuild, SandboxUser, SnowflakeFactory
from sandbox.rest import RestMixin
from sandbox.wire import (
    API_PREFIX,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    EPHEMERAL,
    LOADING,
    MESSAGE_COMPONENT,
    OPT_SUB_COMMAND,
    OPT_SUB_COMMAND_GROUP,
    Attachment,
    RecordedRequest,
    SandboxError,
)
from sandbox.world import MessageListener, WorldMixin, _Failure

# Re-exported: these names were importable from sandbox.server before the split.
__all__ = [
    "API_PREFIX",
    "APPLICATION_COMMAND",
    "AUTOCOMPLETE",
    "EPHEMERAL",
    "HEARTBEAT_INTERVAL_MS",
    "LOADING",
    "MAX_CONTENT",
    "MAX_EMBED_TOTAL",
    "MAX_FIELDS",
    "MAX_FIELD_VALUE",
    "MESSAGE_COMPONENT",
    "OPT_SUB_COMMAND",
    "OPT_SUB_COMMAND_GROUP",
    "Attachment",
    "FakeDiscord",
    "InteractionRecord",
    "RecordedRequest",
    "SandboxError",
    "find_button",
]


class FakeDiscord(WorldMixin, MessagesMixin, GatewayMixin, InteractionsMixin, RestMixin):
    """The sandbox server. Use ``async with FakeDiscord() as fake:`` or ``start()``/``stop()``."""

    def __init__(
        self,
        *,
        token: str = "sandbox-token",
        bot_name: str = "swissbot",
        host: str = "127.0.0.1",
        port: int = 0,
        shards: int = 1,
        heartbeat_interval_ms: int = HEARTBEAT_INTERVAL_MS,
    ) -> None:
        if shards < 1:
            raise ValueError("shards must be at least 1")
        self.token = token
        # What GET /gateway/bot recommends; a bot that identifies with fewer shards (or none
        # when this is above 1) is refused with 4011, as Discord does.
        self.shard_count = shards
        self.dispatched: list[tuple[int, str, int | None]] = []  # (shard, event, guild)
        # The interval the gateway asks for: benchmarks shorten it to see a stalled client's
        # gap between heartbeats (``heartbeats`` holds when each one arrived, loop time).
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.heartbeats: list[float] = []
        self.host = host
        self._port = port
        self.snowflake = SnowflakeFactory()
        self.owner = SandboxUser(self.snowflake(), "sandbox-owner", "Sandbox Owner")
        self.bot_user = SandboxUser(self.snowflake(), bot_name, None, bot=True)
        self.application_id = self.bot_user.id
        self.guilds: dict[int, SandboxGuild] = {}
        self.messages: dict[int, dict[str, Any]] = {}
        self.attachment_bytes: dict[str, bytes] = {}
        self.requests: list[RecordedRequest] = []
        self.unhandled: list[RecordedRequest] = []
        self.identifies: list[dict[str, Any]] = []
        self.gateway_queries: list[dict[str, str]] = []
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.interactions: dict[str, InteractionRecord] = {}  # by token
        self.listeners: list[MessageListener] = []
        self.dm_channels: dict[int, int] = {}
        self.closed_dms: set[int] = set()
        self.deduplicated = 0  # messages not posted again thanks to enforce_nonce
        # Seconds between storing a posted message and answering the bot: a process killed
        # then has posted without knowing it (the kill test aims at that moment).
        self.post_delay = 0.0
        self.posts_in_flight = 0
        # While true, the bot's interaction callbacks wait (a slow network, or a bot about to
        # be killed between doing a command and answering it); see ``expire_interaction``.
        self.hold_callbacks = False
        self._failures: list[_Failure] = []
        self._sessions: list[_Session] = []
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self._console = Console(self)
        self._site: web.TCPSite | None = None

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self._gateway)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        app.router.add_get("/uploads/{attachment_id}/{filename}", self._upload)
        self._console.stopping = False
        self._console.register(app)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        self._site = web.TCPSite(self._runner, self.host, self._port)
        await self._site.start()
        server = self._site._server
        assert server is not None and server.sockets  # type: ignore[union-attr]
        self._port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def _upload(self, request: web.Request) -> web.Response:
        """A file a member attached to a command, as Discord's CDN serves it."""
        content = self.attachment_bytes.get(request.match_info["attachment_id"])
        if content is None:
            return web.Response(status=404)
        return web.Response(body=content, content_type="application/octet-stream")

    async def stop(self) -> None:
        self._console.stopping = True
        for session in list(self._sessions):
            with contextlib.suppress(Exception):
                await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def port(self) -> int:
        return self._port

    @property
    def api_base(self) -> str:
        return f"http://{self.host}:{self._port}{API_PREFIX}"

    def sessions_of(self, shard_id: int) -> int:
        """How many identified connections run shard ``shard_id``."""
        return sum(1 for s in self._sessions
                   if s.identified and not s.ws.closed and s.shard[0] == shard_id)

    @property
    def console_url(self) -> str:
        """The web console: a person types commands and clicks buttons there."""
        return f"http://{self.host}:{self._port}{CONSOLE_PREFIX}/"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self._port}/"
