"""Destructive organiser actions ask first: a private prompt with Confirm and Cancel.

A forced ``/round next``, ``/round undo`` of a round with results, ``/tournament finish`` with
open games, ``/tournament cancel`` of an event with players and ``/admin drop`` of a player who
has played answer with what would happen (``service.preview_action``) and two buttons. The
buttons are dynamic items: the custom_id ``swissbot:sure:<action>:<tournament>:<version>:
<round>[:<player>]`` carries the state the prompt was shown for, so a click works after a
restart, and the service refuses it once that state has changed (the first click acts; a
second click, or a click on an older prompt, is refused with the reason). Who clicks is
checked again on every click. The cogs only choose between asking and acting at once; what
happens, and whether it still may, is the service's.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.errors import UserFacingError, report_error
from bot.render import confirm as render
from bot.render.message import allowed_mentions
from cogs.common import (
    actor_of,
    announced,
    answer,
    require_channel_permissions,
    service_of,
)
from cogs.views import _id as _from_id  # a forged number beyond the database's becomes 0
from cogs.views import close_settled_prompts
from service import (
    ActionPreview,
    Actor,
    ConflictError,
    NotFoundError,
    PlayerView,
    RoundView,
    StandingsView,
    TournamentInfo,
)
from service.errors import PairingBusyError, PairingFailedError, PairingInProgressError

log = logging.getLogger(__name__)

ACTIONS = "next|undo|finish|cancel|drop"

# Refused for a reason that passes (a pairing running, the pool busy): the prompt stays live.
PASSING = (PairingInProgressError, PairingBusyError, PairingFailedError)


async def run_action(
    interaction: discord.Interaction,
    action: str,
    tournament: int | str | None,
    *,
    version: int | None,
    round_number: int | None,
    player: str | None = None,
    force: bool = True,
) -> str:
    """Do ``action`` for the interaction's member, naming the state it is for, and return
    the answer's text. Announcements are posted and settled report prompts closed."""
    service = service_of(interaction)
    actor = await actor_of(interaction)
    text: str
    if action == "next":
        # the bot must be able to post the pairings (checked again: a prompt may be old)
        info = await service.tournament_info(actor.guild_id, tournament)
        await require_channel_permissions(interaction, info.channel_id)
        view: RoundView = await service.pair_next_round(
            actor, tournament, force=force, round_number=round_number, version=version)
        text = render.paired_text(view, "paired")
    elif action == "undo":
        undone: RoundView = await service.undo_round(
            actor, tournament, force=force, round_number=round_number, version=version)
        text = render.undone_text(undone)
    elif action == "finish":
        standings: StandingsView = await service.finish_tournament(
            actor, tournament, force=force, round_number=round_number, version=version)
        text = render.finished_text(standings)
    elif action == "cancel":
        cancelled: TournamentInfo = await service.cancel_tournament(actor, tournament,
                                                                     version=version)
        text = render.cancelled_text(cancelled)
    else:
        assert player is not None
        dropped: PlayerView = await service.drop_player(actor, player, tournament,
                                                        version=version)
        text = render.dropped_text(dropped)
    announced(interaction)
    if action in ("next", "undo", "finish"):  # they settle (or remove) open report prompts
        await close_settled_prompts(interaction)
    return text


async def ask_or_act(
    interaction: discord.Interaction, preview: ActionPreview, *, force: bool = True,
    player: str | None = None,
) -> None:
    """Show ``preview``'s prompt when it would destroy something; else act at once, naming
    the state it was computed from (so a repeated command still acts once)."""
    if preview.needs_confirmation:
        await answer(interaction, render.prompt_text(preview), ephemeral=True,
                     view=prompt_buttons(preview))
        return
    text = await run_action(interaction, preview.action, preview.tournament_id,
                            version=preview.version,
                            round_number=_named_round(preview.action, preview.round_number),
                            player=player, force=force)
    await answer(interaction, text, ephemeral=True)


def _named_round(action: str, number: int) -> int | None:
    """The round the action names: cancel and drop name none (the version covers them)."""
    return number if action in ("next", "undo", "finish") else None


class ConfirmButton(
    discord.ui.DynamicItem[discord.ui.Button],  # type: ignore[type-arg]
    template=(rf"swissbot:(?P<choice>sure|keep):(?P<action>{ACTIONS}):(?P<t>[0-9]+):"
              r"(?P<version>[0-9]+):(?P<round>[0-9]+)(?::(?P<player>[0-9]+))?"),
):
    """Confirm (``sure``, danger style) or Cancel (``keep``) of a destructive action's
    prompt; the custom_id is the whole state the click needs."""

    def __init__(self, choice: str, action: str, tournament_id: int, version: int,
                 round_number: int, player_number: int | None = None,
                 *, disabled: bool = False) -> None:
        parts = ["swissbot", choice, action, str(tournament_id), str(version),
                 str(round_number)]
        if player_number is not None:
            parts.append(str(player_number))
        label, style = (("Confirm", discord.ButtonStyle.danger) if choice == "sure" else
                        ("Cancel", discord.ButtonStyle.secondary))
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=":".join(parts),
                                           disabled=disabled))
        self.choice, self.action = choice, action
        self.tournament_id, self.version = tournament_id, version
        self.round_number, self.player_number = round_number, player_number

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button,  # type: ignore[type-arg]
        match: re.Match[str],
    ) -> ConfirmButton:
        player = _from_id(match["player"]) if match["player"] else None
        return cls(match["choice"], match["action"], _from_id(match["t"]),
                   _from_id(match["version"]), _from_id(match["round"]), player)

    async def callback(self, interaction: discord.Interaction) -> None:
        disabled = self._disabled_view()
        try:
            actor = await actor_of(interaction)
            _require_organiser(actor)
            if self.choice == "keep":
                await interaction.response.edit_message(
                    content=render.DISMISSED, view=disabled, allowed_mentions=allowed_mentions())
                return
            # Pairing a big round takes a while: acknowledge now, answer by editing the prompt.
            await interaction.response.defer()
            text = await run_action(
                interaction, self.action, self.tournament_id, version=self.version,
                round_number=_named_round(self.action, self.round_number),
                player=None if self.player_number is None else f"#{self.player_number}")
            await interaction.edit_original_response(
                content=text, view=disabled, allowed_mentions=allowed_mentions())
        except Exception as exc:
            await report_error(interaction, exc, f"the {self.action} confirmation")
            if isinstance(exc, ConflictError | NotFoundError) and not isinstance(exc, PASSING):
                await _disable(interaction, disabled)  # it can never apply again

    def _disabled_view(self) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        for choice in ("sure", "keep"):
            view.add_item(ConfirmButton(choice, self.action, self.tournament_id, self.version,
                                        self.round_number, self.player_number, disabled=True))
        view.stop()  # nothing to listen to: the buttons are disabled
        return view


def prompt_buttons(preview: ActionPreview) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for choice in ("sure", "keep"):
        view.add_item(ConfirmButton(choice, preview.action, preview.tournament_id,
                                    preview.version, preview.round_number,
                                    preview.player_number))
    return view


def _require_organiser(actor: Actor) -> None:
    """Checked before anything, Cancel included: the service checks its operations again."""
    if not actor.is_organiser:
        raise UserFacingError(
            "Only organisers can answer this prompt: members with the Manage Server "
            "permission or the server's organiser role.")


async def _disable(interaction: discord.Interaction, disabled: discord.ui.View) -> None:
    """The prompt's state is gone for good (the course version only grows): disable its
    buttons so nobody clicks them again. The prompt is ephemeral, so it is edited through
    the interaction, which (for a component) names the prompt's message."""
    try:
        await interaction.edit_original_response(view=disabled,
                                                 allowed_mentions=allowed_mentions())
    except discord.HTTPException:
        log.info("cannot disable the buttons of a confirmation prompt", exc_info=True)


DYNAMIC_ITEMS: tuple[Any, ...] = (ConfirmButton,)
