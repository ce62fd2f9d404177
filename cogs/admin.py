"""``/admin ...``: organiser tools; ``/config ...``: server settings, for server managers.

The bot's own checks are the gate (the service refuses with a message that says who may run
the command). ``/config`` also carries Discord's ``default_member_permissions`` = Manage
Server, so Discord hides it from other members; ``/admin`` stays visible to everyone because a
bot cannot grant a command to the organiser role (server admins can narrow it in Server
Settings > Integrations)."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserFacingError
from bot.render.format import plain
from bot.render.ratings import rating_text
from cogs.common import (
    PLAYER_HELP,
    TOURNAMENT_HELP,
    PlayerOption,
    TournamentOption,
    actor_of,
    announced,
    answer,
    guild_id_of,
    player_autocomplete,
    player_ref,
    service_of,
    thinking,
    tournament_autocomplete,
    tournament_ref,
)
from cogs.confirm import ask_or_act
from cogs.privacy import retention_text
from service.limits import (
    MAX_RATING,
    MAX_RETENTION_DAYS,
    MAX_ROUNDS,
    MIN_RATING,
    MIN_RETENTION_DAYS,
    MIN_ROUNDS,
)
from service.validation import parse_player_ref


class AdminCog(commands.Cog):
    admin = app_commands.Group(
        name="admin", description="Organiser tools", guild_only=True
    )
    # Discord's default_member_permissions exist per top-level command only, so the
    # manager-only settings live in a group of their own.
    config = app_commands.Group(
        name="config",
        description="Server settings (Manage Server)",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @config.command(name="organiser-role", description="Set the role whose members are organisers")
    @app_commands.describe(role="Members with this role run tournaments (as does Manage Server)")
    async def organiser_role(self, interaction: discord.Interaction, role: discord.Role) -> None:
        await service_of(interaction).set_organiser_role(await actor_of(interaction), role.id)
        await answer(interaction, f"Organisers are now members with {role.mention} "
                     "(and anyone with Manage Server).", ephemeral=True)

    @config.command(name="channel", description="Set the default channel for announcements")
    @app_commands.describe(
        channel="Where tournaments without a channel of their own post (empty: clear it)"
    )
    async def channel(
        self, interaction: discord.Interaction, channel: discord.TextChannel | None = None
    ) -> None:
        await service_of(interaction).set_default_channel(
            await actor_of(interaction), channel.id if channel else None
        )
        where = channel.mention if channel else "no default channel"
        await answer(interaction, f"Default announcement channel: {where}.", ephemeral=True)

    @config.command(name="retention", description="Delete finished events after some days")
    @app_commands.describe(days="Days after an event ends before it is deleted, after a last "
                                "export is posted (0: keep events for good)")
    async def retention(
        self, interaction: discord.Interaction,
        days: app_commands.Range[int, MIN_RETENTION_DAYS, MAX_RETENTION_DAYS],
    ) -> None:
        kept = await service_of(interaction).set_retention(await actor_of(interaction), days)
        await answer(interaction, retention_text(kept), ephemeral=True)

    @config.command(name="show", description="Show the organiser role and default channel")
    async def show(self, interaction: discord.Interaction) -> None:
        settings = await service_of(interaction).get_guild_settings(guild_id_of(interaction))
        role = f"<@&{settings.organiser_role_id}>" if settings.organiser_role_id else "none"
        channel = (f"<#{settings.default_channel_id}>" if settings.default_channel_id
                   else "none")
        await answer(
            interaction,
            f"Organiser role: {role} (members with Manage Server organise too).\n"
            f"Default announcement channel: {channel}.",
            ephemeral=True,
        )

    @admin.command(name="add-player", description="Register a member or a guest")
    @app_commands.rename(member_or_name="member-or-name")
    @app_commands.describe(
        member_or_name="A @mention for a member, or a guest's name",
        rating="Rating for seeding",
        tournament=TOURNAMENT_HELP,
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def add_player(
        self,
        interaction: discord.Interaction,
        member_or_name: PlayerOption,
        rating: app_commands.Range[int, MIN_RATING, MAX_RATING] | None = None,
        tournament: TournamentOption | None = None,
    ) -> None:
        actor = await actor_of(interaction)
        service = service_of(interaction)
        text = member_or_name.strip()
        user_id: int | None = None
        name = text
        reference = parse_player_ref(text)  # refuses a 20-digit id in words, not a crash
        if reference.kind == "user":  # a @mention or a user id
            user_id = int(reference.value)
            name = await _member_name(interaction, user_id)
        elif reference.kind == "number":
            raise UserFacingError(
                f"{text[:20]} is a pairing number: add a member by @mention or a guest by name."
            )
        player = await service.add_player(
            actor, name, tournament=tournament_ref(tournament), user_id=user_id, rating=rating
        )
        who = f"<@{player.user_id}>" if player.user_id else f"**{plain(player.name)}** (guest)"
        info = await service.tournament_info(actor.guild_id, player.tournament_id)
        if player.number is not None and player.joined_round <= info.current_round:
            # he was in the event before: a re-admission after a withdrawal
            await answer(interaction, f"Re-admitted {who}: paired again from round "
                         f"{info.current_round + 1}; the rounds missed count as absences.",
                         ephemeral=True)
            return
        await answer(interaction, f"Added {who}.", ephemeral=True)

    @admin.command(name="rating", description="Set a player's rating and see the seeding it "
                                              "changes (organisers)")
    @app_commands.describe(player=PLAYER_HELP, rating="The rating (for seeding)",
                           tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(player=player_autocomplete, tournament=tournament_autocomplete)
    async def rating(
        self,
        interaction: discord.Interaction,
        player: PlayerOption,
        rating: app_commands.Range[int, MIN_RATING, MAX_RATING],
        tournament: TournamentOption | None = None,
    ) -> None:
        change = await service_of(interaction).rate_player(
            await actor_of(interaction), player_ref(player), rating, tournament_ref(tournament))
        await answer(interaction, rating_text(change), ephemeral=True)

    @admin.command(name="remove-player", description="Remove a player before the start")
    @app_commands.describe(player=PLAYER_HELP, tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(player=player_autocomplete, tournament=tournament_autocomplete)
    async def remove_player(
        self,
        interaction: discord.Interaction,
        player: PlayerOption,
        tournament: TournamentOption | None = None,
    ) -> None:
        removed = await service_of(interaction).remove_player(
            await actor_of(interaction), player_ref(player), tournament_ref(tournament)
        )
        await answer(interaction, f"Removed **{plain(removed.name)}**.", ephemeral=True)

    @admin.command(name="forbid", description="Never pair these two players together")
    @app_commands.describe(player=PLAYER_HELP, opponent=PLAYER_HELP, tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(
        player=player_autocomplete, opponent=player_autocomplete,
        tournament=tournament_autocomplete,
    )
    async def forbid(
        self,
        interaction: discord.Interaction,
        player: PlayerOption,
        opponent: PlayerOption,
        tournament: TournamentOption | None = None,
    ) -> None:
        first, second = await service_of(interaction).forbid_pair(
            await actor_of(interaction), player_ref(player), player_ref(opponent),
            tournament_ref(tournament),
        )
        await answer(
            interaction,
            f"**{plain(first.name)}** and **{plain(second.name)}** will not be paired together.",
            ephemeral=True,
        )

    @admin.command(name="bye", description="Give a player a bye in a future round")
    @app_commands.describe(
        player=PLAYER_HELP, round="The round", kind="Points for the bye (default half)",
        tournament=TOURNAMENT_HELP,
    )
    @app_commands.autocomplete(player=player_autocomplete, tournament=tournament_autocomplete)
    async def bye(
        self,
        interaction: discord.Interaction,
        player: PlayerOption,
        round: app_commands.Range[int, MIN_ROUNDS, MAX_ROUNDS],
        kind: Literal["half", "full", "zero"] = "half",
        tournament: TournamentOption | None = None,
    ) -> None:
        request = await service_of(interaction).request_bye(
            await actor_of(interaction), round, kind=kind, player=player_ref(player),
            tournament=tournament_ref(tournament),
        )
        await answer(
            interaction,
            f"**{plain(request.player.name)}** gets a {request.kind} bye in round {request.round}.",
            ephemeral=True,
        )

    @admin.command(name="approve", description="Approve a player's bye or leave request")
    @app_commands.describe(request="What the player asked for", player=PLAYER_HELP,
                           round="The round of the bye request", tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(player=player_autocomplete, tournament=tournament_autocomplete)
    async def approve(
        self, interaction: discord.Interaction, request: Literal["bye", "leave"],
        player: PlayerOption,
        round: app_commands.Range[int, MIN_ROUNDS, MAX_ROUNDS] | None = None,
        tournament: TournamentOption | None = None,
    ) -> None:
        await _decide(interaction, request, player, round, tournament, approve=True)

    @admin.command(name="deny", description="Deny a player's bye or leave request")
    @app_commands.describe(request="What the player asked for", player=PLAYER_HELP,
                           round="The round of the bye request", tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(player=player_autocomplete, tournament=tournament_autocomplete)
    async def deny(
        self, interaction: discord.Interaction, request: Literal["bye", "leave"],
        player: PlayerOption,
        round: app_commands.Range[int, MIN_ROUNDS, MAX_ROUNDS] | None = None,
        tournament: TournamentOption | None = None,
    ) -> None:
        await _decide(interaction, request, player, round, tournament, approve=False)

    @admin.command(name="drop", description="Withdraw a player from the next rounds")
    @app_commands.describe(player=PLAYER_HELP, tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(player=player_autocomplete, tournament=tournament_autocomplete)
    async def drop(
        self,
        interaction: discord.Interaction,
        player: PlayerOption,
        tournament: TournamentOption | None = None,
    ) -> None:
        actor = await actor_of(interaction)
        await thinking(interaction, ephemeral=True)  # errors must stay private
        preview = await service_of(interaction).preview_action(
            actor, "drop", tournament_ref(tournament), player=player_ref(player))
        # asks when the player has played (his games stay): else drops at once
        await ask_or_act(interaction, preview, player=player_ref(player))


async def _decide(
    interaction: discord.Interaction, request: str, player: str, round_number: int | None,
    tournament: str | None, *, approve: bool,
) -> None:
    actor = await actor_of(interaction)
    service = service_of(interaction)
    verdict = "Approved" if approve else "Denied"
    if request == "bye":
        if round_number is None:
            raise UserFacingError("Say which round the bye request is for (the round option).")
        decided = await service.decide_bye_request(
            actor, player_ref(player), round_number, approve=approve,
            tournament=tournament_ref(tournament))
        text = (f"{verdict}: **{plain(decided.player.name)}**'s {decided.kind} bye in round "
                f"{decided.round}.")
    else:
        view = await service.decide_leave_request(
            actor, player_ref(player), approve=approve, tournament=tournament_ref(tournament))
        text = f"{verdict}: **{plain(view.name)}**'s request to leave."
    announced(interaction)  # the player is told in the tournament channel
    await answer(interaction, text, ephemeral=True)


async def _member_name(interaction: discord.Interaction, user_id: int) -> str:
    guild = interaction.guild
    if guild is None:
        raise UserFacingError("This works in a server only.")
    member = guild.get_member(user_id)
    if member is None:
        try:
            member = await guild.fetch_member(user_id)
        except discord.NotFound:
            raise UserFacingError("That member is not in this server.") from None
    return member.display_name


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(AdminCog())
