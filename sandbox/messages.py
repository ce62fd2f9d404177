"""Messages as Discord builds them: creation, edits (content, embeds, components, attachments),
who a message pings under ``allowed_mentions``, and storing them in their channel."""

from __future__ import annotations

import re
from typing import Any

from sandbox.interactions import InteractionRecord
from sandbox.payloads import iso_now
from sandbox.wire import APPLICATION_COMMAND, EPHEMERAL, LOADING, Attachment


class MessagesMixin:
    """Message construction and storage; part of :class:`sandbox.FakeDiscord`."""

    attachment_bytes: dict[str, bytes]  # attachment id -> the file as the bot sent it

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
            ids = [str(self.snowflake()) for _ in files]
            # the bytes, for the console to show pictures (``content`` below is text only)
            self.attachment_bytes.update(zip(ids, (f.content for f in files), strict=True))
            new = [
                {
                    "id": attachment_id,
                    "filename": f.filename,
                    "size": len(f.content),
                    "url": f"http://{self.host}:{self._port}/attachments/{f.filename}",
                    "proxy_url": f"http://{self.host}:{self._port}/attachments/{f.filename}",
                    "content": f.content.decode("utf-8", "replace"),  # sandbox extra
                }
                for attachment_id, f in zip(ids, files, strict=True)
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


def _kept(attachment: dict[str, Any], body: dict[str, Any]) -> bool:
    wanted = body.get("attachments")
    if wanted is None:
        return True
    return any(str(a.get("id")) == attachment["id"] for a in wanted)

