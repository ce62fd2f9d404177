"""Player commands: ``/join``, ``/leave``, ``/checkin``, ``/report``; and ``/result set``."""

from __future__ import annotations

import dataclasses
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.render import tournament as render
from bot.render.format import discord_timestamp, plain
from cogs.common import (
    TOURNAMENT_HELP,
    PlayerOption,
    TournamentOption,
    actor_of,
    announced,
    answer,
    event_of,
    player_autocomplete,
    player_ref,
    service_of,
    thinking,
    tournament_autocomplete,
)
from cogs.views import (
    DYNAMIC_ITEMS,
    close_settled_prompts,
    leave_button,
    remember_prompt,
    report_buttons,
)
from i18n import _
from service import NotRegisteredError, WaitingView
from service.limits import (
    MAX_GAMES_IN_MATCH,
    MAX_RATING,
    MAX_ROUNDS,
    MIN_GAMES_IN_MATCH,
    MIN_RATING,
    MIN_ROUNDS,
    PLAYOFF_ROUNDS,
)


class PlayCog(commands.Cog):
    """What players do, plus the organiser's result override."""

    result = app_commands.Group(
        name="result", description="Organiser result commands", guild_only=True
    )
    bye = app_commands.Group(
        name="bye", description="Ask for a bye (an organiser approves)", guild_only=True
    )

    @app_commands.command(name="join", description="Join the tournament")
    @app_commands.guild_only()
    @app_commands.describe(rating="Your rating, used for seeding", tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def join(
        self,
        interaction: discord.Interaction,
        rating: app_commands.Range[int, MIN_RATING, MAX_RATING] | None = None,
        tournament: TournamentOption | None = None,
    ) -> None:
        player = await service_of(interaction).join(
            await actor_of(interaction), await event_of(interaction, tournament, "join"),
            rating=rating
        )
        if isinstance(player, WaitingView):
            await answer(
                interaction,
                _("**{name}** is full: you are on the waitlist (position {position}). You will "
                  "be told when a place is free.", name=plain(player.tournament_name),
                  position=player.position),
                ephemeral=True,
            )
            return
        late = (" " + _("You join in round {round}.", round=player.joined_round)
                if player.joined_round > 1 else "")
        await answer(interaction, "✅ " + _("{member} joined.", member=interaction.user.mention)
                     + late, mention_users=())

    @app_commands.command(name="leave", description="Leave (or withdraw from) the tournament")
    @app_commands.guild_only()
    @app_commands.describe(tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def leave(
        self,
        interaction: discord.Interaction,
        tournament: TournamentOption | None = None,
    ) -> None:
        actor = await actor_of(interaction)
        service = service_of(interaction)
        info = await service.tournament_info(actor.guild_id,
                                             await event_of(interaction, tournament))
        if info.status == "running":
            # after the start leaving is a drop: the player confirms, an organiser decides
            await answer(
                interaction,
                _("Leave **{name}**? After the start this is a drop: you would not be paired "
                  "again (your games stay). An organiser approves it.", name=plain(info.name)),
                ephemeral=True, view=leave_button(info.id, actor.user_id),
            )
            return
        try:
            player = await service.leave(actor, info.id)
        except NotRegisteredError as not_registered:
            try:
                waiting = await service.leave_waitlist(actor, info.id)
            except NotRegisteredError:
                raise not_registered from None  # neither a player nor waiting
            name = plain(waiting.tournament_name)
            await answer(interaction, _("You left the waitlist of **{name}**.", name=name),
                         ephemeral=True)
            return
        announced(interaction)  # his place may have gone to the first waiting player
        member = interaction.user.mention
        await answer(interaction, _("{member} withdrew.", member=member)
                     if player.status == "withdrawn" else _("{member} left.", member=member))

    @bye.command(name="request", description="Ask for a bye in a coming round")
    @app_commands.describe(round="The round (default: the next one)",
                           kind="half or zero point, as the event allows (default half)",
                           tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def bye_request(
        self,
        interaction: discord.Interaction,
        round: app_commands.Range[int, MIN_ROUNDS, MAX_ROUNDS] | None = None,
        kind: Literal["half", "zero"] = "half",
        tournament: TournamentOption | None = None,
    ) -> None:
        actor = await actor_of(interaction)
        request = await service_of(interaction).request_bye(
            dataclasses.replace(actor, is_organiser=False),  # his own request: approved later
            round, kind=kind, tournament=await event_of(interaction, tournament))
        await answer(interaction, _(
            "Your {kind} bye request for round {round} is filed: an organiser will approve or "
            "deny it, and you will be told.", kind=_(request.kind), round=request.round),
            ephemeral=True)

    @bye.command(name="cancel", description="Withdraw your bye request")
    @app_commands.describe(round="The round (default: the next one)", tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def bye_cancel(
        self,
        interaction: discord.Interaction,
        round: app_commands.Range[int, MIN_ROUNDS, MAX_ROUNDS] | None = None,
        tournament: TournamentOption | None = None,
    ) -> None:
        request = await service_of(interaction).cancel_bye_request(
            await actor_of(interaction), round, tournament=await event_of(interaction, tournament))
        await answer(interaction, _("Your bye request for round {round} is withdrawn.",
                                    round=request.round), ephemeral=True)

    @app_commands.command(name="checkin", description="Confirm you are here to play")
    @app_commands.guild_only()
    @app_commands.describe(tournament=TOURNAMENT_HELP)
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def checkin(
        self, interaction: discord.Interaction, tournament: TournamentOption | None = None
    ) -> None:
        await service_of(interaction).check_in(
            await actor_of(interaction), await event_of(interaction, tournament)
        )
        await answer(interaction, _("✅ You are checked in."), ephemeral=True)

    @app_commands.command(name="report", description="Report the result of your game")
    @app_commands.guild_only()
    @app_commands.describe(
        result="Your result; noshow: your opponent did not come; object: you are here "
        "(against a no-show claim)",
        my_games="Games you won in the match (optional, e.g. 2 in a 2-1)",
        their_games="Games your opponent won in the match (optional)",
        tournament=TOURNAMENT_HELP,
    )
    @app_commands.autocomplete(tournament=tournament_autocomplete)
    async def report(
        self,
        interaction: discord.Interaction,
        result: Literal["win", "draw", "loss", "noshow", "object"],
        my_games: app_commands.Range[int, MIN_GAMES_IN_MATCH, MAX_GAMES_IN_MATCH] | None = None,
        their_games: app_commands.Range[int, MIN_GAMES_IN_MATCH, MAX_GAMES_IN_MATCH] | None = None,
        tournament: TournamentOption | None = None,
    ) -> None:
        if result in ("noshow", "object"):
            await self._noshow(interaction, result, tournament)
            return
        outcome = await service_of(interaction).report_result(
            await actor_of(interaction),
            result,
            tournament=await event_of(interaction, tournament),
            my_games=my_games,
            their_games=their_games,
        )
        announced(interaction)
        prompt = render.report_prompt(outcome)
        if outcome.status == "awaiting_confirmation":
            await answer(
                interaction,
                prompt.content,
                embeds=prompt.embeds,
                view=report_buttons(outcome.game.id),
                mention_users=prompt.mention_users,
            )
            await remember_prompt(interaction, outcome.game.id)
        else:
            await answer(interaction, render.report_answer(outcome), embeds=prompt.embeds)
            # the opponent's prompt, answered by this report: disable its buttons
            await close_settled_prompts(interaction)

    async def _noshow(
        self, interaction: discord.Interaction, what: str, tournament: str | None
    ) -> None:
        """``/report noshow`` claims; ``/report object`` answers a claim. The channel is told
        (and the opponent pinged, with an "I am here" button) by the announcement."""
        service = service_of(interaction)
        actor = await actor_of(interaction)
        if what == "noshow":
            await thinking(interaction, ephemeral=True)  # an event on Lichess asks Lichess
            claim = await service.lichess_claim_no_show(actor,
                                                        await event_of(interaction, tournament))
            text = _("🚷 No-show claimed on board {board}. {opponent} can object until {time}; "
                     "then the game is your forfeit win.", board=claim.game.board,
                     opponent=plain(claim.opponent.name, 60),
                     time=discord_timestamp(claim.ends_at, "t"))
        else:
            claim = await service.object_no_show(
                actor, tournament=await event_of(interaction, tournament))
            text = _("🙋 Objection recorded: play your game on board {board}.",
                     board=claim.game.board)
        announced(interaction)
        await answer(interaction, text, ephemeral=True)

    @result.command(name="set", description="Set or correct a result (organisers)")
    @app_commands.describe(
        player="The player (@mention, #number or name); the result is from their side",
        round="Round number",
        result="The player's result",
        my_games="Games the player won (optional)",
        their_games="Games the opponent won (optional)",
        tournament=TOURNAMENT_HELP,
    )
    @app_commands.autocomplete(player=player_autocomplete, tournament=tournament_autocomplete)
    async def result_set(
        self,
        interaction: discord.Interaction,
        player: PlayerOption,
        round: app_commands.Range[int, MIN_ROUNDS, MAX_ROUNDS + PLAYOFF_ROUNDS],
        result: Literal["win", "draw", "loss", "forfeit_win", "forfeit_loss", "double_forfeit"],
        my_games: app_commands.Range[int, MIN_GAMES_IN_MATCH, MAX_GAMES_IN_MATCH] | None = None,
        their_games: app_commands.Range[int, MIN_GAMES_IN_MATCH, MAX_GAMES_IN_MATCH] | None = None,
        tournament: TournamentOption | None = None,
    ) -> None:
        outcome = await service_of(interaction).set_result(
            await actor_of(interaction),
            round,
            player_ref(player),
            result,
            tournament=await event_of(interaction, tournament),
            my_games=my_games,
            their_games=their_games,
        )
        announced(interaction)
        game = outcome.game
        await answer(
            interaction,
            _("Round {round}, board {board}: {white} **{result}** {black} is set.",
              round=game.round, board=game.board, white=plain(game.white.name),
              result=render.result_text(game), black=plain(game.black.name)),
            ephemeral=True,
        )
        await close_settled_prompts(interaction)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PlayCog())
    # The report buttons are registered by custom_id template, so clicks on messages sent
    # before a restart still reach us; the cog that posts them owns them.
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
