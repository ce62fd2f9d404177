"""The sandbox's world (guilds, roles, channels, members) and the waits a test uses to observe
what the bot did (requests, messages, interaction answers)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sandbox.interactions import describe
from sandbox.payloads import (
    EVERYONE_PERMISSIONS,
    SandboxChannel,
    SandboxGuild,
    SandboxMember,
    SandboxRole,
    SandboxUser,
    SnowflakeFactory,
)
from sandbox.wire import RecordedRequest, SandboxError

log = logging.getLogger(__name__)

MessageListener = Callable[[str, dict[str, Any]], None]


@dataclass
class _Failure:
    kind: str
    status: int
    times: int
    retry_after: float


class WorldMixin:
    """Building the world and waiting for the bot; part of :class:`sandbox.FakeDiscord`."""

    snowflake: SnowflakeFactory
    owner: SandboxUser
    bot_user: SandboxUser
    guilds: dict[int, SandboxGuild]
    messages: dict[int, dict[str, Any]]
    requests: list[RecordedRequest]
    interactions: dict[str, Any]
    listeners: list[MessageListener]
    dm_channels: dict[int, int]  # user id -> DM channel id
    closed_dms: set[int]  # users who do not accept DMs from the bot (403 50007)
    _failures: list[_Failure]
    _changed: asyncio.Condition

    def add_guild(
        self,
        name: str = "Sandbox Chess Club",
        *,
        players: int = 0,
        channels: Iterable[str] = ("general", "tournaments"),
        organiser_role: str = "Organisers",
        shard: int | None = None,
    ) -> SandboxGuild:
        """A guild with @everyone, an organiser role, text channels, the bot, the owner and
        ``players`` members named ``player01``, ``player02``, ... ``shard``: give it an id on
        that shard (of the sandbox's ``shard_count``)."""
        guild_id = self.snowflake()
        if shard is not None:
            count = self.shard_count  # type: ignore[attr-defined]
            if not 0 <= shard < count:
                raise SandboxError(f"no shard {shard} among {count}")
            # Move the timestamp part back to the nearest millisecond on that shard; the low
            # 22 bits (a counter) keep the id unique.
            ms = guild_id >> 22
            ms -= (ms - shard) % count
            guild_id = (ms << 22) | (guild_id & 0x3FFFFF)
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

    def bot_member(self, guild: SandboxGuild) -> SandboxMember:
        return guild.members[self.bot_user.id]

    def bot_role(self, guild: SandboxGuild) -> SandboxRole:
        """The bot's managed role (Discord creates it with the permissions the invite asked
        for; here it starts with none: the bot's permissions come from @everyone)."""
        return guild.role(self.bot_user.username)

    def bot_permissions(self, guild: SandboxGuild, channel: SandboxChannel) -> int:
        return guild.permissions_in(channel, self.bot_member(guild))

    # ------------------------------------------------------------------ permission changes
    # Each change is told to the connected bots as Discord does (CHANNEL_UPDATE,
    # GUILD_ROLE_UPDATE, CHANNEL_DELETE), so discord.py's permissions_for sees it.

    async def set_channel_permissions(
        self,
        guild: SandboxGuild,
        channel: SandboxChannel,
        target: SandboxRole | SandboxMember,
        *,
        allow: int = 0,
        deny: int = 0,
        notify: bool = True,
    ) -> None:
        """Set (replace) the overwrite of ``target`` in ``channel``; allow=deny=0 removes it.
        ``notify=False`` skips the gateway event, so the bot's cache is stale, as when the
        change races with a command that already checked the permissions."""
        kind = 1 if isinstance(target, SandboxMember) else 0
        if allow or deny:
            channel.overwrites[target.id] = (kind, allow, deny)
        else:
            channel.overwrites.pop(target.id, None)
        if notify:
            await self.dispatch("CHANNEL_UPDATE", channel.payload())  # type: ignore[attr-defined]

    async def set_role_permissions(
        self, guild: SandboxGuild, role: SandboxRole, permissions: int
    ) -> None:
        role.permissions = permissions
        await self.dispatch(  # type: ignore[attr-defined]
            "GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": role.payload()}
        )

    async def delete_channel(
        self, guild: SandboxGuild, channel: SandboxChannel, *, notify: bool = True
    ) -> None:
        guild.channels.pop(channel.id, None)
        if notify:
            await self.dispatch("CHANNEL_DELETE", channel.payload())  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ direct messages

    def direct_messages(self, user: SandboxUser | SandboxMember) -> list[dict[str, Any]]:
        """The messages the bot sent ``user`` in a DM."""
        channel_id = self.dm_channels.get(user.id)
        if channel_id is None:
            return []
        return [m for m in self.messages.values() if m["channel_id"] == str(channel_id)]

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
                f"the bot did not answer interaction {describe(interaction)} in {timeout}s"
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
