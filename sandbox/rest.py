"""The REST API (v10) routes swissbot uses: routing, authorisation, injected failures, and the
handlers (commands, channels, messages, members, interaction callbacks and webhooks). Any other
route is recorded in ``unhandled`` and answered with Discord's 404 body."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from aiohttp import web

from sandbox.commands import command_problems
from sandbox.interactions import InteractionRecord
from sandbox.limits import check_message_limits
from sandbox.payloads import (
    ATTACH_FILES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    EMBED_LINKS,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    SandboxChannel,
    application_payload,
)
from sandbox.wire import (
    CB_AUTOCOMPLETE,
    CB_DEFERRED_MESSAGE,
    CB_DEFERRED_UPDATE,
    CB_MESSAGE,
    CB_MODAL,
    CB_UPDATE_MESSAGE,
    EPHEMERAL,
    LOADING,
    MODAL_SUBMIT,
    ApiError,
    Attachment,
    RecordedRequest,
    SandboxError,
    json_response,
    read_body,
)
from sandbox.world import _Failure

_NEEDS_AUTH = {
    "get_user",
    "create_dm",
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
    "create_thread",
    "add_thread_member",
    "edit_channel",
}


class RestMixin:
    """The REST side of :class:`sandbox.FakeDiscord`."""

    post_delay: float
    posts_in_flight: int
    hold_callbacks: bool

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        parts = [p for p in request.match_info["tail"].split("/") if p]
        body, files = await read_body(request)
        kind, params, handler = self._route(request.method, parts)
        authorized = request.headers.get("Authorization") == f"Bot {self.token}"
        if kind in _NEEDS_AUTH and not authorized:
            status, response = 401, {"code": 0, "message": "401: Unauthorized"}
            reply = json_response(response, status)
        elif (failure := self._take_failure(kind)) is not None:
            status = failure.status
            if status == 429:
                response = {
                    "message": "You are being rate limited.",
                    "retry_after": failure.retry_after,
                    "global": False,
                }
                reply = json_response(response, 429, {"Retry-After": str(failure.retry_after)})
            else:
                response = {"code": 0, "message": f"{status}: injected failure"}
                reply = json_response(response, status)
        elif handler is None:
            status, response = 404, {"code": 0, "message": "404: Not Found"}
            reply = json_response(response, status)
        else:
            try:
                status, response = await handler(params, body, files, request)
            except ApiError as exc:
                status, response = exc.status, {"code": exc.code, "message": exc.message}
            reply = (
                web.Response(status=204) if status == 204 else json_response(response, status)
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
            case ("POST", ["channels", cid, "threads"]):
                return "create_thread", {"channel_id": cid}, self._create_thread
            case ("PUT", ["channels", cid, "thread-members", uid]):
                params = {"channel_id": cid, "user_id": uid}
                return "add_thread_member", params, self._add_thread_member
            case ("PATCH", ["channels", cid]):
                return "edit_channel", {"channel_id": cid}, self._edit_channel
            case ("GET", ["users", uid]) if uid != "@me":
                return "get_user", {"user_id": uid}, self._get_user
            case ("POST", ["users", "@me", "channels"]):
                return "create_dm", {}, self._create_dm
            case ("GET", ["guilds", gid, "members", uid]):
                return "get_member", {"guild_id": gid, "user_id": uid}, self._get_member
        return "unhandled", {}, None

    async def _get_me(self, *_: Any) -> tuple[int, Any]:
        return 200, self.bot_user.payload()

    async def _application_info(self, *_: Any) -> tuple[int, Any]:
        return 200, application_payload(self.application_id, self.owner, self.bot_user.username)

    async def _get_gateway(self, *_: Any) -> tuple[int, Any]:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return 200, {"url": self.gateway_url, "shards": self.shard_count,
                     "session_start_limit": limit}

    async def _put_commands(self, params: dict[str, str], body: Any, *_: Any) -> tuple[int, Any]:
        guild_id = params.get("guild_id")
        if guild_id is not None and int(guild_id) not in self.guilds:
            raise ApiError(404, 10004, "Unknown Guild")
        refused = command_problems(body)
        if refused:  # Discord refuses the whole sync, naming what it refused
            raise ApiError(400, 50035, "Invalid Form Body: " + "; ".join(refused[:10]))
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
            raise ApiError(404, 10003, "Unknown Channel")
        return 200, channel.payload()

    async def _get_member(self, params: dict[str, str], *_: Any) -> tuple[int, Any]:
        guild = self.guilds.get(int(params["guild_id"]))
        member = guild.members.get(int(params["user_id"])) if guild else None
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return 200, member.payload()

    async def _create_message(
        self, params: dict[str, str], body: Any, files: list[Attachment], *_: Any
    ) -> tuple[int, Any]:
        channel = self._find_channel(int(params["channel_id"]))
        if channel is None:
            return await self._direct_message(int(params["channel_id"]), body or {}, files)
        self._check_bot_permissions(channel, body or {}, files)
        check_message_limits(body or {}, files)
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
        if self.post_delay > 0:
            self.posts_in_flight += 1
            try:
                await asyncio.sleep(self.post_delay)
            finally:
                self.posts_in_flight -= 1
        return 200, message

    async def _get_user(self, params: dict[str, str], *_: Any) -> tuple[int, Any]:
        user_id = int(params["user_id"])
        for guild in self.guilds.values():
            if user_id in guild.members:
                return 200, guild.members[user_id].user.payload()
        raise ApiError(404, 10013, "Unknown User")

    async def _create_dm(self, params: dict[str, str], body: Any, *_: Any) -> tuple[int, Any]:
        user_id = int((body or {}).get("recipient_id", 0))
        member = next((g.members[user_id] for g in self.guilds.values()
                       if user_id in g.members), None)
        if member is None:
            raise ApiError(400, 50035, "Invalid Form Body: recipient_id")
        channel_id = self.dm_channels.setdefault(user_id, self.snowflake())
        payload = {"id": str(channel_id), "type": 1, "last_message_id": None,
                   "recipients": [member.user.payload()]}
        return 200, payload

    async def _direct_message(
        self, channel_id: int, body: dict[str, Any], files: list[Attachment]
    ) -> tuple[int, Any]:
        user_id = next((u for u, c in self.dm_channels.items() if c == channel_id), None)
        if user_id is None:
            raise ApiError(404, 10003, "Unknown Channel")
        if user_id in self.closed_dms:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        check_message_limits(body, files)
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            for earlier in self.messages.values():  # as in guild channels: no duplicate
                if earlier["channel_id"] == str(channel_id) and earlier.get("nonce") == str(nonce):
                    self.deduplicated += 1
                    return 200, earlier
        message = self._new_message(channel_id, body, files)
        if nonce is not None:
            message["nonce"] = str(nonce)
        await self._store(channel_id, message)
        return 200, message

    def _check_bot_permissions(
        self, channel: SandboxChannel, body: dict[str, Any], files: list[Attachment]
    ) -> None:
        """Discord's answers to a post the bot may not make: 403 with 50001 Missing Access
        (cannot see the channel) or 50013 Missing Permissions (cannot send, embed or attach)."""
        guild = self.guilds[channel.guild_id]
        permissions = self.bot_permissions(guild, channel)
        if not permissions & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        needed = SEND_MESSAGES
        if channel.is_thread:
            if channel.archived or channel.locked:
                raise ApiError(400, 50083, "Thread is archived")
            needed = SEND_MESSAGES_IN_THREADS
        if body.get("embeds"):
            needed |= EMBED_LINKS
        if files:
            needed |= ATTACH_FILES
        if permissions & needed != needed:
            raise ApiError(403, 50013, "Missing Permissions")

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
            raise ApiError(404, 10008, "Unknown Message")
        channel = self._find_channel(int(params["channel_id"]))
        if channel is not None and not self.bot_permissions(
            self.guilds[channel.guild_id], channel
        ) & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
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
        check_message_limits(body or {}, files)
        self._apply_edit(message, body or {}, files)
        self._emit("edit", message)
        return 200, message

    async def _callback(
        self, params: dict[str, str], body: Any, files: list[Attachment], *_: Any
    ) -> tuple[int, Any]:
        while self.hold_callbacks:
            await asyncio.sleep(0.02)
        record = self.interactions.get(params["token"])
        if record is None or record.payload["id"] != params["interaction_id"] or record.expired:
            raise ApiError(404, 10062, "Unknown interaction")
        if record.callback_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        cb_type = int(body["type"])
        record.callback_type = cb_type
        data = body.get("data") or {}
        message: dict[str, Any] | None = None
        loading = False
        if cb_type == CB_MESSAGE:
            check_message_limits(data, files)
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
                raise ApiError(400, 10008, "Unknown Message")
            check_message_limits(data, files)
            self._apply_edit(target, data, files)
            self._emit("edit", target)
            message = target
            self._answer(record, target)
        elif cb_type == CB_AUTOCOMPLETE:
            self._answer(record, data)
        elif cb_type == CB_MODAL:
            if record.payload["type"] == MODAL_SUBMIT:
                raise ApiError(400, 50035, "a modal submit cannot be answered with a modal")
            record.modal = data
            self._answer(record, data)
        elif cb_type == CB_DEFERRED_UPDATE:
            pass  # the answer will be an edit of the component's message, or nothing
        else:
            raise ApiError(400, 50035, f"unsupported callback type {cb_type}")
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
        check_message_limits(body or {}, files)
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
            raise ApiError(404, 10008, "Unknown Message")
        status, response = await self._message_op(request.method, message, body, files)
        if request.method == "PATCH":
            message["flags"] &= ~LOADING
            self._answer(record, message)
        return status, response

    def _webhook_record(self, params: dict[str, str]) -> InteractionRecord:
        record = self.interactions.get(params["token"])
        if record is None or params["application_id"] != str(self.application_id):
            raise ApiError(404, 10015, "Unknown Webhook")
        return record

    def _answer(self, record: InteractionRecord, answer: dict[str, Any]) -> None:
        if record.answer is None:
            record.answer = answer
        record.answered.set()


    # ------------------------------------------------------------------ threads

    def _guild_channel(self, channel_id: str) -> SandboxChannel:
        channel = self._find_channel(int(channel_id))
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    async def _create_thread(
        self, params: dict[str, str], body: Any, *_: Any
    ) -> tuple[int, Any]:
        """POST /channels/{id}/threads (a thread without a starter message). Errors as
        Discord's: 403 50013 without the Create Public / Private Threads permission, 400 160006
        at the guild's active-thread limit; a private thread in a guild that cannot have them
        is refused with 400 50024 (the sandbox's stand-in for the missing feature)."""
        parent = self._guild_channel(params["channel_id"])
        if parent.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        guild = self.guilds[parent.guild_id]
        body = body or {}
        kind = int(body.get("type", PRIVATE_THREAD))
        permissions = self.bot_permissions(guild, parent)
        if not permissions & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        needed = CREATE_PRIVATE_THREADS if kind == PRIVATE_THREAD else CREATE_PUBLIC_THREADS
        if not permissions & needed:
            raise ApiError(403, 50013, "Missing Permissions")
        if kind == PRIVATE_THREAD and not guild.private_threads:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if kind not in (PRIVATE_THREAD, PUBLIC_THREAD):
            raise ApiError(400, 50035, "Invalid Form Body: type")
        name = str(body.get("name", ""))
        if not 1 <= len(name) <= 100:
            raise ApiError(400, 50035, "Invalid Form Body: name")
        active = [c for c in guild.channels.values() if c.is_thread and not c.archived]
        if len(active) >= guild.max_active_threads:
            raise ApiError(400, 160006, "Maximum number of active threads reached")
        thread = SandboxChannel(self.snowflake(), guild.id, name, parent.position, type=kind,
                                overwrites=parent.overwrites, parent_id=parent.id,
                                owner_id=self.bot_user.id, thread_members={self.bot_user.id})
        guild.channels[thread.id] = thread
        payload = thread.thread_payload()
        await self.dispatch("THREAD_CREATE", {**payload, "newly_created": True})
        return 201, payload

    async def _add_thread_member(
        self, params: dict[str, str], *_: Any
    ) -> tuple[int, Any]:
        thread = self._guild_channel(params["channel_id"])
        if not thread.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        guild = self.guilds[thread.guild_id]
        if thread.archived:
            raise ApiError(400, 50083, "Thread is archived")
        if not self.bot_permissions(guild, thread) & SEND_MESSAGES_IN_THREADS:
            raise ApiError(403, 50013, "Missing Permissions")
        user_id = int(params["user_id"])
        if user_id not in guild.members:
            raise ApiError(404, 10007, "Unknown Member")
        thread.thread_members.add(user_id)
        return 204, None

    async def _edit_channel(
        self, params: dict[str, str], body: Any, *_: Any
    ) -> tuple[int, Any]:
        """PATCH /channels/{id}: for threads, ``archived``, ``locked`` and ``name``."""
        channel = self._guild_channel(params["channel_id"])
        if not channel.is_thread:
            raise ApiError(400, 50035, "Invalid Form Body: the sandbox edits threads only")
        guild = self.guilds[channel.guild_id]
        body = body or {}
        # locking (and unarchiving a locked thread) needs Manage Threads, even for its owner
        if ("locked" in body or channel.locked) and not self.bot_permissions(
                guild, channel) & MANAGE_THREADS:
            raise ApiError(403, 50013, "Missing Permissions")
        if "archived" in body:
            channel.archived = bool(body["archived"])
        if "locked" in body:
            channel.locked = bool(body["locked"])
        if "name" in body:
            channel.name = str(body["name"])[:100]
        payload = channel.thread_payload()
        await self.dispatch("THREAD_UPDATE", payload)
        return 200, payload
