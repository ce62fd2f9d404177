"""What the console shows: the guild's members and channels, and a channel's messages as seen
by one member (the public ones, plus the ephemeral answers addressed to that member), in JSON
the page renders (see static/console.js)."""

from __future__ import annotations

from typing import Any

from sandbox.payloads import (
    ADMINISTRATOR,
    MANAGE_GUILD,
    SandboxChannel,
    SandboxGuild,
    SandboxMember,
)
from sandbox.wire import EPHEMERAL, LOADING

ORGANISER_ROLE = "Organisers"  # the role FakeDiscord.add_guild creates by default
DM = "dm"  # the channel choice that shows the bot's DMs with the chosen member


def organiser_role_id(guild: SandboxGuild) -> int | None:
    return next((r.id for r in guild.roles.values() if r.name == ORGANISER_ROLE), None)


def member_view(guild: SandboxGuild, member: SandboxMember, bot_id: int) -> dict[str, Any]:
    permissions = guild.permissions_of(member)
    roles = [guild.roles[r].name for r in member.roles if r in guild.roles]
    return {
        "id": str(member.id),
        "username": member.user.username,
        "display_name": member.display_name,
        "roles": roles,
        "owner": member.id == guild.owner_id,
        "manager": bool(permissions & (MANAGE_GUILD | ADMINISTRATOR)),
        "organiser": ORGANISER_ROLE in roles,
        "bot": member.id == bot_id,
    }


def channel_view(channel: SandboxChannel) -> dict[str, Any]:
    return {
        "id": str(channel.id),
        "name": channel.name,
        "thread": channel.is_thread,
        "parent_id": str(channel.parent_id) if channel.parent_id else None,
        "archived": channel.archived,
    }


def channels_in_order(guild: SandboxGuild) -> list[SandboxChannel]:
    """Text channels, each followed by its threads."""
    top = [c for c in guild.channels.values() if not c.is_thread]
    ordered: list[SandboxChannel] = []
    for channel in sorted(top, key=lambda c: (c.position, c.id)):
        ordered.append(channel)
        ordered.extend(c for c in guild.channels.values() if c.parent_id == channel.id)
    return ordered


def visible_to(message: dict[str, Any], member: SandboxMember) -> bool:
    """Public messages, and ephemeral ones only for the member whose interaction they answer."""
    if not message.get("flags", 0) & EPHEMERAL:
        return True
    metadata = message.get("interaction_metadata") or {}
    return str((metadata.get("user") or {}).get("id")) == str(member.id)


def message_view(message: dict[str, Any], attachment_base: str) -> dict[str, Any]:
    """The fields the page draws; attachments point at the console's own file route."""
    metadata = message.get("interaction_metadata") or {}
    return {
        "id": message["id"],
        "author": (message.get("author") or {}).get("global_name")
        or (message.get("author") or {}).get("username", "?"),
        "content": message.get("content") or "",
        "embeds": message.get("embeds") or [],
        "components": message.get("components") or [],
        "attachments": [
            {"id": a["id"], "filename": a["filename"], "size": a.get("size", 0),
             "url": f"{attachment_base}/{a['id']}/{a['filename']}"}
            for a in message.get("attachments") or []
        ],
        "ephemeral": bool(message.get("flags", 0) & EPHEMERAL),
        "thinking": bool(message.get("flags", 0) & LOADING),
        "edited": message.get("edited_timestamp") is not None,
        "timestamp": message.get("timestamp"),
        "command": metadata.get("name"),
        "invoker": (metadata.get("user") or {}).get("username"),
    }
