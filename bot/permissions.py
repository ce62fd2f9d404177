"""What the bot needs in a tournament's channel, and how to say what is missing.

Checked by the cogs before an operation that will post there (create, start, every round), and
by the outbox delivery when Discord answers a post with 403 (the permissions changed after the
check), so the organisers learn which permission to give instead of finding an empty channel.
"""

from __future__ import annotations

import discord

# (discord.Permissions attribute, the name Discord's client shows) for every permission a post
# of the tournament channel uses: see the channel, post, show embeds (every announcement is
# one), attach the full tables of big rounds.
ANNOUNCEMENT_PERMISSIONS = (
    ("view_channel", "View Channel"),
    ("send_messages", "Send Messages"),
    ("embed_links", "Embed Links"),
    ("attach_files", "Attach Files"),
)


def missing_permissions(channel: discord.abc.GuildChannel) -> list[str]:
    """The names of the permissions the bot lacks in ``channel`` (from the gateway's cache of
    roles and overwrites, like ``channel.permissions_for(guild.me)`` everywhere)."""
    me = channel.guild.me
    if me is None:  # not in the member cache yet: we cannot tell, Discord will
        return []
    granted = channel.permissions_for(me)
    # Discord takes every other permission away without View Channel, and Embed Links and
    # Attach Files without Send Messages: name the one that causes it, not its consequences.
    if not granted.view_channel:
        return ["View Channel"]
    if not granted.send_messages:
        return ["Send Messages"]
    return [label for attr, label in ANNOUNCEMENT_PERMISSIONS if not getattr(granted, attr)]


def channel_label(channel: discord.abc.GuildChannel | None, channel_id: int) -> str:
    """``#name`` (plain text: it is stored and shown in /tournament info and the audit log)."""
    return f"#{channel.name}" if channel is not None else f"channel {channel_id}"


def forbidden_problem(
    channel: discord.abc.GuildChannel | None, channel_id: int, error: discord.Forbidden
) -> str:
    """Why a post got 403, e.g. ``missing Send Messages in #tournaments``."""
    missing = missing_permissions(channel) if channel is not None else []
    if not missing:
        # the cache may lag behind the change that caused the 403: go by Discord's code
        missing = ["View Channel"] if error.code == 50001 else ["Send Messages or Embed Links"]
    return f"missing {', '.join(missing)} in {channel_label(channel, channel_id)}"
