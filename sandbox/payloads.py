"""Payload builders for the sandbox: the JSON shapes discord.py 2.x reads.

All shapes live here so that a discord.py upgrade that starts requiring a new field is a
one-line fix (see shared/notes/discord-testing.md, "Payload shapes"). Ids are strings, as on
the wire.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000

# Permission bits we use (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
# Discord's defaults for @everyone include the thread permissions.
EVERYONE_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)
ALL_PERMISSIONS = (1 << 50) - 1

TEXT_CHANNEL = 0
GUILD_CATEGORY = 4
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (PUBLIC_THREAD, PRIVATE_THREAD)


class SnowflakeFactory:
    """Monotonic snowflakes with a real timestamp part, so ``created_at`` looks sane."""

    def __init__(self) -> None:
        self._counter = itertools.count()

    def __call__(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class SandboxUser:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False

    @property
    def display_name(self) -> str:
        return self.global_name or self.username

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass
class SandboxRole:
    id: int
    name: str
    permissions: int = 0
    position: int = 0
    managed: bool = False

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.managed,
            "mentionable": True,
            "flags": 0,
        }


@dataclass
class SandboxChannel:
    id: int
    guild_id: int
    name: str
    position: int = 0
    type: int = TEXT_CHANNEL
    messages: list[dict[str, Any]] = field(default_factory=list)
    # Permission overwrites by role or member id: (type: 0 role / 1 member, allow, deny).
    # A thread shares its parent's dict (threads have no overwrites of their own).
    overwrites: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    # Threads only: the parent channel, who opened it, its members, archived / locked.
    parent_id: int | None = None
    owner_id: int = 0
    thread_members: set[int] = field(default_factory=set)
    archived: bool = False
    locked: bool = False
    created_at: str = field(default_factory=lambda: iso_now())

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self) -> dict[str, Any]:
        if self.is_thread:
            return self.thread_payload()
        return {
            "id": str(self.id),
            "guild_id": str(self.guild_id),
            "type": self.type,
            "name": self.name,
            "position": self.position,
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "permission_overwrites": [
                {"id": str(target), "type": kind, "allow": str(allow), "deny": str(deny)}
                for target, (kind, allow, deny) in self.overwrites.items()
            ],
            "rate_limit_per_user": 0,
            "last_message_id": None,
        }

    def thread_payload(self) -> dict[str, Any]:
        """A thread as Discord sends it (REST answers, THREAD_CREATE / THREAD_UPDATE)."""
        return {
            "id": str(self.id),
            "guild_id": str(self.guild_id),
            "parent_id": str(self.parent_id),
            "owner_id": str(self.owner_id),
            "type": self.type,
            "name": self.name,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": len(self.messages),
            "member_count": len(self.thread_members),
            "total_message_sent": len(self.messages),
            "flags": 0,
            "thread_metadata": {
                "archived": self.archived,
                "auto_archive_duration": 1440,
                "archive_timestamp": self.created_at,
                "locked": self.locked,
                "invitable": False,
                "create_timestamp": self.created_at,
            },
        }


@dataclass
class SandboxMember:
    user: SandboxUser
    guild_id: int
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)
    # the language of the member's Discord client: sent as each interaction's ``locale``
    locale: str = "en-US"

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def display_name(self) -> str:
        return self.nick or self.user.display_name

    @property
    def mention(self) -> str:
        return f"<@{self.user.id}>"

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class SandboxGuild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, SandboxRole] = field(default_factory=dict)
    channels: dict[int, SandboxChannel] = field(default_factory=dict)
    members: dict[int, SandboxMember] = field(default_factory=dict)
    # Threads: False makes private-thread creation fail (as a guild without the feature);
    # Discord's limit on active threads (error 160006 beyond it).
    private_threads: bool = True
    max_active_threads: int = 1000
    # the server's language (Server Settings > Community): ``preferred_locale``
    preferred_locale: str = "en-US"

    @property
    def everyone(self) -> SandboxRole:
        return self.roles[self.id]

    def channel(self, name: str) -> SandboxChannel:
        for channel in self.channels.values():
            if channel.name == name:
                return channel
        raise KeyError(f"no channel named {name!r} in guild {self.name!r}")

    def role(self, name: str) -> SandboxRole:
        for role in self.roles.values():
            if role.name == name:
                return role
        raise KeyError(f"no role named {name!r} in guild {self.name!r}")

    def member(self, name: str) -> SandboxMember:
        for member in self.members.values():
            if name in (member.user.username, member.display_name):
                return member
        raise KeyError(f"no member named {name!r} in guild {self.name!r}")

    def permissions_of(self, member: SandboxMember) -> int:
        """Guild-level permissions, computed the way Discord does (owner and admin get all)."""
        if member.id == self.owner_id:
            return ALL_PERMISSIONS
        value = self.everyone.permissions
        for role_id in member.roles:
            role = self.roles.get(role_id)
            if role is not None:
                value |= role.permissions
        if value & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return value

    def permissions_in(self, channel: SandboxChannel, member: SandboxMember) -> int:
        """Permissions in ``channel``, computed the way Discord does: the guild permissions,
        then the @everyone overwrite, the member's roles' overwrites (denies, then allows),
        the member's own overwrite; without View Channel there is nothing."""
        base = self.permissions_of(member)
        if base & ADMINISTRATOR or member.id == self.owner_id:
            return ALL_PERMISSIONS
        _, allow, deny = channel.overwrites.get(self.id, (0, 0, 0))
        base = (base & ~deny) | allow
        role_allow = role_deny = 0
        for role_id in member.roles:
            _, allow, deny = channel.overwrites.get(role_id, (0, 0, 0))
            role_allow |= allow
            role_deny |= deny
        base = (base & ~role_deny) | role_allow
        _, allow, deny = channel.overwrites.get(member.id, (1, 0, 0))
        base = (base & ~deny) | allow
        if not base & VIEW_CHANNEL:
            return 0
        return base

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "unavailable": False,
            "owner_id": str(self.owner_id),
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "features": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": self.preferred_locale,
            "system_channel_id": None,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "large": False,
            "member_count": len(self.members),
            "joined_at": iso_now(),
            "roles": [r.payload() for r in self.roles.values()],
            "channels": [c.payload() for c in self.channels.values() if not c.is_thread],
            "members": [m.payload() for m in self.members.values()],
            "threads": [c.payload() for c in self.channels.values()
                        if c.is_thread and not c.archived],
            "emojis": [],
            "stickers": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


def application_payload(app_id: int, owner: SandboxUser, name: str) -> dict[str, Any]:
    return {
        "id": str(app_id),
        "name": name,
        "description": "swissbot sandbox application",
        "icon": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": owner.payload(),
        "verify_key": "0" * 64,
        "flags": 0,
        "interactions_endpoint_url": None,
    }
