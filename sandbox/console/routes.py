"""The console's HTTP side, mounted on the sandbox's own server under ``/console/``.

Every action a person takes (a command, a click, a menu choice, a modal, a new member) is a
POST carrying a ``nonce`` the page draws once per action: a retried request with the same
nonce gets the first answer instead of acting twice. POSTs must be JSON, which a page of
another site cannot send here without a CORS preflight the console never grants.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from sandbox.console.command_line import CommandLineError, quote_value
from sandbox.console.schema import autocomplete_target, chat_commands, resolve, suggest
from sandbox.console.view import (
    DM,
    channel_view,
    channels_in_order,
    member_view,
    message_view,
    organiser_role_id,
    visible_to,
)
from sandbox.payloads import SandboxGuild, SandboxMember
from sandbox.wire import SandboxError

PREFIX = "/console"
STATIC = Path(__file__).parent / "static"
STATIC_FILES = {"console.js": "text/javascript", "console.css": "text/css"}
MAX_TEXT = 4000  # a typed command; Discord's own box takes 4000 characters
MAX_NAME = 32  # usernames and nicknames
SHOWN_MESSAGES = 100  # the last messages of a channel the page draws
POLL_STEP = 0.25  # seconds between looks for a change while a page waits for one
POLL_WAIT = 15.0  # the longest a page's request waits before answering "no change"
AUTOCOMPLETE_WAIT = 2.0
REMEMBERED_NONCES = 1000

Handler = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
Answer = tuple[int, dict[str, Any]]  # an action's status and JSON body, kept per nonce


class ConsoleError(Exception):
    """Bad input from the page: answered 400 with the message (and the column, if any)."""

    def __init__(self, message: str, column: int | None = None) -> None:
        super().__init__(message)
        self.message, self.column = message, column


class Console:
    """The console of one :class:`sandbox.FakeDiscord`."""

    def __init__(self, fake: Any) -> None:
        self.fake = fake  # a sandbox.FakeDiscord (not imported: the server imports this)
        self._answers: OrderedDict[str, asyncio.Future[Answer]] = OrderedDict()
        self.stopping = False  # set when the sandbox stops: waiting pages are answered at once

    def register(self, app: web.Application) -> None:
        app.router.add_get(PREFIX, self._redirect)
        app.router.add_get(PREFIX + "/", self._page)
        app.router.add_get(PREFIX + "/static/{name}", self._static)
        app.router.add_get(PREFIX + "/attachments/{id}/{filename}", self._attachment)
        app.router.add_get(PREFIX + "/api/state", self._state)
        app.router.add_get(PREFIX + "/api/complete", self._complete)
        for name, handler in (("command", self._command), ("component", self._component),
                              ("modal", self._modal), ("member", self._member)):
            app.router.add_post(f"{PREFIX}/api/{name}", self._action(handler))

    # ------------------------------------------------------------------ pages and files

    async def _redirect(self, _: web.Request) -> web.StreamResponse:
        raise web.HTTPFound(PREFIX + "/")

    async def _page(self, _: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "console.html",
                                headers={"Content-Type": "text/html; charset=utf-8"})

    async def _static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in STATIC_FILES:
            raise web.HTTPNotFound()
        return web.FileResponse(STATIC / name, headers={"Content-Type": STATIC_FILES[name]})

    async def _attachment(self, request: web.Request) -> web.StreamResponse:
        content = self.fake.attachment_bytes.get(request.match_info["id"])
        if content is None:
            raise web.HTTPNotFound()
        filename = request.match_info["filename"]
        kind = "image/png" if filename.lower().endswith(".png") else "application/octet-stream"
        if filename.lower().endswith((".txt", ".csv", ".trf", ".json", ".md")):
            kind = "text/plain; charset=utf-8"
        return web.Response(body=content, headers={"Content-Type": kind,
                                                   "X-Content-Type-Options": "nosniff"})

    # ------------------------------------------------------------------ reading

    async def _state(self, request: web.Request) -> web.StreamResponse:
        try:
            return await self._wait_for_change(request)
        except ConsoleError as exc:
            return _error(exc)

    async def _wait_for_change(self, request: web.Request) -> web.StreamResponse:
        """The world as the chosen member sees it; with ``since`` (the digest the page has)
        the answer waits, up to POLL_WAIT, for something to change."""
        query = request.query
        since = query.get("since", "")
        waited = 0.0
        while True:
            state = self._snapshot(query)
            body = json.dumps(state, sort_keys=True)
            digest = hashlib.sha1(body.encode()).hexdigest()
            if digest != since or waited >= POLL_WAIT or self.stopping:
                return web.json_response({"digest": digest, **state})
            await asyncio.sleep(POLL_STEP)
            waited += POLL_STEP

    def _snapshot(self, query: Any) -> dict[str, Any]:
        guilds = [{"id": str(g.id), "name": g.name} for g in self.fake.guilds.values()]
        if not self.fake.guilds:
            return {"guilds": [], "connected": bool(self.fake.connected)}
        guild = self._guild(query.get("guild")) if query.get("guild") else next(
            iter(self.fake.guilds.values()))
        members = [member_view(guild, m, self.fake.bot_user.id)
                   for m in guild.members.values() if m.id != self.fake.bot_user.id]
        state: dict[str, Any] = {
            "guilds": guilds,
            "guild": str(guild.id),
            "connected": bool(self.fake.connected),
            "members": members,
            "channels": [channel_view(c) for c in channels_in_order(guild)],
            "commands": [c["name"] for c in self._commands(guild)],
            "messages": [],
            "modal": None,
        }
        member_id, channel_id = query.get("member"), query.get("channel")
        member = guild.members.get(_int(member_id)) if member_id else None
        if member is None:
            return state
        if channel_id == DM:
            messages = self.fake.direct_messages(member)
        else:
            channel = guild.channels.get(_int(channel_id)) if channel_id else None
            messages = [m for m in channel.messages if visible_to(m, member)] if channel else []
        base = PREFIX + "/attachments"
        state["messages"] = [message_view(m, base) for m in messages[-SHOWN_MESSAGES:]]
        pending = self.fake.pending_modal(member)
        if pending is not None:
            state["modal"] = {"token": pending[0], **pending[1]}
        return state

    async def _complete(self, request: web.Request) -> web.StreamResponse:
        try:
            return await self._suggestions(request.query)
        except ConsoleError as exc:
            return _error(exc)

    async def _suggestions(self, query: Any) -> web.StreamResponse:
        guild = self._guild(query.get("guild"))
        text = query.get("text", "")[:MAX_TEXT]
        commands = self._commands(guild)
        target = autocomplete_target(text, commands)
        member_id, channel_id = query.get("member"), query.get("channel")
        if target is not None and member_id and channel_id and channel_id != DM:
            member = self._member_of(guild, member_id)
            channel = self._channel_of(guild, channel_id)
            return web.json_response(
                await self._bot_choices(guild, channel, member, text, target))
        return web.json_response(suggest(text, commands))

    async def _bot_choices(
        self, guild: SandboxGuild, channel: Any, member: SandboxMember, text: str,
        target: tuple[str, str, str],
    ) -> list[dict[str, str]]:
        """The choices the bot's own autocomplete offers for the option being typed."""
        command, option, typed = target
        try:
            sent = await self.fake.send_autocomplete(
                guild, channel, member, command, option, {option: typed})
            answer = await self.fake.reply(sent, timeout=AUTOCOMPLETE_WAIT)
        except SandboxError:
            return []
        stem = text[: len(text) - len(typed)].rstrip("\"'")
        return [{"text": f"{stem}{quote_value(str(c['value']))} ", "label": str(c["name"]),
                 "hint": f"suggested by the bot for {option}"}
                for c in (answer.get("choices") or [])]

    # ------------------------------------------------------------------ acting

    def _action(self, handler: Handler) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def act(request: web.Request) -> web.Response:
            if request.content_type != "application/json":
                return _error(ConsoleError("send JSON (Content-Type: application/json)"))
            try:
                body = await request.json()
            except ValueError:
                return _error(ConsoleError("the request body is not JSON"))
            if not isinstance(body, dict):
                return _error(ConsoleError("the request body must be a JSON object"))
            nonce = str(body.get("nonce") or "")
            if not nonce:
                return _respond(await self._run(handler, body))
            if nonce in self._answers:  # a retry: the first answer, not a second action
                return _respond(await asyncio.shield(self._answers[nonce]))
            answer: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
            self._answers[nonce] = answer
            while len(self._answers) > REMEMBERED_NONCES:
                self._answers.popitem(last=False)
            result = await self._run(handler, body)
            answer.set_result(result)
            return _respond(result)

        return act

    async def _run(self, handler: Handler, body: dict[str, Any]) -> Answer:
        try:
            return 200, {"ok": True, **await handler(body)}
        except CommandLineError as exc:
            return _failure(ConsoleError(exc.message, exc.column))
        except (ConsoleError, SandboxError) as exc:
            return _failure(exc if isinstance(exc, ConsoleError) else ConsoleError(str(exc)))

    async def _command(self, body: dict[str, Any]) -> dict[str, Any]:
        guild = self._guild(body.get("guild"))
        member = self._member_of(guild, body.get("member"))
        if body.get("channel") == DM:
            raise ConsoleError("slash commands run in a guild channel: choose one")
        channel = self._channel_of(guild, body.get("channel"))
        text = str(body.get("text") or "")
        if len(text) > MAX_TEXT:
            raise ConsoleError(f"a command is at most {MAX_TEXT} characters", MAX_TEXT + 1)
        resolved = resolve(text, self._commands(guild), guild)
        await self.fake.send_slash_command(guild, channel, member, resolved.command,
                                           resolved.options)
        return {"command": resolved.command}

    async def _component(self, body: dict[str, Any]) -> dict[str, Any]:
        guild = self._guild(body.get("guild"))
        member = self._member_of(guild, body.get("member"))
        message = self.fake.messages.get(_int(body.get("message")))
        if message is None:
            raise ConsoleError("that message is gone")
        custom_id = str(body.get("custom_id") or "")
        values = body.get("values")
        if values is None:
            await self.fake.click_button(message, member, custom_id=custom_id)
        elif isinstance(values, list) and all(isinstance(v, str) for v in values):
            await self.fake.choose_in_select(message, member, custom_id, values)
        else:
            raise ConsoleError("values must be a list of strings")
        return {}

    async def _modal(self, body: dict[str, Any]) -> dict[str, Any]:
        guild = self._guild(body.get("guild"))
        member = self._member_of(guild, body.get("member"))
        values = body.get("values") or {}
        if not isinstance(values, dict):
            raise ConsoleError("values must map the fields' ids to text")
        await self.fake.submit_modal(str(body.get("token") or ""), member,
                                     {str(k): str(v) for k, v in values.items()})
        return {}

    async def _member(self, body: dict[str, Any]) -> dict[str, Any]:
        """Add a member (``username``), or rename one (``member`` and ``nick``, empty to clear);
        ``organiser`` gives or takes the Organisers role."""
        guild = self._guild(body.get("guild"))
        if body.get("member"):
            member = self._member_of(guild, body.get("member"))
            if "nick" in body:
                nick = str(body.get("nick") or "").strip()
                if len(nick) > MAX_NAME:
                    raise ConsoleError(f"a nickname is at most {MAX_NAME} characters")
                member.nick = nick or None
        else:
            username = str(body.get("username") or "").strip()
            if not 2 <= len(username) <= MAX_NAME or any(c.isspace() for c in username):
                raise ConsoleError(f"a username has 2 to {MAX_NAME} characters, no spaces")
            if any(m.user.username == username for m in guild.members.values()):
                raise ConsoleError(f"{username!r} is already a member")
            member = self.fake.add_member(guild, username)
        if "organiser" in body:
            role = organiser_role_id(guild)
            if role is None:
                raise ConsoleError("this guild has no Organisers role")
            member.roles = [r for r in member.roles if r != role]
            if body["organiser"]:
                member.roles.append(role)
        return {"member": str(member.id)}

    # ------------------------------------------------------------------ lookups

    def _commands(self, guild: SandboxGuild) -> list[dict[str, Any]]:
        return chat_commands(self.fake.guild_commands.get(guild.id, [])
                             + self.fake.global_commands)

    def _guild(self, guild_id: Any) -> SandboxGuild:
        guild = self.fake.guilds.get(_int(guild_id))
        if guild is None:
            raise ConsoleError("no such guild in the sandbox")
        return guild

    def _member_of(self, guild: SandboxGuild, member_id: Any) -> SandboxMember:
        member = guild.members.get(_int(member_id))
        if member is None:
            raise ConsoleError("choose a member of the guild")
        return member

    def _channel_of(self, guild: SandboxGuild, channel_id: Any) -> Any:
        channel = guild.channels.get(_int(channel_id))
        if channel is None:
            raise ConsoleError("choose a channel of the guild")
        return channel


def _int(value: Any) -> int:
    try:
        return int(str(value))
    except ValueError:
        return 0


def _failure(error: ConsoleError) -> Answer:
    return 400, {"ok": False, "error": error.message, "column": error.column}


def _error(error: ConsoleError) -> web.Response:
    return _respond(_failure(error))


def _respond(answer: Answer) -> web.Response:
    status, body = answer
    return web.json_response(body, status=status)
