"""A local stand-in for Discord: REST (API v10) and the gateway websocket on 127.0.0.1.

The real, unmodified discord.py client talks to it once ``discord.http.Route.BASE`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` point here (see :mod:`bot.client`).
It keeps a small world (guilds, roles, channels, members, messages), records every request,
and can inject slash commands, autocomplete requests and button clicks as a user would.

Only the routes swissbot uses are implemented; any other route is recorded in
:attr:`FakeDiscord.unhandled` and answered with Discord's 404 body, so a test can assert that
nothing unexpected was called.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from sandbox.payloads import (
    EVERYONE_PERMISSIONS,
    SandboxChannel,
    SandboxGuild,
    SandboxMember,
    SandboxRole,
    SandboxUser,
    SnowflakeFactory,
    application_payload,
    iso_now,
)

log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"
HEARTBEAT_INTERVAL_MS = 41_250  # long, so discord.py's keep-alive thread never fires mid-test
EPHEMERAL = 1 << 6
LOADING = 1 << 7

# Interaction types and callback types (Discord API).
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
CB_MESSAGE = 4
CB_DEFERRED_MESSAGE = 5
CB_DEFERRED_UPDATE = 6
CB_UPDATE_MESSAGE = 7
CB_AUTOCOMPLETE = 8

# Application command option types.
OPT_SUB_COMMAND = 1
OPT_SUB_COMMAND_GROUP = 2
OPT_STRING = 3
OPT_INTEGER = 4
OPT_BOOLEAN = 5
OPT_USER = 6
OPT_CHANNEL = 7
OPT_ROLE = 8
OPT_MENTIONABLE = 9
OPT_NUMBER = 10

MessageListener = Callable[[str, dict[str, Any]], None]


@dataclass
class Attachment:
    filename: str
    content: bytes


@dataclass
class RecordedRequest:
    """One REST request as the bot sent it, and what the sandbox answered."""

    kind: str
    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    files: list[Attachment]
    status: int
    response: Any
    headers: dict[str, str]


@dataclass
class InteractionRecord:
    """What the sandbox remembers about an interaction it sent, to route the bot's answers."""

    payload: dict[str, Any]
    channel_id: int
    member: SandboxMember
    original_message_id: int | None = None
    callback_type: int | None = None
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    answer: dict[str, Any] | None = None  # the final visible message or the autocomplete body


@dataclass
class _Failure:
    kind: str
    status: int
    times: int
    retry_after: float


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


class SandboxError(Exception):
    """A test or demo asked the sandbox for something that cannot happen on Discord."""


def _json(data: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> web.Response:
    # discord.py decodes JSON only when the Content-Type is exactly "application/json".
    all_headers = {"Content-Type": "application/json", "Via": "1.1 sandbox"}
    all_headers.update(headers or {})
    return web.Response(body=json.dumps(data).encode(), status=status, headers=all_headers)


def _error(status: int, code: int, message: str) -> web.Response:
    return _json({"code": code, "message": message}, status=status)


class FakeDiscord:
    """The sandbox server. Use ``async with FakeDiscord() as fake:`` or ``start()``/``stop()``."""

    def __init__(
        self,
        *,
        token: str = "sandbox-token",
        bot_name: str = "swissbot",
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.token = token
        self.host = host
        self._port = port
        self.snowflake = SnowflakeFactory()
        self.owner = SandboxUser(self.snowflake(), "sandbox-owner", "Sandbox Owner")
        self.bot_user = SandboxUser(self.snowflake(), bot_name, None, bot=True)
        self.application_id = self.bot_user.id
        self.guilds: dict[int, SandboxGuild] = {}
        self.messages: dict[int, dict[str, Any]] = {}
        self.requests: list[RecordedRequest] = []
        self.unhandled: list[RecordedRequest] = []
        self.identifies: list[dict[str, Any]] = []
        self.gateway_queries: list[dict[str, str]] = []
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.interactions: dict[str, InteractionRecord] = {}  # by token
        self.listeners: list[MessageListener] = []
        self.deduplicated = 0  # messages not posted again thanks to enforce_nonce
        self._failures: list[_Failure] = []
        self._sessions: list[_Session] = []
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self._gateway)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        self._site = web.TCPSite(self._runner, self.host, self._port)
        await self._site.start()
        server = self._site._server
        assert server is not None and server.sockets  # type: ignore[union-attr]
        self._port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
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

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self._port}/"

    # ------------------------------------------------------------------ the world

    def add_guild(
        self,
        name: str = "Sandbox Chess Club",
        *,
        players: int = 0,
        channels: Iterable[str] = ("general", "tournaments"),
        organiser_role: str = "Organisers",
    ) -> SandboxGuild:
        """A guild with @everyone, an organiser role, text channels, the bot, the owner and
        ``players`` members named ``player01``, ``player02``, ..."""
        guild_id = self.snowflake()
        guild = SandboxGuild(guild_id, name, owner_id=self.owner.id)
        guild.roles[guild_id] = SandboxRole(guild_id, "@everyone", EVERYONE_PERMISSIONS, 0)
        self.add_role(guild, organiser_role)
        bot_role = self.add_role(guild, self.bot_user.username, managed=True)
        for channel_name in channels:
            self.add_channel(guild, channel_name)
        guild.members[self.bot_user.id] = SandboxMember(self.bot_user, guild_id, [bot_role.id])
        guild.members[self.owner.id] = SandboxMember(self.owner, guild_id)
        for index in range(1, players + 1):
            self.add_member(guild, f"player{index:02d}")
        self.guilds[guild_id] = guild
        return guild

    def add_role(
        self, guild: SandboxGuild, name: str, permissions: int = 0, *, managed: bool = False
    ) -> SandboxRole:
        role = SandboxRole(self.snowflake(), name, permissions, len(guild.roles), managed)
        guild.roles[role.id] = role
        return role

    def add_channel(self, guild: SandboxGuild, name: str) -> SandboxChannel:
        channel = SandboxChannel(self.snowflake(), guild.id, name, len(guild.channels))
        guild.channels[channel.id] = channel
        return channel

    def add_member(
        self,
        guild: SandboxGuild,
        username: str,
        *,
        display_name: str | None = None,
        roles: Iterable[SandboxRole] = (),
    ) -> SandboxMember:
        user = SandboxUser(self.snowflake(), username, display_name)
        member = SandboxMember(user, guild.id, [r.id for r in roles])
        guild.members[user.id] = member
        return member

    def players(self, guild: SandboxGuild) -> list[SandboxMember]:
        """The guild's members other than the bot and the owner, in joining order."""
        return [
            m for m in guild.members.values() if m.id not in (self.bot_user.id, guild.owner_id)
        ]

    def owner_member(self, guild: SandboxGuild) -> SandboxMember:
        return guild.members[guild.owner_id]

    def messages_in(self, channel: SandboxChannel | int) -> list[dict[str, Any]]:
        channel_id = channel if isinstance(channel, int) else channel.id
        for guild in self.guilds.values():
            if channel_id in guild.channels:
                return guild.channels[channel_id].messages
        raise SandboxError(f"unknown channel {channel_id}")

    def _find_channel(self, channel_id: int) -> SandboxChannel | None:
        for guild in self.guilds.values():
            if channel_id in guild.channels:
                return guild.channels[channel_id]
        return None

    # ------------------------------------------------------------------ recording and waiting

    def fail_next(
        self, kind: str, status: int, *, times: int = 1, retry_after: float = 0.01
    ) -> None:
        """Answer the next ``times`` requests of ``kind`` with ``status`` (429 carries
        ``retry_after``), to exercise the bot's retry paths."""
        self._failures.append(_Failure(kind, status, times, retry_after))

    async def wait_for_request(
        self, predicate: Callable[[RecordedRequest], bool], timeout: float = 5.0
    ) -> RecordedRequest:
        """The first recorded request matching ``predicate``, waiting for it if needed."""

        def find() -> RecordedRequest | None:
            return next((r for r in self.requests if predicate(r)), None)

        return await self._wait(find, timeout, "request")

    async def wait_for_message(
        self,
        predicate: Callable[[dict[str, Any]], bool],
        timeout: float = 5.0,
    ) -> dict[str, Any]:
        """The first message (in any channel, ephemeral ones included) matching ``predicate``."""

        def find() -> dict[str, Any] | None:
            return next((m for m in self.messages.values() if predicate(m)), None)

        return await self._wait(find, timeout, "message")

    async def reply(self, interaction: dict[str, Any], timeout: float = 5.0) -> dict[str, Any]:
        """The bot's visible answer to ``interaction``: the reply message (after a defer, the
        follow-up or edit that replaced the "thinking" state) or the autocomplete body."""
        record = self.interactions[interaction["token"]]
        try:
            await asyncio.wait_for(record.answered.wait(), timeout)
        except TimeoutError:
            raise SandboxError(
                f"the bot did not answer interaction {_describe(interaction)} in {timeout}s"
            ) from None
        assert record.answer is not None
        return record.answer

    async def _wait(self, find: Callable[[], Any], timeout: float, what: str) -> Any:
        async with self._changed:
            try:
                await asyncio.wait_for(self._changed.wait_for(lambda: find() is not None), timeout)
            except TimeoutError:
                raise SandboxError(f"no matching {what} within {timeout}s") from None
            return find()

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    def _emit(self, event: str, message: dict[str, Any]) -> None:
        for listener in list(self.listeners):
            try:
                listener(event, message)
            except Exception:  # a broken printer must not break the sandbox
                log.exception("sandbox message listener failed")

    # ------------------------------------------------------------------ gateway

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
        await session.send({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
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

    # ------------------------------------------------------------------ interactions

    def _interaction_base(
        self, type_: int, guild: SandboxGuild, channel: SandboxChannel, member: SandboxMember
    ) -> dict[str, Any]:
        permissions = guild.permissions_of(member)
        token = f"itoken-{self.snowflake()}"
        channel_payload = channel.payload()
        channel_payload["permissions"] = str(permissions)
        return {
            "id": str(self.snowflake()),
            "application_id": str(self.application_id),
            "type": type_,
            "token": token,
            "version": 1,
            "attachment_size_limit": 25 * 1024 * 1024,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
            "channel_id": str(channel.id),
            "channel": channel_payload,
            "member": member.payload(permissions=permissions),
            "locale": "en-US",
            "guild_locale": "en-US",
            "app_permissions": str(guild.permissions_of(guild.members[self.bot_user.id])),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
        }

    async def _send_interaction(
        self, payload: dict[str, Any], channel: SandboxChannel, member: SandboxMember
    ) -> dict[str, Any]:
        if not self.connected:
            raise SandboxError("no bot is connected to the sandbox gateway")
        self.interactions[payload["token"]] = InteractionRecord(payload, channel.id, member)
        self._emit("interaction", payload)
        await self.dispatch("INTERACTION_CREATE", payload)
        return payload

    async def send_slash_command(
        self,
        guild: SandboxGuild,
        channel: SandboxChannel,
        member: SandboxMember,
        command: str,
        options: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Run ``/command`` as ``member`` in ``channel``. ``command`` may name a subcommand
        ("tournament create"); ``options`` maps option names to plain values or sandbox
        objects (members, channels, roles). Option types come from the synced schema."""
        payload = self._interaction_base(APPLICATION_COMMAND, guild, channel, member)
        payload["data"] = self._command_data(guild, command, options or {}, focused=None)
        return await self._send_interaction(payload, channel, member)

    async def send_autocomplete(
        self,
        guild: SandboxGuild,
        channel: SandboxChannel,
        member: SandboxMember,
        command: str,
        focused: str,
        options: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Ask the bot for autocomplete choices of option ``focused`` (its partial value is
        ``options[focused]``, default empty)."""
        values = dict(options or {})
        values.setdefault(focused, "")
        payload = self._interaction_base(AUTOCOMPLETE, guild, channel, member)
        payload["data"] = self._command_data(guild, command, values, focused=focused)
        return await self._send_interaction(payload, channel, member)

    async def click_button(
        self,
        message: dict[str, Any],
        member: SandboxMember,
        *,
        label: str | None = None,
        custom_id: str | None = None,
    ) -> dict[str, Any]:
        """Click a button (found by ``label`` or ``custom_id``) on ``message`` as ``member``."""
        button = find_button(message, label=label, custom_id=custom_id)
        if button.get("disabled"):
            raise SandboxError(f"button {button.get('label')!r} is disabled")
        channel = self._find_channel(int(message["channel_id"]))
        if channel is None:
            raise SandboxError("the message is not in a guild channel of the sandbox")
        guild = self.guilds[channel.guild_id]
        payload = self._interaction_base(MESSAGE_COMPONENT, guild, channel, member)
        payload["message"] = self.messages.get(int(message["id"]), message)
        payload["data"] = {"custom_id": button["custom_id"], "component_type": 2}
        sent = await self._send_interaction(payload, channel, member)
        self.interactions[payload["token"]].original_message_id = int(message["id"])
        return sent

    def _registered(self, guild: SandboxGuild, name: str) -> dict[str, Any] | None:
        for cmd in self.guild_commands.get(guild.id, []) + self.global_commands:
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd
        return None

    def _command_data(
        self,
        guild: SandboxGuild,
        command: str,
        options: Mapping[str, Any],
        focused: str | None,
    ) -> dict[str, Any]:
        path = command.strip().lstrip("/").split()
        if not path:
            raise SandboxError("empty command name")
        root = self._registered(guild, path[0])
        schema: dict[str, Any] | None = root
        resolved: dict[str, dict[str, Any]] = {}
        leaf_options = []
        for name, value in options.items():
            opt_schema = None
            if schema is not None:
                opt_schema = _walk(schema, path[1:])
                if opt_schema is None:
                    raise SandboxError(f"/{command} is not a registered command")
                opt_schema = next(
                    (o for o in opt_schema.get("options", []) if o["name"] == name), None
                )
                if opt_schema is None:
                    raise SandboxError(f"/{command} has no option {name!r}")
            option = self._option(name, value, opt_schema, guild, resolved)
            if name == focused:
                option["focused"] = True
            leaf_options.append(option)
        if root is not None and _walk(root, path[1:]) is None:
            raise SandboxError(f"/{command} is not a registered command")
        nested: list[dict[str, Any]] = leaf_options
        for depth in range(len(path) - 1, 0, -1):
            kind = OPT_SUB_COMMAND if depth == len(path) - 1 else OPT_SUB_COMMAND_GROUP
            nested = [{"name": path[depth], "type": kind, "options": nested}]
        data: dict[str, Any] = {"name": path[0], "type": 1, "options": nested}
        if root is not None:
            data["id"] = root["id"]
            if root.get("guild_id"):
                data["guild_id"] = root["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def _option(
        self,
        name: str,
        value: Any,
        schema: dict[str, Any] | None,
        guild: SandboxGuild,
        resolved: dict[str, dict[str, Any]],
    ) -> dict[str, Any]:
        if isinstance(value, SandboxMember):
            resolved.setdefault("users", {})[str(value.id)] = value.user.payload()
            resolved.setdefault("members", {})[str(value.id)] = value.payload(
                with_user=False, permissions=guild.permissions_of(value)
            )
            type_ = OPT_USER
            raw: Any = str(value.id)
        elif isinstance(value, SandboxChannel):
            channel = value.payload()
            channel["permissions"] = str(EVERYONE_PERMISSIONS)
            resolved.setdefault("channels", {})[str(value.id)] = channel
            type_, raw = OPT_CHANNEL, str(value.id)
        elif isinstance(value, SandboxRole):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            type_, raw = OPT_ROLE, str(value.id)
        elif isinstance(value, bool):
            type_, raw = OPT_BOOLEAN, value
        elif isinstance(value, int):
            type_, raw = OPT_INTEGER, value
        elif isinstance(value, float):
            type_, raw = OPT_NUMBER, value
        else:
            type_, raw = OPT_STRING, str(value)
        if schema is not None:
            declared = schema["type"]
            if declared == OPT_MENTIONABLE and type_ in (OPT_USER, OPT_ROLE):
                type_ = OPT_MENTIONABLE
            elif declared == OPT_NUMBER and type_ == OPT_INTEGER:
                type_ = OPT_NUMBER
            elif declared == OPT_STRING and type_ in (OPT_INTEGER, OPT_NUMBER):
                type_, raw = OPT_STRING, str(raw)
            if declared != type_:
                raise SandboxError(
                    f"option {name!r} expects type {declared}, got {value!r} (type {type_})"
                )
        return {"name": name, "type": type_, "value": raw}

    # ------------------------------------------------------------------ REST

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        parts = [p for p in request.match_info["tail"].split("/") if p]
        body, files = await _read_body(request)
        kind, params, handler = self._route(request.method, parts)
        authorized = request.headers.get("Authorization") == f"Bot {self.token}"
        if kind in _NEEDS_AUTH and not authorized:
            status, response = 401, {"code": 0, "message": "401: Unauthorized"}
            reply = _json(response, status)
        elif (failure := self._take_failure(kind)) is not None:
            status = failure.status
            if status == 429:
                response = {
                    "message": "You are being rate limited.",
                    "retry_after": failure.retry_after,
                    "global": False,
                }
                reply = _json(response, 429, {"Retry-After": str(failure.retry_after)})
            else:
                response = {"code": 0, "message": f"{status}: injected failure"}
                reply = _json(response, status)
        elif handler is None:
            status, response = 404, {"code": 0, "message": "404: Not Found"}
            reply = _json(response, status)
        else:
            try:
                status, response = await handler(params, body, files, request)
            except _ApiError as exc:
                status, response = exc.status, {"code": exc.code, "message": exc.message}
            reply = (
                web.Response(status=204) if status == 204 else _json(response, status)
            )
        record = RecordedRequest(
            kind=kind if handler is not None else "unhandled",
            method=request.method,
            path="/" + "/".join(parts),
            params=params,
            query=dict(request.query),
            body=body,
            files=files,
            status=status,
            response=response,
            headers=dict(request.headers),
        )
        self.requests.append(record)
        if handler is None:
            self.unhandled.append(record)
        await self._notify()
        return reply

    def _take_failure(self, kind: str) -> _Failure | None:
        for failure in self._failures:
            if failure.kind == kind and failure.times > 0:
                failure.times -= 1
                if failure.times == 0:
                    self._failures.remove(failure)
                return failure
        return None

    def _route(self, method: str, parts: list[str]) -> tuple[str, dict[str, str], Any]:
        match (method, parts):
            case ("GET", ["users", "@me"]):
                return "get_me", {}, self._get_me
            case ("GET", ["oauth2", "applications", "@me"]):
                return "application_info", {}, self._application_info
            case ("GET", ["gateway"]) | ("GET", ["gateway", "bot"]):
                return "gateway", {}, self._get_gateway
            case ("PUT", ["applications", app, "commands"]):
                return "sync_commands", {"application_id": app}, self._put_commands
            case ("GET", ["applications", app, "commands"]):
                return "get_commands", {"application_id": app}, self._get_commands
            case ("PUT", ["applications", app, "guilds", gid, "commands"]):
                params = {"application_id": app, "guild_id": gid}
                return "sync_commands", params, self._put_commands
            case ("GET", ["applications", app, "guilds", gid, "commands"]):
                params = {"application_id": app, "guild_id": gid}
                return "get_commands", params, self._get_commands
            case ("POST", ["interactions", iid, token, "callback"]):
                params = {"interaction_id": iid, "token": token}
                return "interaction_callback", params, self._callback
            case ("POST", ["webhooks", app, token]):
                return "followup", {"application_id": app, "token": token}, self._followup
            case ("GET" | "PATCH" | "DELETE", ["webhooks", app, token, "messages", mid]):
                params = {"application_id": app, "token": token, "message_id": mid}
                kinds = {"GET": "get_webhook_message", "PATCH": "edit_webhook_message"}
                return kinds.get(method, "delete_webhook_message"), params, self._webhook_message
            case ("GET", ["channels", cid]):
                return "get_channel", {"channel_id": cid}, self._get_channel
            case ("POST", ["channels", cid, "messages"]):
                return "create_message", {"channel_id": cid}, self._create_message
            case ("GET", ["channels", cid, "messages"]):
                return "get_messages", {"channel_id": cid}, self._get_messages
            case ("GET" | "PATCH" | "DELETE", ["channels", cid, "messages", mid]):
                params = {"channel_id": cid, "message_id": mid}
                kinds = {"GET": "get_message", "PATCH": "edit_message"}
                return kinds.get(method, "delete_message"), params, self._channel_message
            case ("GET", ["guilds", gid, "members", uid]):
                return "get_member", {"guild_id": gid, "user_id": uid}, self._get_member
        return "unhandled", {}, None

    async def _get_me(self, *_: Any) -> tuple[int, Any]:
        return 200, self.bot_user.payload()

    async def _application_info(self, *_: Any) -> tuple[int, Any]:
        return 200, application_payload(self.application_id, self.owner, self.bot_user.username)

    async def _get_gateway(self, *_: Any) -> tuple[int, Any]:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return 200, {"url": self.gateway_url, "shards": 1, "session_start_limit": limit}

    async def _put_commands(self, params: dict[str, str], body: Any, *_: Any) -> tuple[int, Any]:
        guild_id = params.get("guild_id")
        if guild_id is not None and int(guild_id) not in self.guilds:
            raise _ApiError(404, 10004, "Unknown Guild")
        stored = []
        for command in body:
            cmd = dict(command)
            cmd.update(
                id=str(self.snowflake()),
                application_id=str(self.application_id),
                version=str(self.snowflake()),
            )
            if guild_id is not None:
                cmd["guild_id"] = guild_id
            stored.append(cmd)
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[int(guild_id)] = stored
        return 200, stored

    async def _get_commands(self, params: dict[str, str], *_: Any) -> tuple[int, Any]:
        guild_id = params.get("guild_id")
        if guild_id is None:
            return 200, self.global_commands
        return 200, self.guild_commands.get(int(guild_id), [])

    async def _get_channel(self, params: dict[str, str], *_: Any) -> tuple[int, Any]:
        channel = self._find_channel(int(params["channel_id"]))
        if channel is None:
            raise _ApiError(404, 10003, "Unknown Channel")
        return 200, channel.payload()

    async def _get_member(self, params: dict[str, str], *_: Any) -> tuple[int, Any]:
        guild = self.guilds.get(int(params["guild_id"]))
        member = guild.members.get(int(params["user_id"])) if guild else None
        if member is None:
            raise _ApiError(404, 10007, "Unknown Member")
        return 200, member.payload()

    async def _create_message(
        self, params: dict[str, str], body: Any, files: list[Attachment], *_: Any
    ) -> tuple[int, Any]:
        channel = self._find_channel(int(params["channel_id"]))
        if channel is None:
            raise _ApiError(404, 10003, "Unknown Channel")
        _check_message_limits(body or {}, files)
        nonce = (body or {}).get("nonce")
        if nonce is not None and (body or {}).get("enforce_nonce"):
            # Discord returns the earlier message instead of posting a duplicate.
            for earlier in channel.messages:
                if earlier.get("nonce") == str(nonce):
                    self.deduplicated += 1
                    return 200, earlier
        message = self._new_message(channel.id, body or {}, files)
        if nonce is not None:
            message["nonce"] = str(nonce)
        await self._store(channel.id, message)
        return 200, message

    async def _get_messages(self, params: dict[str, str], *_: Any) -> tuple[int, Any]:
        channel_id = int(params["channel_id"])
        visible = [m for m in self.messages_in(channel_id) if not m["flags"] & EPHEMERAL]
        return 200, list(reversed(visible))[:50]

    async def _channel_message(
        self,
        params: dict[str, str],
        body: Any,
        files: list[Attachment],
        request: web.Request,
    ) -> tuple[int, Any]:
        message = self.messages.get(int(params["message_id"]))
        if message is None or message["channel_id"] != params["channel_id"]:
            raise _ApiError(404, 10008, "Unknown Message")
        return await self._message_op(request.method, message, body, files)

    async def _message_op(
        self, method: str, message: dict[str, Any], body: Any, files: list[Attachment]
    ) -> tuple[int, Any]:
        if method == "GET":
            return 200, message
        if method == "DELETE":
            self.messages.pop(int(message["id"]), None)
            with contextlib.suppress(SandboxError, ValueError):
                self.messages_in(int(message["channel_id"])).remove(message)
            self._emit("delete", message)
            return 204, None
        _check_message_limits(body or {}, files)
        self._apply_edit(message, body or {}, files)
        self._emit("edit", message)
        return 200, message

    async def _callback(
        self, params: dict[str, str], body: Any, files: list[Attachment], *_: Any
    ) -> tuple[int, Any]:
        record = self.interactions.get(params["token"])
        if record is None or record.payload["id"] != params["interaction_id"]:
            raise _ApiError(404, 10062, "Unknown interaction")
        if record.callback_type is not None:
            raise _ApiError(400, 40060, "Interaction has already been acknowledged.")
        cb_type = int(body["type"])
        record.callback_type = cb_type
        data = body.get("data") or {}
        message: dict[str, Any] | None = None
        loading = False
        if cb_type == CB_MESSAGE:
            _check_message_limits(data, files)
            message = self._new_message(record.channel_id, data, files, interaction=record)
            record.original_message_id = int(message["id"])
            await self._store(record.channel_id, message)
            self._answer(record, message)
        elif cb_type == CB_DEFERRED_MESSAGE:
            loading = True
            flags = LOADING | (int(data.get("flags", 0)) & EPHEMERAL)
            message = self._new_message(
                record.channel_id, {"content": "", "flags": flags}, [], interaction=record
            )
            record.original_message_id = int(message["id"])
            await self._store(record.channel_id, message)
        elif cb_type == CB_UPDATE_MESSAGE:
            target = self.messages.get(record.original_message_id or 0)
            if target is None:
                raise _ApiError(400, 10008, "Unknown Message")
            _check_message_limits(data, files)
            self._apply_edit(target, data, files)
            self._emit("edit", target)
            message = target
            self._answer(record, target)
        elif cb_type == CB_AUTOCOMPLETE:
            self._answer(record, data)
        elif cb_type == CB_DEFERRED_UPDATE:
            pass  # the answer will be an edit of the component's message, or nothing
        else:
            raise _ApiError(400, 50035, f"unsupported callback type {cb_type}")
        interaction = {
            "id": record.payload["id"],
            "type": record.payload["type"],
            "response_message_id": str(message["id"]) if message else None,
            "response_message_loading": loading,
            "response_message_ephemeral": bool(message and message["flags"] & EPHEMERAL),
        }
        resource: dict[str, Any] = {"type": cb_type}
        if message is not None:
            resource["message"] = message
        return 200, {"interaction": interaction, "resource": resource}

    async def _followup(
        self, params: dict[str, str], body: Any, files: list[Attachment], *_: Any
    ) -> tuple[int, Any]:
        record = self._webhook_record(params)
        _check_message_limits(body or {}, files)
        original = self.messages.get(record.original_message_id or 0)
        if (
            original is not None
            and original["flags"] & LOADING
            and record.callback_type == CB_DEFERRED_MESSAGE
        ):
            # Discord turns the first follow-up after a "thinking" defer into the original.
            self._apply_edit(original, body or {}, files, keep_ephemeral=True)
            original["flags"] &= ~LOADING
            self._emit("edit", original)
            self._answer(record, original)
            return 200, original
        message = self._new_message(record.channel_id, body or {}, files, interaction=record)
        await self._store(record.channel_id, message)
        self._answer(record, message)
        return 200, message

    async def _webhook_message(
        self,
        params: dict[str, str],
        body: Any,
        files: list[Attachment],
        request: web.Request,
    ) -> tuple[int, Any]:
        record = self._webhook_record(params)
        message_id = params["message_id"]
        if message_id == "@original":
            message = self.messages.get(record.original_message_id or 0)
        else:
            message = self.messages.get(int(message_id))
        if message is None:
            raise _ApiError(404, 10008, "Unknown Message")
        status, response = await self._message_op(request.method, message, body, files)
        if request.method == "PATCH":
            message["flags"] &= ~LOADING
            self._answer(record, message)
        return status, response

    def _webhook_record(self, params: dict[str, str]) -> InteractionRecord:
        record = self.interactions.get(params["token"])
        if record is None or params["application_id"] != str(self.application_id):
            raise _ApiError(404, 10015, "Unknown Webhook")
        return record

    def _answer(self, record: InteractionRecord, answer: dict[str, Any]) -> None:
        if record.answer is None:
            record.answer = answer
        record.answered.set()

    # ------------------------------------------------------------------ messages

    def _new_message(
        self,
        channel_id: int,
        body: dict[str, Any],
        files: list[Attachment],
        *,
        interaction: InteractionRecord | None = None,
    ) -> dict[str, Any]:
        channel = self._find_channel(channel_id)
        guild = self.guilds[channel.guild_id] if channel else None
        message: dict[str, Any] = {
            "id": str(self.snowflake()),
            "type": 0,
            "channel_id": str(channel_id),
            "author": self.bot_user.payload(),
            "content": "",
            "timestamp": iso_now(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "components": [],
            "pinned": False,
            "flags": 0,
        }
        if guild is not None:
            message["guild_id"] = str(guild.id)
        if interaction is not None:
            message["type"] = 20 if interaction.payload["type"] == APPLICATION_COMMAND else 19
            message["interaction_metadata"] = {
                "id": interaction.payload["id"],
                "type": interaction.payload["type"],
                "user": interaction.member.user.payload(),
                "authorizing_integration_owners": {"0": str(channel.guild_id if channel else 0)},
            }
            data = interaction.payload.get("data", {})
            if interaction.payload["type"] == APPLICATION_COMMAND:
                message["interaction_metadata"]["name"] = data.get("name")
        self._apply_edit(message, body, files, keep_ephemeral=False)
        message["edited_timestamp"] = None
        return message

    def _apply_edit(
        self,
        message: dict[str, Any],
        body: dict[str, Any],
        files: list[Attachment],
        *,
        keep_ephemeral: bool = True,
    ) -> None:
        for key in ("content", "embeds", "components"):
            if key in body and body[key] is not None:
                message[key] = body[key]
        if "flags" in body and body["flags"] is not None:
            flags = int(body["flags"])
            if keep_ephemeral:
                flags = (flags & ~EPHEMERAL) | (message["flags"] & EPHEMERAL)
            message["flags"] = flags | (message["flags"] & LOADING if keep_ephemeral else 0)
        if files or "attachments" in body:
            kept = [a for a in message.get("attachments", []) if _kept(a, body)]
            new = [
                {
                    "id": str(self.snowflake()),
                    "filename": f.filename,
                    "size": len(f.content),
                    "url": f"http://{self.host}:{self._port}/attachments/{f.filename}",
                    "proxy_url": f"http://{self.host}:{self._port}/attachments/{f.filename}",
                    "content": f.content.decode("utf-8", "replace"),  # sandbox extra
                }
                for f in files
            ]
            message["attachments"] = kept + new
        if "allowed_mentions" in body or "content" in body:
            message["allowed_mentions"] = body.get("allowed_mentions")
            self._resolve_mentions(message)
        message["edited_timestamp"] = iso_now()

    def _resolve_mentions(self, message: dict[str, Any]) -> None:
        """Who this message pings, by Discord's rules: mentions in ``content`` only, filtered
        by ``allowed_mentions`` (absent means everything in the content pings)."""
        content = message.get("content") or ""
        allowed = message.get("allowed_mentions")
        parse = {"users", "roles", "everyone"} if allowed is None else set(allowed.get("parse", []))
        users_allowed = {str(u) for u in allowed.get("users", [])} if allowed else set()
        roles_allowed = {str(r) for r in allowed.get("roles", [])} if allowed else set()
        user_ids = re.findall(r"<@!?(\d+)>", content)
        role_ids = re.findall(r"<@&(\d+)>", content)
        pinged_users = [u for u in user_ids if "users" in parse or u in users_allowed]
        pinged_roles = [r for r in role_ids if "roles" in parse or r in roles_allowed]
        everyone = "everyone" in parse and bool(re.search(r"@(everyone|here)\b", content))
        users: dict[str, dict[str, Any]] = {}
        for guild in self.guilds.values():
            for uid in pinged_users:
                member = guild.members.get(int(uid))
                if member is not None:
                    users[uid] = member.user.payload()
        message["mentions"] = list(users.values())
        message["mention_roles"] = list(dict.fromkeys(pinged_roles))
        message["mention_everyone"] = everyone

    async def _store(self, channel_id: int, message: dict[str, Any]) -> None:
        self.messages[int(message["id"])] = message
        channel = self._find_channel(channel_id)
        if channel is not None:
            channel.messages.append(message)
        self._emit("create", message)
        await self._notify()


class _ApiError(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


_NEEDS_AUTH = {
    "get_me",
    "application_info",
    "gateway",
    "sync_commands",
    "get_commands",
    "get_channel",
    "create_message",
    "get_messages",
    "get_message",
    "edit_message",
    "delete_message",
    "get_member",
}

# Discord's documented limits, enforced so the renderer's splitting is really tested.
MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048


def _check_message_limits(body: dict[str, Any], files: list[Attachment]) -> None:
    content = body.get("content") or ""
    if len(content) > MAX_CONTENT:
        raise _ApiError(400, 50035, f"content: must be {MAX_CONTENT} or fewer in length")
    embeds = body.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        raise _ApiError(400, 50035, f"embeds: must be {MAX_EMBEDS} or fewer in length")
    total = 0
    for embed in embeds:
        title = embed.get("title") or ""
        description = embed.get("description") or ""
        footer = (embed.get("footer") or {}).get("text") or ""
        fields = embed.get("fields") or []
        if len(title) > MAX_EMBED_TITLE or len(description) > MAX_EMBED_DESCRIPTION:
            raise _ApiError(400, 50035, "embeds: title or description too long")
        if len(fields) > MAX_FIELDS or len(footer) > MAX_FOOTER:
            raise _ApiError(400, 50035, "embeds: too many fields or footer too long")
        for f in fields:
            if len(f.get("name") or "") > MAX_FIELD_NAME or len(f.get("value") or "") > (
                MAX_FIELD_VALUE
            ):
                raise _ApiError(400, 50035, "embeds: field too long")
            if not f.get("name") or not f.get("value"):
                raise _ApiError(400, 50035, "embeds: field name and value are required")
            total += len(f["name"]) + len(f["value"])
        author = (embed.get("author") or {}).get("name") or ""
        total += len(title) + len(description) + len(footer) + len(author)
    if total > MAX_EMBED_TOTAL:
        raise _ApiError(400, 50035, f"embeds: total size must be {MAX_EMBED_TOTAL} or fewer")
    if not content and not embeds and not files and not body.get("components") and (
        "content" in body or "embeds" in body
    ):
        raise _ApiError(400, 50006, "Cannot send an empty message")


def _kept(attachment: dict[str, Any], body: dict[str, Any]) -> bool:
    wanted = body.get("attachments")
    if wanted is None:
        return True
    return any(str(a.get("id")) == attachment["id"] for a in wanted)


def _walk(command: dict[str, Any], path: list[str]) -> dict[str, Any] | None:
    node: dict[str, Any] | None = command
    for name in path:
        if node is None:
            return None
        node = next(
            (
                o
                for o in node.get("options", [])
                if o["name"] == name and o["type"] in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP)
            ),
            None,
        )
    return node


async def _read_body(request: web.Request) -> tuple[Any, list[Attachment]]:
    if not request.can_read_body:
        return None, []
    if request.content_type.startswith("multipart/"):
        body: Any = None
        files: list[Attachment] = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if part.name == "payload_json":  # type: ignore[union-attr]
                body = json.loads(await part.text())  # type: ignore[union-attr]
            else:
                data = await part.read()  # type: ignore[union-attr]
                files.append(Attachment(part.filename or part.name or "file", bytes(data)))  # type: ignore[union-attr]
        return body, files
    text = await request.text()
    return (json.loads(text) if text else None), []


def find_button(
    message: dict[str, Any], *, label: str | None = None, custom_id: str | None = None
) -> dict[str, Any]:
    """The button on ``message`` with this label or custom_id."""
    buttons = [c for row in message.get("components", []) for c in row.get("components", [])]
    for button in buttons:
        if button.get("type") != 2:
            continue
        if (label is not None and button.get("label") == label) or (
            custom_id is not None and button.get("custom_id") == custom_id
        ):
            return button
    labels = [b.get("label") for b in buttons]
    raise SandboxError(f"no button {label or custom_id!r} on the message (buttons: {labels})")


def _describe(interaction: dict[str, Any]) -> str:
    data = interaction.get("data", {})
    names = [data.get("name") or data.get("custom_id", "?")]
    options = data.get("options") or []
    while options and options[0].get("type") in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP):
        names.append(options[0]["name"])
        options = options[0].get("options") or []
    return "/" + " ".join(str(n) for n in names)
