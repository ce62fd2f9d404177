"""Print what happens in the sandbox as a readable chat log (for ``swissbot demo``).

Mentions become ``@names``, ``<t:..>`` timestamps become clock times, embeds are drawn as boxes,
buttons as ``[Label]`` and attachments as a paper-clip line. The bot's "thinking" placeholders
are not printed; the answer that replaces them is.
"""

from __future__ import annotations

import json
import re
import sys
from datetime import UTC, datetime
from typing import Any, TextIO

from sandbox.server import FakeDiscord
from sandbox.wire import (
    APPLICATION_COMMAND,
    EPHEMERAL,
    LOADING,
    MESSAGE_COMPONENT,
    OPT_SUB_COMMAND,
    OPT_SUB_COMMAND_GROUP,
)

_USER = re.compile(r"<@!?(\d+)>")
_ROLE = re.compile(r"<@&(\d+)>")
_CHANNEL = re.compile(r"<#(\d+)>")
_TIME = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")


class Transcript:
    """Attach to a :class:`FakeDiscord` and print its channels as they change."""

    def __init__(
        self,
        fake: FakeDiscord,
        out: TextIO | None = None,
        *,
        show_ephemeral: bool = True,
        width: int = 100,
    ) -> None:
        self.fake = fake
        self.out = out or sys.stdout
        self.show_ephemeral = show_ephemeral
        self.width = width
        self._printed: dict[str, str] = {}
        self._embeds: dict[str, str] = {}
        fake.listeners.append(self.on_event)

    def detach(self) -> None:
        if self.on_event in self.fake.listeners:
            self.fake.listeners.remove(self.on_event)

    # -- events ------------------------------------------------------------------------------

    def on_event(self, event: str, data: dict[str, Any]) -> None:
        if event == "interaction":
            self._print(self.format_interaction(data))
        elif event in ("create", "edit"):
            if data["flags"] & LOADING:
                return
            if data["flags"] & EPHEMERAL and not self.show_ephemeral:
                return
            embeds = json.dumps(data.get("embeds") or [], sort_keys=True)
            same_embeds = event == "edit" and self._embeds.get(data["id"]) == embeds
            self._embeds[data["id"]] = embeds
            text = self.format_message(data, edited=event == "edit", embeds=not same_embeds)
            # an edit that changes nothing visible (e.g. a no-op PATCH) is not worth a line
            key = data["id"]
            body = text.split("\n", 1)[-1]
            if self._printed.get(key) == body:
                return
            self._printed[key] = body
            self._print(text)

    def _print(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    # -- formatting --------------------------------------------------------------------------

    def name_of(self, user_id: int) -> str:
        for guild in self.fake.guilds.values():
            member = guild.members.get(user_id)
            if member is not None:
                return member.display_name
        return str(user_id)

    def channel_name(self, channel_id: int) -> str:
        for guild in self.fake.guilds.values():
            channel = guild.channels.get(channel_id)
            if channel is not None:
                return channel.name
        return str(channel_id)

    def role_name(self, role_id: int) -> str:
        for guild in self.fake.guilds.values():
            role = guild.roles.get(role_id)
            if role is not None:
                return role.name
        return str(role_id)

    def text(self, raw: str) -> str:
        """Discord markup made readable in a terminal."""
        out = _USER.sub(lambda m: "@" + self.name_of(int(m.group(1))), raw)
        out = _ROLE.sub(lambda m: "@" + self.role_name(int(m.group(1))), out)
        out = _CHANNEL.sub(lambda m: "#" + self.channel_name(int(m.group(1))), out)
        out = _TIME.sub(lambda m: _clock(int(m.group(1)), m.group(2) or "f"), out)
        out = out.replace("**", "").replace("```", "").replace("\u200b", "")
        return re.sub(r"(?<!\\)`", "", out).replace("\\", "")

    def format_interaction(self, payload: dict[str, Any]) -> str:
        user = payload["member"]["user"]
        who = user.get("global_name") or user["username"]
        where = "#" + self.channel_name(int(payload["channel_id"]))
        data = payload.get("data", {})
        if payload["type"] == APPLICATION_COMMAND:
            names = [data["name"]]
            options = data.get("options") or []
            while options and options[0]["type"] in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP):
                names.append(options[0]["name"])
                options = options[0].get("options") or []
            args = " ".join(f"{o['name']}:{self._option(o)}" for o in options)
            return f"{where:<14} {who} › /{' '.join(names)} {args}".rstrip()
        if payload["type"] == MESSAGE_COMPONENT:
            label = _button_label(payload.get("message", {}), data.get("custom_id", ""))
            return f"{where:<14} {who} › clicks [{label}]"
        return f"{where:<14} {who} › (interaction type {payload['type']})"

    def _option(self, option: dict[str, Any]) -> str:
        value = option["value"]
        if option["type"] in (6, 9) and str(value).isdigit():
            return "@" + self.name_of(int(value))
        if option["type"] == 7:
            return "#" + self.channel_name(int(value))
        if option["type"] == 8:
            return "@" + self.role_name(int(value))
        text = self.text(str(value))
        return f'"{text}"' if " " in text else text

    def format_message(
        self, message: dict[str, Any], *, edited: bool = False, embeds: bool = True
    ) -> str:
        where = "#" + self.channel_name(int(message["channel_id"]))
        author = message["author"]
        who = author.get("global_name") or author["username"]
        tags = []
        if message["flags"] & EPHEMERAL:
            meta = message.get("interaction_metadata") or {}
            viewer = (meta.get("user") or {}).get("username", "the user")
            tags.append(f"only {viewer} sees this")
        if edited:
            tags.append("edited")
        tag = f" ({', '.join(tags)})" if tags else ""
        lines = [f"{where:<14} {who}{tag} ›"]
        content = self.text(message.get("content") or "")
        if content:
            first, *rest = content.split("\n")
            lines[0] += " " + first
            lines += ["    " + line for line in rest]
        for embed in (message.get("embeds") or []) if embeds else []:
            lines += self._embed(embed)
        for attachment in message.get("attachments") or []:
            size = attachment.get("content", "").count("\n")
            lines.append(f"    📎 {attachment['filename']} ({size} lines)")
        buttons = [
            c for row in message.get("components") or [] for c in row.get("components", [])
        ]
        if buttons:
            lines.append(
                "    "
                + " ".join(
                    f"[{b.get('label', '?')}{' (off)' if b.get('disabled') else ''}]"
                    for b in buttons
                )
            )
        return "\n".join(lines)

    def _embed(self, embed: dict[str, Any]) -> list[str]:
        lines = []
        if embed.get("title"):
            lines.append("    ┌ " + self.text(embed["title"]))
        for line in self.text(embed.get("description") or "").split("\n"):
            if line.strip():
                lines.append("    │ " + line)
        for field in embed.get("fields") or []:
            lines.append(f"    │ {self.text(field['name'])}: {self.text(field['value'])}")
        footer = (embed.get("footer") or {}).get("text")
        lines.append("    └ " + self.text(footer) if footer else "    └")
        return lines


def _clock(unix: int, style: str) -> str:
    moment = datetime.fromtimestamp(unix, UTC)
    if style == "R":
        delta = int((moment - datetime.now(UTC)).total_seconds())
        minutes = abs(delta) // 60
        span = f"{minutes // 60}h{minutes % 60:02d}m" if minutes >= 60 else f"{minutes} min"
        return f"in {span}" if delta >= 0 else f"{span} ago"
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def _button_label(message: dict[str, Any], custom_id: str) -> str:
    for row in message.get("components") or []:
        for component in row.get("components", []):
            if component.get("custom_id") == custom_id:
                return str(component.get("label") or custom_id)
    return custom_id
