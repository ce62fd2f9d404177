"""``/round ...``: pair, undo, and the draft of the next round (preview, edits, publish)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.render import requests as requests_render
from bot.render.confirm import paired_text
from cogs.common import (
    PLAYER_HELP,
    TOURNAMENT_HELP,
    PlayerOption,
    TournamentOption,
    actor_of,
    announced,
    answer,
    event_of,
    player_autocomplete,
    player_ref,
    posting_in_its_channel,
    service_of,
    thinking,
    tournament_autocomplete,
)
from cogs.confirm import ask_or_act, run_action
from cogs.views import confirm_edit_button, draft_buttons
from service import DraftEdit
from service.limits import MAX_DRAFT_VERSION, MAX_ROUNDS, MIN_ROUNDS, PLAYOFF_ROUNDS


class RoundCog(commands.Cog):
    """The round commands of organisers."""

    round = app_commands.Group(
        name="round", description="Pair or undo rounds (organisers)", guild_only=True
    )

    @round.command(name="next", description="Pair the next round (organisers)")
    @app_commands.describe(
        tournament=TOURNAMENT_HELP,
        force="Close open games: waiting reports stand, the rest become double forfeits "
              "(asks first)",
        round="Pair exactly this round, at once (without it, a forced pairing asks first)",
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def round_next(
        self,
        interaction: discord.Interaction,
        tournament: TournamentOption | None = None,
        force: bool = False,
        round: app_commands.Range[int, MIN_ROUNDS, MAX_ROUNDS + PLAYOFF_ROUNDS] | None = None,
    ) -> None:
        actor, service, info = await posting_in_its_channel(interaction, tournament)
        if round is None:  # the round it would pair, and whether that closes open games
            preview = await service.preview_action(actor, "next", info.id)
            if force and preview.needs_confirmation:
                await ask_or_act(interaction, preview)
                return
            version, round = preview.version, preview.round_number
        else:  # named explicitly: acts at once, refused unless it is the next round
            version = None
        text = await run_action(interaction, "next", info.id, force=force, version=version,
                                round_number=round)
        await answer(interaction, text)

    @round.command(name="undo", description="Remove the last round's pairings (organisers)")
    @app_commands.describe(
        tournament=TOURNAMENT_HELP,
        force="Undo even if results were entered",
        round="Undo exactly this round, at once (without it, an undo deleting results asks first)",
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def round_undo(
        self,
        interaction: discord.Interaction,
        tournament: TournamentOption | None = None,
        force: bool = False,
        round: app_commands.Range[int, MIN_ROUNDS, MAX_ROUNDS + PLAYOFF_ROUNDS] | None = None,
    ) -> None:
        actor = await actor_of(interaction)
        await thinking(interaction, ephemeral=True)  # errors must stay private
        target: int | str | None = await event_of(interaction, tournament, "organise")
        version: int | None = None
        if round is None:  # the latest round, and whether undoing it deletes results
            preview = await service_of(interaction).preview_action(actor, "undo", target)
            if preview.needs_confirmation:  # with or without force: Confirm undoes with it
                await ask_or_act(interaction, preview)
                return
            target, version, round = preview.tournament_id, preview.version, \
                preview.round_number
        text = await run_action(interaction, "undo", target, force=force, version=version,
                                round_number=round)
        await answer(interaction, text, ephemeral=True)

    # -- /round preview, draft edits, publish ------------------------------------------------

    @round.command(name="preview", description="Compute the next round without publishing it")
    @app_commands.describe(tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def round_preview(
        self, interaction: discord.Interaction, tournament: TournamentOption | None = None
    ) -> None:
        actor = await actor_of(interaction)
        await thinking(interaction, ephemeral=True)  # the draft is for organisers only
        draft = await service_of(interaction).preview_round(
            actor, await event_of(interaction, tournament, "organise"))
        await answer(interaction, embeds=[requests_render.draft(draft)], ephemeral=True,
                     view=draft_buttons(draft.tournament_id, draft.version))

    @round.command(name="draft", description="Show the draft of the next round (organisers)")
    @app_commands.describe(tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def round_draft(
        self, interaction: discord.Interaction, tournament: TournamentOption | None = None
    ) -> None:
        draft = await service_of(interaction).show_draft(
            await actor_of(interaction), await event_of(interaction, tournament, "organise"))
        view = None if draft.stale else draft_buttons(draft.tournament_id, draft.version)
        await answer(interaction, embeds=[requests_render.draft(draft)], ephemeral=True,
                     view=view)

    @round.command(name="swap", description="Exchange two players in the draft (organisers)")
    @app_commands.describe(player=PLAYER_HELP, other=PLAYER_HELP,
                           version="The draft version you are looking at",
                           tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(player=player_autocomplete, other=player_autocomplete,
                               tournament=tournament_autocomplete)
    async def round_swap(
        self, interaction: discord.Interaction, player: PlayerOption, other: PlayerOption,
        version: app_commands.Range[int, 1, MAX_DRAFT_VERSION],
        tournament: TournamentOption | None = None,
    ) -> None:
        edit = await service_of(interaction).swap_in_draft(
            await actor_of(interaction), player_ref(player), player_ref(other),
            version=version, tournament=await event_of(interaction, tournament, "organise"))
        await _answer_edit(interaction, edit)

    @round.command(name="pair", description="Put two players together in the draft (organisers)")
    @app_commands.describe(player=PLAYER_HELP, opponent=PLAYER_HELP,
                           version="The draft version you are looking at",
                           tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(player=player_autocomplete, opponent=player_autocomplete,
                               tournament=tournament_autocomplete)
    async def round_pair(
        self, interaction: discord.Interaction, player: PlayerOption, opponent: PlayerOption,
        version: app_commands.Range[int, 1, MAX_DRAFT_VERSION],
        tournament: TournamentOption | None = None,
    ) -> None:
        edit = await service_of(interaction).pair_in_draft(
            await actor_of(interaction), player_ref(player), player_ref(opponent),
            version=version, tournament=await event_of(interaction, tournament, "organise"))
        await _answer_edit(interaction, edit)

    @round.command(name="bye", description="Give a player the bye in the draft (organisers)")
    @app_commands.describe(player=PLAYER_HELP, version="The draft version you are looking at",
                           tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(player=player_autocomplete, tournament=tournament_autocomplete)
    async def round_bye(
        self, interaction: discord.Interaction, player: PlayerOption,
        version: app_commands.Range[int, 1, MAX_DRAFT_VERSION],
        tournament: TournamentOption | None = None,
    ) -> None:
        edit = await service_of(interaction).bye_in_draft(
            await actor_of(interaction), player_ref(player), version=version,
            tournament=await event_of(interaction, tournament, "organise"))
        await _answer_edit(interaction, edit)

    @round.command(name="publish", description="Publish the draft as the next round (organisers)")
    @app_commands.describe(version="The draft version to publish (shown by /round preview)",
                           tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def round_publish(
        self, interaction: discord.Interaction,
        version: app_commands.Range[int, 1, MAX_DRAFT_VERSION],
        tournament: TournamentOption | None = None,
    ) -> None:
        actor, service, info = await posting_in_its_channel(interaction, tournament)
        view = await service.publish_draft(actor, version=version, tournament=info.id)
        announced(interaction)
        await answer(interaction, paired_text(view, "paired") + f" (draft v{version})")



async def _answer_edit(interaction: discord.Interaction, edit: DraftEdit) -> None:
    """Applied: the new draft with its Publish button. Not applied: the warnings and the
    "Apply anyway" button naming the version shown (a click on a replaced one is refused)."""
    draft = edit.draft
    if edit.applied:
        buttons = draft_buttons(draft.tournament_id, draft.version)
    else:
        buttons = confirm_edit_button(draft.tournament_id, edit.action, draft.version,
                                      edit.numbers)
    await answer(interaction, requests_render.draft_edit(edit),
                 embeds=[requests_render.draft(draft)], ephemeral=True, view=buttons)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RoundCog())
