"""``/why``, ``/tiebreak`` and the ``/decklist`` group. Every answer is ephemeral: an
explanation or a hidden decklist is for the one who asked."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.render import explain as render
from bot.render.format import discord_timestamp
from cogs.common import (
    PLAYER_HELP,
    TOURNAMENT_HELP,
    PlayerOption,
    TournamentOption,
    actor_of,
    answer,
    answer_outgoing,
    event_of,
    player_autocomplete,
    player_ref,
    service_of,
    thinking,
    tournament_autocomplete,
)
from service.limits import MAX_DECKLIST_DEADLINE_TEXT, MAX_DECKLIST_TEXT, MAX_ROUNDS, MIN_ROUNDS

DeadlineOption = app_commands.Range[str, 1, MAX_DECKLIST_DEADLINE_TEXT]


class ExplainCog(commands.Cog):
    """Explanations for players, and decklists / team lists."""

    decklist = app_commands.Group(
        name="decklist", description="Decklists / team lists", guild_only=True
    )

    @app_commands.command(name="why",
                          description="Why you got this opponent, colour or bye")
    @app_commands.guild_only()
    @app_commands.describe(round="The round (default: the current one)",
                           player="Organisers: another player", tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(player=player_autocomplete, tournament=tournament_autocomplete)
    async def why(
        self,
        interaction: discord.Interaction,
        round: app_commands.Range[int, MIN_ROUNDS, MAX_ROUNDS] | None = None,
        player: PlayerOption | None = None,
        tournament: TournamentOption | None = None,
    ) -> None:
        await thinking(interaction, ephemeral=True)
        view = await service_of(interaction).why(
            await actor_of(interaction), round,
            player=None if player is None else player_ref(player),
            tournament=await event_of(interaction, tournament),
        )
        await answer_outgoing(interaction, [render.render_why(view)], ephemeral=True)

    @app_commands.command(name="tiebreak",
                          description="How each of a player's tiebreak values was computed")
    @app_commands.guild_only()
    @app_commands.describe(player=f"{PLAYER_HELP} (default: you)", tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(player=player_autocomplete, tournament=tournament_autocomplete)
    async def tiebreak(
        self,
        interaction: discord.Interaction,
        player: PlayerOption | None = None,
        tournament: TournamentOption | None = None,
    ) -> None:
        await thinking(interaction, ephemeral=True)
        view = await service_of(interaction).tiebreak_explanation(
            await actor_of(interaction), None if player is None else player_ref(player),
            tournament=await event_of(interaction, tournament),
        )
        await answer_outgoing(interaction, [render.render_tiebreaks(view)], ephemeral=True)

    @decklist.command(name="submit", description="Submit or replace your decklist / team list")
    @app_commands.describe(
        decklist="Your list (separate entries with ;) or, for link mode, an https:// link",
        player="Organisers: submit for this player (guests)", tournament=TOURNAMENT_HELP,
    )
    @app_commands.autocomplete(player=player_autocomplete, tournament=tournament_autocomplete)
    async def submit(
        self,
        interaction: discord.Interaction,
        decklist: app_commands.Range[str, 1, MAX_DECKLIST_TEXT],
        player: PlayerOption | None = None,
        tournament: TournamentOption | None = None,
    ) -> None:
        view = await service_of(interaction).submit_decklist(
            await actor_of(interaction), decklist,
            player=None if player is None else player_ref(player),
            tournament=await event_of(interaction, tournament),
        )
        note = "✅ Decklist saved. You can replace it until submissions close."
        await answer_outgoing(interaction, [render.render_decklist(view, note=note)],
                              ephemeral=True)

    @decklist.command(name="show", description="Show a decklist (yours, or others' once "
                                                "published)")
    @app_commands.describe(player=f"{PLAYER_HELP} (default: you)", tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(player=player_autocomplete, tournament=tournament_autocomplete)
    async def show(
        self,
        interaction: discord.Interaction,
        player: PlayerOption | None = None,
        tournament: TournamentOption | None = None,
    ) -> None:
        view = await service_of(interaction).show_decklist(
            await actor_of(interaction), None if player is None else player_ref(player),
            tournament=await event_of(interaction, tournament),
        )
        await answer_outgoing(interaction, [render.render_decklist(view)], ephemeral=True)

    @decklist.command(name="publish",
                      description="Make every decklist visible to everyone (organisers)")
    @app_commands.describe(tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def publish(
        self, interaction: discord.Interaction, tournament: TournamentOption | None = None
    ) -> None:
        status = await service_of(interaction).publish_decklists(
            await actor_of(interaction), await event_of(interaction, tournament))
        await answer_outgoing(
            interaction, [render.render_decklist_status(status, title="Published")],
            ephemeral=True)

    @decklist.command(name="status", description="Who has submitted a decklist (organisers)")
    @app_commands.describe(tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def status(
        self, interaction: discord.Interaction, tournament: TournamentOption | None = None
    ) -> None:
        status = await service_of(interaction).decklist_status(
            await actor_of(interaction), await event_of(interaction, tournament))
        await answer_outgoing(interaction, [render.render_decklist_status(status)],
                              ephemeral=True)

    @decklist.command(name="setup",
                      description="Decklists for this event: none, text or link (organisers)")
    @app_commands.describe(
        mode="none, text (a typed list) or link (an https:// link)",
        deadline="When submissions close, like fri 18:00 or 2026-05-01 18:00 (default: the start)",
        tournament=TOURNAMENT_HELP,
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def setup_(
        self,
        interaction: discord.Interaction,
        mode: Literal["none", "text", "link"],
        deadline: DeadlineOption | None = None,
        tournament: TournamentOption | None = None,
    ) -> None:
        info = await service_of(interaction).edit_tournament(
            await actor_of(interaction), await event_of(interaction, tournament), decklists=mode,
            decklist_deadline=deadline,
        )
        deadline_at = info.settings.decklist_deadline
        closes = (discord_timestamp(datetime.fromisoformat(deadline_at), "F") if deadline_at
                  else "the start")
        text = (f"Decklists: **{mode}**; submissions close at {closes}." if mode != "none"
                else "This tournament takes no decklists.")
        await answer(interaction, text, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ExplainCog())
