"""What every cog needs: the acting member as an ``Actor``, autocomplete, and replies.

Cogs stay thin: parse options, build the Actor, call one service method, render, answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.client import wake_delivery
from bot.errors import UserFacingError
from bot.lifecycle import deferred_reply
from bot.permissions import missing_permissions
from bot.render.limits import fit_content
from bot.render.message import Outgoing, allowed_mentions
from i18n import _, ngettext
from service import Actor
from service.limits import MAX_PLAYER_REF, MAX_TOURNAMENT_REF
from service.validation import parse_tournament_id

if TYPE_CHECKING:
    from bot.client import SwissBot

MAX_CHOICES = 25
# The string options naming a tournament or a player, bounded like the service's own limits.
TournamentOption = app_commands.Range[str, 1, MAX_TOURNAMENT_REF]
PlayerOption = app_commands.Range[str, 1, MAX_PLAYER_REF]
TOURNAMENT_HELP = "Which tournament (default: this thread's or channel's, or the one you play in)"
PLAYER_HELP = "The player: @mention, user id, pairing number (#3) or a guest's name"


def service_of(interaction: discord.Interaction) -> Any:
    client: SwissBot = interaction.client  # type: ignore[assignment]
    return client.service


def guild_id_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise UserFacingError(_("swissbot's commands work in a server, not in direct "
                                "messages."))
    return interaction.guild_id


def is_manager(interaction: discord.Interaction) -> bool:
    """Manage Server or Administrator in this guild, or the guild's owner: who may decide who
    organises. (Discord already gives the owner every permission; the explicit check keeps
    that true should a payload ever say otherwise.)"""
    permissions = interaction.permissions
    if permissions.manage_guild or permissions.administrator:
        return True
    guild = interaction.guild
    return guild is not None and guild.owner_id == interaction.user.id


async def is_organiser(interaction: discord.Interaction) -> bool:
    """A manager (see :func:`is_manager`), or a member with the guild's organiser role."""
    if is_manager(interaction):
        return True
    member = interaction.user
    if not isinstance(member, discord.Member):
        return False
    settings = await service_of(interaction).get_guild_settings(guild_id_of(interaction))
    role_id = settings.organiser_role_id
    return role_id is not None and any(role.id == role_id for role in member.roles)


async def actor_of(interaction: discord.Interaction) -> Actor:
    """The member acting, as the service sees them."""
    return Actor(
        user_id=interaction.user.id,
        guild_id=guild_id_of(interaction),
        display_name=interaction.user.display_name,
        is_organiser=await is_organiser(interaction),
        is_manager=is_manager(interaction),
        # entry conditions (a required role) are checked by the service
        roles=frozenset(r.id for r in getattr(interaction.user, "roles", ())),
        # a pairing run keeps it: a bot restarted after a crash still answers the command
        reply=deferred_reply(interaction),
    )


def tournament_ref(value: str | None) -> int | str | None:
    """The ``tournament`` option: autocomplete sends the id; a typed name is passed as is."""
    if value is None or not value.strip():
        return None
    value = value.strip()
    tid = parse_tournament_id(value)  # ASCII digits in range only: "²" is a name, not an id
    return value if tid is None else tid


def channels_of(interaction: discord.Interaction) -> list[int]:
    """Where the command was used, the innermost first: the thread, then its parent."""
    channels = [] if interaction.channel_id is None else [interaction.channel_id]
    parent = getattr(interaction.channel, "parent_id", None)
    if isinstance(parent, int) and parent not in channels:
        channels.append(parent)
    return channels


async def event_of(
    interaction: discord.Interaction, tournament: str | None, purpose: str = "play"
) -> int | str | None:
    """The ``tournament`` option, or, left out, the event the command means
    (``service.resolve``: the game thread, the event's channel, the events the member plays
    in; ``purpose`` "join" or "organise" as the command does). None: nothing tells, the
    operation's own default applies. Several candidates: the member is asked, by name."""
    named = tournament_ref(tournament)
    if named is not None or interaction.guild_id is None:
        return named
    return await service_of(interaction).resolve_tournament(
        interaction.guild_id, interaction.user.id, channels_of(interaction), purpose)


async def tournament_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Tournaments of this guild whose name contains what was typed; open ones first."""
    if interaction.guild_id is None:
        return []
    infos = await service_of(interaction).list_tournaments(
        interaction.guild_id, include_closed=True
    )
    needle = current.strip().lower()
    matches = [t for t in infos if needle in t.name.lower()]
    matches.sort(key=lambda t: (t.status in ("finished", "cancelled"), -t.id))
    return [
        app_commands.Choice(name=f"{t.name} ({t.status})"[:100], value=str(t.id))
        for t in matches[:MAX_CHOICES]
    ]


async def player_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Players of the chosen (or the only open) tournament, offered as ``#number`` or name."""
    if interaction.guild_id is None:
        return []
    try:
        tournament = await event_of(
            interaction, getattr(interaction.namespace, "tournament", None), "organise")
        players = await service_of(interaction).list_players(interaction.guild_id, tournament)
    except Exception:  # no tournament yet, or several: no suggestions rather than an error
        return []
    needle = current.strip().lower().lstrip("#")
    choices = []
    for player in players:
        label = player.name if player.number is None else f"{player.name} (#{player.number})"
        if needle and needle not in label.lower():
            continue
        value = f"#{player.number}" if player.number is not None else player.name
        if player.number is None and player.user_id is not None:
            value = f"<@{player.user_id}>"
        choices.append(app_commands.Choice(name=label[:100], value=value[:100]))
        if len(choices) == MAX_CHOICES:
            break
    return choices


def player_ref(value: str) -> str:
    """A player option: a mention, a user id, ``#3`` or a guest's name. The service parses it
    (``service.validation.parse_player_ref``) and refuses malformed ids in words."""
    value = value.strip()
    if not value:
        raise UserFacingError(_("Name a player: a @mention, a pairing number like #3, or a "
                                "name."))
    return value


async def answer(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    embeds: Sequence[discord.Embed] = (),
    ephemeral: bool = False,
    view: discord.ui.View | None = None,
    mention_users: Sequence[int] = (),
    file: discord.File | None = None,
    files: Sequence[discord.File] = (),
) -> None:
    """Reply (or follow up after a defer) without pinging anyone not listed."""
    kwargs: dict[str, Any] = {
        "ephemeral": ephemeral,
        "allowed_mentions": allowed_mentions(mention_users),
    }
    if content:
        kwargs["content"] = fit_content(content)
    if embeds:
        kwargs["embeds"] = list(embeds)
    if view is not None:
        kwargs["view"] = view
    if file is not None:
        kwargs["file"] = file
    if files:
        kwargs["files"] = list(files)
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


async def answer_outgoing(
    interaction: discord.Interaction, messages: Sequence[Outgoing], *, ephemeral: bool = False
) -> None:
    """Send rendered messages as the reply and follow-ups."""
    for outgoing in messages:
        kwargs = outgoing.send_kwargs()
        kwargs["ephemeral"] = ephemeral
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)


async def thinking(interaction: discord.Interaction, *, ephemeral: bool = False) -> None:
    """Defer: Discord wants an answer within 3 s, pairing a big round may take longer.

    The defer decides whether the answer is private: organiser commands defer ephemerally so
    that a refusal is never shown to the whole channel (their public output is the outbox)."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)


def announced(interaction: discord.Interaction) -> None:
    """The service queued announcements: post them now (and tell this command's user if
    Discord refuses them)."""
    delivery = getattr(interaction.client, "delivery", None)
    if delivery is not None:
        delivery.watch(interaction)
    wake_delivery(interaction.client)


async def require_channel_permissions(
    interaction: discord.Interaction, channel_id: int | None
) -> None:
    """Refuse (before anything changes) when the bot cannot post announcements in the
    tournament's channel: otherwise the command says success and every post fails with 403."""
    guild = interaction.guild
    if guild is None:
        return
    if channel_id is None:
        settings = await service_of(interaction).get_guild_settings(guild.id)
        channel_id = settings.default_channel_id
        if channel_id is None:
            return  # announcements have no channel: the outbox records it
    channel = guild.get_channel(channel_id)
    if channel is None:
        raise UserFacingError(_(
            "I cannot find the announcement channel <#{channel}>: it was deleted or I cannot "
            "see it. Choose another channel (the `channel` option of `/tournament create`).",
            channel=channel_id))
    missing = missing_permissions(channel)
    if missing:
        raise UserFacingError(ngettext(
            "I cannot post in {channel}: I am missing the {permissions} permission there. Ask "
            "a server admin to allow it for my role in the channel's settings (Permissions), "
            "then try again.",
            "I cannot post in {channel}: I am missing the {permissions} permissions there. Ask "
            "a server admin to allow them for my role in the channel's settings (Permissions), "
            "then try again.", len(missing), channel=channel.mention,
            permissions=", ".join(missing)))


async def posting_in_its_channel(
    interaction: discord.Interaction, tournament: str | None
) -> tuple[Actor, Any, Any]:
    """The start of an organiser command that posts a round in the event's channel: who
    asks, "thinking..." (privately: errors must stay private), the service, and the event,
    whose channel must let the bot post (checked before anything changes)."""
    actor = await actor_of(interaction)
    await thinking(interaction, ephemeral=True)
    service = service_of(interaction)
    info = await service.tournament_info(actor.guild_id,
                                         await event_of(interaction, tournament, "organise"))
    await require_channel_permissions(interaction, info.channel_id)
    return actor, service, info


def channel_text(channel_id: int | None) -> str:
    return f"<#{channel_id}>" if channel_id else _("the tournament channel")
