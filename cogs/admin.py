"""``/admin ...``: organiser tools. The service refuses non-organisers with a clear message."""

from __future__ import annotations

import re
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserFacingError
from bot.render.format import plain
from cogs.common import (
    PLAYER_HELP,
    TOURNAMENT_HELP,
    PlayerOption,
    TournamentOption,
    actor_of,
    announced,
    answer,
    player_autocomplete,
    player_ref,
    service_of,
    tournament_autocomplete,
    tournament_ref,
)
from service.limits import (
    MAX_RATING,
    MAX_ROUNDS,
    MIN_RATING,
    MIN_ROUNDS,
)

_MENTION = re.compile(r"^<@!?(\d+)>$")


class AdminCog(commands.Cog):
    admin = app_commands.Group(
        name="admin", description="Organiser tools", guild_only=True
    )

    @admin.command(name="organiser-role", description="Set the role whose members are organisers")
    @app_commands.describe(role="Members with this role run tournaments (as does Manage Server)")
    async def organiser_role(self, interaction: discord.Interaction, role: discord.Role) -> None:
        await service_of(interaction).set_organiser_role(await actor_of(interaction), role.id)
        await answer(interaction, f"Organisers are now members with {role.mention} "
                     "(and anyone with Manage Server).", ephemeral=True)

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
        text = member_or_name.strip()
        user_id: int | None = None
        name = text
        if match := _MENTION.match(text):
            user_id = int(match.group(1))
            name = await _member_name(interaction, user_id)
        player = await service_of(interaction).add_player(
            actor, name, tournament=tournament_ref(tournament), user_id=user_id, rating=rating
        )
        who = f"<@{player.user_id}>" if player.user_id else f"**{plain(player.name)}** (guest)"
        await answer(interaction, f"Added {who}.", ephemeral=True)

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

    @admin.command(name="drop", description="Withdraw a player from the next rounds")
    @app_commands.describe(player=PLAYER_HELP, tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(player=player_autocomplete, tournament=tournament_autocomplete)
    async def drop(
        self,
        interaction: discord.Interaction,
        player: PlayerOption,
        tournament: TournamentOption | None = None,
    ) -> None:
        dropped = await service_of(interaction).drop_player(
            await actor_of(interaction), player_ref(player), tournament_ref(tournament)
        )
        announced(interaction)
        await answer(interaction, f"**{plain(dropped.name)}** is withdrawn.", ephemeral=True)


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
