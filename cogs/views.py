"""The Confirm / Dispute buttons of a result report.

They are dynamic items: the custom_id ``swissbot:confirm:<game id>`` carries everything the
click needs, and the play cog registers the template when it loads (``add_dynamic_items``), so
buttons on messages posted before a restart keep working.

The reporter's opponent or an organiser may click (the service decides). Once the result is
settled, by a click or another way (the opponent's ``/report``, ``/result set``, a forced round,
an undo), the prompt is edited: its buttons stay visible but disabled, so nobody clicks a dead
button. The service remembers where each prompt was posted (``remember_prompt``).
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.errors import report_error
from bot.render import tournament as render
from bot.render.format import plain
from bot.render.message import allowed_mentions
from cogs.common import actor_of, announced, service_of

log = logging.getLogger(__name__)

ACTIONS = {"confirm": ("Confirm", discord.ButtonStyle.success),
           "dispute": ("Dispute", discord.ButtonStyle.danger)}


class ReportButton(
    discord.ui.DynamicItem[discord.ui.Button],  # type: ignore[type-arg]
    template=r"swissbot:(?P<action>confirm|dispute):(?P<game>[0-9]+)",
):
    def __init__(self, action: str, game_id: int) -> None:
        label, style = ACTIONS[action]
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"swissbot:{action}:{game_id}")
        )
        self.action = action
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button,  # type: ignore[type-arg]
        match: re.Match[str],
    ) -> ReportButton:
        return cls(match["action"], int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        # Errors are handled here: a view's default handler would only log them.
        try:
            actor = await actor_of(interaction)
            service = service_of(interaction)
            if self.action == "confirm":
                outcome = await service.confirm_result(actor, self.game_id)
            else:
                outcome = await service.dispute_result(actor, self.game_id)
            # keep the report's embed (who reported what); the content says what happened,
            # and both buttons are disabled (the other one can no longer apply either)
            await interaction.response.edit_message(
                content=render.report_answer(outcome),
                view=answered_buttons(self.game_id),
                allowed_mentions=allowed_mentions(),
            )
            await service.close_prompt(actor.guild_id, self.game_id)
            announced(interaction)
        except Exception as exc:
            await report_error(interaction, exc, f"the {self.action} button")
            return
        await close_settled_prompts(interaction)


def report_buttons(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ReportButton("confirm", game_id))
    view.add_item(ReportButton("dispute", game_id))
    return view


def answered_buttons(game_id: int) -> discord.ui.View:
    """The same two buttons, disabled: what an answered prompt shows."""
    view = discord.ui.View(timeout=None)
    for action, (label, style) in ACTIONS.items():
        view.add_item(discord.ui.Button(label=label, style=style, disabled=True,
                                        custom_id=f"swissbot:{action}:{game_id}"))
    view.stop()  # nothing to listen to: the buttons are disabled
    return view


async def remember_prompt(interaction: discord.Interaction, game_id: int) -> None:
    """After posting a report prompt as the reply: note where it is, so that it can be closed
    when the result is settled another way."""
    try:
        message = await interaction.original_response()
        await service_of(interaction).remember_prompt(
            interaction.guild_id, game_id, message.channel.id, message.id
        )
    except Exception:  # the prompt still works; only its later clean-up is lost
        log.warning("cannot remember the report prompt of game %s", game_id, exc_info=True)


async def close_settled_prompts(source: discord.Interaction | Any) -> int:
    """Disable the buttons of every open prompt of the guild whose result is settled (or whose
    round was undone) by editing the message. Called after the commands that can settle a
    result; never fails the command (it has answered already). Returns how many were closed."""
    guild_id = getattr(source, "guild_id", None)
    client: Any = getattr(source, "client", None)
    if guild_id is None or client is None:
        return 0
    service = client.service
    closed = 0
    try:
        prompts = await service.settled_prompts(guild_id)
    except Exception:
        log.warning("cannot list the settled report prompts", exc_info=True)
        return 0
    for prompt in prompts:
        try:
            channel = client.get_channel(prompt.channel_id) or await client.fetch_channel(
                prompt.channel_id)
            await channel.get_partial_message(prompt.message_id).edit(
                content=render.prompt_closed(prompt.game),
                view=answered_buttons(prompt.game_id),
                allowed_mentions=allowed_mentions(),
            )
        except (discord.NotFound, discord.Forbidden):
            pass  # deleted, or no longer ours to edit: nothing left to disable
        except Exception:
            log.warning("cannot close the report prompt of game %s; retrying later",
                        prompt.game_id, exc_info=True)
            continue
        try:
            if await service.close_prompt(guild_id, prompt.game_id):
                closed += 1
        except Exception:  # edited already; at worst it is edited again next time
            log.warning("cannot mark the report prompt of game %s closed", prompt.game_id,
                        exc_info=True)
    return closed



class NoShowObjectButton(
    discord.ui.DynamicItem[discord.ui.Button],  # type: ignore[type-arg]
    template=r"swissbot:noshow-object:(?P<game>[0-9]+)",
):
    """"I am here" on a no-show claim (bot.render.timers posts it with the announcement)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="I am here", style=discord.ButtonStyle.primary,
                                           custom_id=f"swissbot:noshow-object:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button,  # type: ignore[type-arg]
        match: re.Match[str],
    ) -> NoShowObjectButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            claim = await service_of(interaction).object_no_show(
                await actor_of(interaction), self.game_id)
            # The button has done its work: the claim message loses it, says what happened.
            await interaction.response.edit_message(
                content=f"🙋 {plain(claim.opponent.name, 60)} is here: the no-show claim on "
                f"board {claim.game.board} lapses.",
                view=None,
                allowed_mentions=allowed_mentions(),
            )
            announced(interaction)
        except Exception as exc:
            await report_error(interaction, exc, "the I am here button")


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem], ...] = (  # type: ignore[type-arg]
    ReportButton, NoShowObjectButton,
)
