"""``/pairings``, ``/standings`` and ``/crosstable``: what everyone may look at, answered
privately; an organiser may post the pairings or standings in the channel (``public:true``)."""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

from bot import pictures
from bot.pictures.tables import DEFAULT_TOP, crosstable_png, standings_png
from bot.render import tournament as render
from bot.render.format import plain
from bot.render.limits import fit_content
from bot.render.message import Outgoing
from cogs.common import (
    TOURNAMENT_HELP,
    TournamentOption,
    actor_of,
    answer,
    answer_outgoing,
    event_of,
    guild_id_of,
    service_of,
    thinking,
    tournament_autocomplete,
)
from i18n import N_, _
from service.limits import (
    MAX_PICTURE_TOP,
    MAX_ROUNDS,
    MIN_PICTURE_TOP,
    MIN_ROUNDS,
    PLAYOFF_ROUNDS,
)
from service.permissions import require_organiser

PUBLIC_HELP = N_("Organisers: post it in this channel for everyone (default: only you see it)")


class TablesCog(commands.Cog):
    """The pairings, standings and crosstable of an event."""

    @app_commands.command(name="pairings", description="Show a round's pairings")
    @app_commands.guild_only()
    @app_commands.describe(round="Round number (default: the current one)",
                           tournament=TOURNAMENT_HELP, public=PUBLIC_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def pairings(
        self,
        interaction: discord.Interaction,
        round: app_commands.Range[int, MIN_ROUNDS, MAX_ROUNDS + PLAYOFF_ROUNDS] | None = None,
        tournament: TournamentOption | None = None,
        public: bool = False,
    ) -> None:
        await _allow_public(interaction, public, "the pairings")
        view = await service_of(interaction).pairings(
            guild_id_of(interaction), await event_of(interaction, tournament), round
        )
        messages = render.pairings(view, mention_players=False)
        if view.state == "complete" or any(g.result != "*" for g in view.games):
            messages = render.round_results(view)
        await answer_outgoing(interaction, messages, ephemeral=not public)

    @app_commands.command(name="standings", description="Show the standings")
    @app_commands.guild_only()
    @app_commands.describe(round="After this round (default: the latest)",
                           tournament=TOURNAMENT_HELP,
                           image="Attach a picture (PNG) of the top rows and your own row",
                           crosstable="Attach a picture of the crosstable (up to 64 players)",
                           top="Rows at the top of the picture (default 10)",
                           public=PUBLIC_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def standings(
        self,
        interaction: discord.Interaction,
        round: app_commands.Range[int, 0, MAX_ROUNDS] | None = None,
        tournament: TournamentOption | None = None,
        image: bool = False,
        crosstable: bool = False,
        top: app_commands.Range[int, MIN_PICTURE_TOP, MAX_PICTURE_TOP] = DEFAULT_TOP,
        public: bool = False,
    ) -> None:
        await _allow_public(interaction, public, "the standings")
        private = not public
        service = service_of(interaction)
        view = await service.standings(guild_id_of(interaction),
                                       await event_of(interaction, tournament), round)
        if crosstable:
            await _send_crosstable(interaction, tournament, private=private)
            return
        if image:
            await thinking(interaction, ephemeral=private)  # drawing may take a moment
            server = interaction.guild.name if interaction.guild else ""
            try:
                png = await pictures.render(standings_png, view, server=server, top=top,
                                            me=interaction.user.id)
            except pictures.PictureError as exc:
                await answer_outgoing(interaction, _with_note(render.standings(view),
                                      _("No picture: {reason}.", reason=str(exc))),
                                      ephemeral=private)
                return
            name = f"standings-round-{view.after_round}.png"
            await answer(interaction, f"**{plain(view.tournament_name)}**",
                         file=discord.File(io.BytesIO(png), name), ephemeral=private)
            return
        await answer_outgoing(interaction, render.standings(view), ephemeral=private)

    @app_commands.command(name="crosstable",
                          description="A picture of who played whom (up to 64 players)")
    @app_commands.guild_only()
    @app_commands.describe(tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def crosstable(
        self,
        interaction: discord.Interaction,
        tournament: TournamentOption | None = None,
    ) -> None:
        await _send_crosstable(interaction, tournament)




async def _allow_public(interaction: discord.Interaction, public: bool, what: str) -> None:
    """``public:true`` posts in the channel for everyone: organisers only (a refusal is
    private, like every refusal)."""
    if public:
        require_organiser(await actor_of(interaction), f"post {what} in the channel")


async def _send_crosstable(
    interaction: discord.Interaction, tournament: TournamentOption | None, *,
    private: bool = True,
) -> None:
    """The crosstable as a picture (in the channel when not ``private``: an organiser's
    ``public:true``); without Pillow, or beyond 64 players, the reason, privately."""
    service = service_of(interaction)
    view = await service.crosstable(guild_id_of(interaction),
                                    await event_of(interaction, tournament))
    await thinking(interaction, ephemeral=private)
    server = interaction.guild.name if interaction.guild else ""
    try:
        png = await pictures.render(crosstable_png, view, server=server, me=interaction.user.id)
    except pictures.PictureError as exc:
        await answer(interaction, fit_content(_("No crosstable picture: {reason}.",
                                                reason=str(exc))), ephemeral=True)
        return
    await answer(interaction, f"**{plain(view.tournament_name)}**: crosstable",
                 file=discord.File(io.BytesIO(png), f"crosstable-round-{view.after_round}.png"),
                 ephemeral=private)


def _with_note(messages: list[Outgoing], note: str) -> list[Outgoing]:
    """The text table, with why there is no picture in the first message."""
    if messages:
        first = messages[0]
        first.content = fit_content(f"{note}\n{first.content}" if first.content else note)
    return messages


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TablesCog())
