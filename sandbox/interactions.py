"""The user side: what a member does in Discord's client (run a slash command, ask for
autocomplete choices, click a button), turned into the interaction payloads Discord sends the
bot, with option types checked against the command schema the bot registered."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sandbox.payloads import (
    EVERYONE_PERMISSIONS,
    SandboxChannel,
    SandboxGuild,
    SandboxMember,
    SandboxRole,
)
from sandbox.wire import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    OPT_ATTACHMENT,
    OPT_BOOLEAN,
    OPT_CHANNEL,
    OPT_INTEGER,
    OPT_MENTIONABLE,
    OPT_NUMBER,
    OPT_ROLE,
    OPT_STRING,
    OPT_SUB_COMMAND,
    OPT_SUB_COMMAND_GROUP,
    OPT_USER,
    SELECT_TYPES,
    STRING_SELECT,
    Attachment,
    SandboxError,
)


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
    expired: bool = False  # past Discord's 3 seconds unanswered: callbacks get 10062
    modal: dict[str, Any] | None = None  # the modal the bot answered with, until submitted


class InteractionsMixin:
    """The user-side driver of :class:`sandbox.FakeDiscord`."""

    def expire_interaction(self, interaction: dict[str, Any]) -> None:
        """The user saw "The application did not respond": a late answer gets Discord's
        404 10062 Unknown interaction."""
        self.interactions[interaction["token"]].expired = True  # type: ignore[attr-defined]

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
            "guild": {"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
            "channel_id": str(channel.id),
            "channel": channel_payload,
            "member": member.payload(permissions=permissions),
            "locale": member.locale,
            "guild_locale": guild.preferred_locale,
            "app_permissions": str(
                guild.permissions_in(channel, guild.members[self.bot_user.id])
            ),
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
        return await self._on_message(
            message, member, MESSAGE_COMPONENT, {"custom_id": button["custom_id"],
                                                 "component_type": 2})

    async def choose_in_select(
        self, message: dict[str, Any], member: SandboxMember, custom_id: str, values: list[str]
    ) -> dict[str, Any]:
        """Choose ``values`` in the select menu ``custom_id`` of ``message`` as ``member``
        (string selects: the options' values; user/role/channel selects: ids)."""
        menu = next((c for row in message.get("components", [])
                     for c in row.get("components", [])
                     if c.get("custom_id") == custom_id and c.get("type") in SELECT_TYPES), None)
        if menu is None:
            raise SandboxError(f"no select menu {custom_id!r} on the message")
        if menu.get("disabled"):
            raise SandboxError(f"select menu {custom_id!r} is disabled")
        low, high = menu.get("min_values", 1), menu.get("max_values", 1)
        if not low <= len(values) <= high:
            raise SandboxError(f"choose {low} to {high} values, not {len(values)}")
        if menu["type"] == STRING_SELECT:
            offered = {o["value"] for o in menu.get("options", [])}
            unknown = [v for v in values if v not in offered]
            if unknown:
                raise SandboxError(f"{unknown[0]!r} is not an option of the menu")
        data = {"custom_id": custom_id, "component_type": menu["type"], "values": values}
        return await self._on_message(message, member, MESSAGE_COMPONENT, data)

    def pending_modal(self, member: SandboxMember) -> tuple[str, dict[str, Any]] | None:
        """The modal the bot opened for ``member`` and not yet submitted: (the token of the
        interaction it answered, the modal)."""
        for token, record in reversed(self.interactions.items()):
            if record.modal is not None and record.member.id == member.id:
                return token, record.modal
        return None

    async def submit_modal(
        self, token: str, member: SandboxMember, values: Mapping[str, str]
    ) -> dict[str, Any]:
        """Submit the modal the bot answered interaction ``token`` with, as ``member``, its
        text inputs filled with ``values`` (by custom_id)."""
        record: InteractionRecord | None = self.interactions.get(token)
        if record is None or record.modal is None or record.member.id != member.id:
            raise SandboxError("no open modal of this member for that interaction")
        modal, record.modal = record.modal, None
        rows = []
        for row in modal.get("components", []):
            inputs = [{"type": 4, "custom_id": c["custom_id"],
                       "value": str(values.get(c["custom_id"], c.get("value") or ""))}
                      for c in row.get("components", []) if c.get("type") == 4]
            rows.append({"type": 1, "components": inputs})
        data = {"custom_id": modal["custom_id"], "components": rows}
        channel = self._find_channel(record.channel_id)
        message = self.messages.get(record.original_message_id or 0)
        if message is not None and record.payload["type"] == MESSAGE_COMPONENT:
            return await self._on_message(message, member, MODAL_SUBMIT, data)
        if channel is None:
            raise SandboxError("the modal's channel is gone")
        guild = self.guilds[channel.guild_id]
        payload = self._interaction_base(MODAL_SUBMIT, guild, channel, member)
        payload["data"] = data
        return await self._send_interaction(payload, channel, member)

    async def _on_message(
        self, message: dict[str, Any], member: SandboxMember, type_: int, data: dict[str, Any]
    ) -> dict[str, Any]:
        """An interaction on ``message`` (a component, or a modal opened from one)."""
        channel = self._find_channel(int(message["channel_id"]))
        if channel is None:
            dm_user = next((u for u, c in self.dm_channels.items()
                            if str(c) == str(message["channel_id"])), None)
            if dm_user is None or dm_user != member.id:
                raise SandboxError("the message is not in a guild channel of the sandbox, nor "
                                   "in the clicking member's DM")
            return await self._in_dm(message, member, type_, data)
        guild = self.guilds[channel.guild_id]
        payload = self._interaction_base(type_, guild, channel, member)
        payload["message"] = self.messages.get(int(message["id"]), message)
        payload["data"] = data
        sent = await self._send_interaction(payload, channel, member)
        self.interactions[payload["token"]].original_message_id = int(message["id"])
        return sent

    async def _in_dm(
        self, message: dict[str, Any], member: SandboxMember, type_: int, data: dict[str, Any]
    ) -> dict[str, Any]:
        """An interaction in the bot's DM with ``member``: no guild, the user instead of the
        member, a DM channel (type 1), context 1 (bot DM), as Discord sends it."""
        if not self.connected:
            raise SandboxError("no bot is connected to the sandbox gateway")
        token = f"itoken-{self.snowflake()}"
        channel_id = int(message["channel_id"])
        payload: dict[str, Any] = {
            "id": str(self.snowflake()),
            "application_id": str(self.application_id),
            "type": type_,
            "token": token,
            "version": 1,
            "attachment_size_limit": 25 * 1024 * 1024,
            "channel_id": str(channel_id),
            "channel": {"id": str(channel_id), "type": 1, "last_message_id": None,
                        "recipients": [member.user.payload()]},
            "user": member.user.payload(),
            "locale": member.locale,
            "app_permissions": "0",
            "entitlements": [],
            "authorizing_integration_owners": {"1": str(member.id)},
            "context": 1,
            "message": self.messages.get(int(message["id"]), message),
            "data": data,
        }
        record = InteractionRecord(payload, channel_id, member)
        record.original_message_id = int(message["id"])
        self.interactions[token] = record
        self._emit("interaction", payload)
        await self.dispatch("INTERACTION_CREATE", payload)
        return payload

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
                opt_schema = walk_command(schema, path[1:])
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
        if root is not None and walk_command(root, path[1:]) is None:
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
        elif isinstance(value, Attachment):
            # a file the member uploads with the command: Discord serves it from its CDN
            attachment_id = str(self.snowflake())
            self.attachment_bytes[attachment_id] = value.content
            url = f"http://{self.host}:{self._port}/uploads/{attachment_id}/{value.filename}"
            resolved.setdefault("attachments", {})[attachment_id] = {
                "id": attachment_id, "filename": value.filename, "size": len(value.content),
                "url": url, "proxy_url": url, "content_type": "text/csv; charset=utf-8"}
            type_, raw = OPT_ATTACHMENT, attachment_id
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


def walk_command(command: dict[str, Any], path: list[str]) -> dict[str, Any] | None:
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


def describe(interaction: dict[str, Any]) -> str:
    data = interaction.get("data", {})
    names = [data.get("name") or data.get("custom_id", "?")]
    options = data.get("options") or []
    while options and options[0].get("type") in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP):
        names.append(options[0]["name"])
        options = options[0].get("options") or []
    return "/" + " ".join(str(n) for n in names)
