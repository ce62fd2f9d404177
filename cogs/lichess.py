"""``/lichess``: link a Lichess account, play an event on Lichess (docs/lichess.md)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.lichess.web import callback_url
from bot.render import lichess as render
from bot.web.links import live_pages_on
from cogs.common import (
    TournamentOption,
    actor_of,
    answer,
    event_of,
    guild_id_of,
    service_of,
    thinking,
    tournament_autocomplete,
)
from service.lichess_api import SPEEDS
from service.limits import MAX_CLOCK_TEXT, MAX_LICHESS_USERNAME_TEXT


class LichessCog(commands.Cog):
    """Lichess accounts and events played on Lichess."""

    lichess = app_commands.Group(name="lichess", description="Lichess accounts and events",
                                 guild_only=True)

    @lichess.command(name="link", description="Prove a Lichess account is yours")
    @app_commands.describe(username="Your Lichess username (then a code goes in your profile); "
                                    "leave empty to approve on Lichess when the bot offers it")
    async def link(self, interaction: discord.Interaction,
                   username: app_commands.Range[str, 1, MAX_LICHESS_USERNAME_TEXT] | None = None,
                   ) -> None:
        await thinking(interaction, ephemeral=True)  # Lichess may take a moment
        service = service_of(interaction)
        actor = await actor_of(interaction)
        settings = interaction.client.settings  # type: ignore[attr-defined]
        if username is None and live_pages_on(interaction.client):
            start = await service.lichess_oauth_start(actor, callback_url(settings.public_url))
            await answer(interaction, render.oauth_start(start), ephemeral=True)
            return
        if username is None:
            await answer(interaction, "Give your Lichess username: `/lichess link "
                                      "username:<name>`; I then give you a code to put in "
                                      "your Lichess profile.", ephemeral=True)
            return
        view = await service.lichess_link_code(actor, username)
        await answer(interaction, render.link_code(view), ephemeral=True)

    @lichess.command(name="verify", description="Finish linking: I read the code in your "
                                                "Lichess profile")
    async def verify(self, interaction: discord.Interaction) -> None:
        await thinking(interaction, ephemeral=True)
        link = await service_of(interaction).lichess_verify(await actor_of(interaction))
        await answer(interaction, render.linked(link.username), ephemeral=True)

    @lichess.command(name="unlink", description="Remove the link to your Lichess account")
    async def unlink(self, interaction: discord.Interaction) -> None:
        link = await service_of(interaction).lichess_unlink(await actor_of(interaction))
        await answer(interaction, f"Unlinked from the Lichess account {link.username}.",
                     ephemeral=True)

    @lichess.command(name="links", description="Organisers: who is linked to which account")
    async def links(self, interaction: discord.Interaction) -> None:
        view = await service_of(interaction).lichess_links(await actor_of(interaction))
        await answer(interaction, render.links(view), ephemeral=True)

    @lichess.command(name="event", description="Organisers: play the event on Lichess")
    @app_commands.describe(
        clock="minutes+increment, like 3+2", speed="the rating that counts (default: the "
        "clock's own speed)", rated="rated games on Lichess", enabled="false: not on Lichess",
        tournament="default: the open one")
    @app_commands.choices(speed=[app_commands.Choice(name=s, value=s) for s in SPEEDS])
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def event(self, interaction: discord.Interaction,
                    clock: app_commands.Range[str, 1, MAX_CLOCK_TEXT],
                    speed: str | None = None, rated: bool = True, enabled: bool = True,
                    tournament: TournamentOption | None = None) -> None:
        view = await service_of(interaction).lichess_event(
            await actor_of(interaction), await event_of(interaction, tournament, "organise"),
            clock=clock, speed=speed, rated=rated, enabled=enabled)
        await answer(interaction, render.event(view, tournament), ephemeral=True)

    @lichess.command(name="ratings", description="The Lichess ratings the players entered with")
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def ratings(self, interaction: discord.Interaction,
                      tournament: TournamentOption | None = None) -> None:
        rows = await service_of(interaction).lichess_ratings(
            guild_id_of(interaction), await event_of(interaction, tournament, "organise"))
        await answer(interaction, render.ratings(rows), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LichessCog())
