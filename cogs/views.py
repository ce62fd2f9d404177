"""The Confirm / Dispute buttons of a result report.

They are dynamic items: the custom_id ``swissbot:confirm:<game id>`` carries everything the
click needs, and the play cog registers the template when it loads (``add_dynamic_items``), so
buttons on messages posted before a restart keep working.
"""

from __future__ import annotations

import re

import discord

from bot.errors import report_error
from bot.render import tournament as render
from bot.render.format import plain
from bot.render.message import allowed_mentions
from cogs.common import actor_of, announced, service_of

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
            # keep the report's embed (who reported what); the content says what happened
            await interaction.response.edit_message(
                content=render.report_answer(outcome),
                view=None,
                allowed_mentions=allowed_mentions(),
            )
            announced(interaction)
        except Exception as exc:
            await report_error(interaction, exc, f"the {self.action} button")


def report_buttons(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ReportButton("confirm", game_id))
    view.add_item(ReportButton("dispute", game_id))
    return view


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
