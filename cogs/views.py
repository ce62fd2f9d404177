"""The Confirm / Dispute buttons of a result report.

They are dynamic items: the custom_id ``swissbot:confirm:<game id>`` carries everything the
click needs, and the play cog registers the template when it loads (``add_dynamic_items``), so
buttons on messages posted before a restart keep working.
"""

from __future__ import annotations

import re

import discord

from bot.errors import report_error
from bot.render import requests as requests_render
from bot.render import tournament as render
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


class DraftButton(
    discord.ui.DynamicItem[discord.ui.Button],  # type: ignore[type-arg]
    template=(r"swissbot:draft:(?P<action>swap|pair|bye|publish):(?P<t>[0-9]+):"
              r"(?P<version>[0-9]+)(?::(?P<a>[0-9]+))?(?::(?P<b>[0-9]+))?"),
):
    """"Apply anyway" on an edit that breaks a rule, and "Publish" on a draft. The custom_id
    names the tournament, the draft version and the players (pairing numbers), so a click on
    an old message acts on that version or is refused; it survives restarts."""

    def __init__(self, action: str, tournament_id: int, version: int,
                 players: tuple[int, ...] = ()) -> None:
        custom_id = ":".join(["swissbot", "draft", action, str(tournament_id), str(version),
                              *(str(p) for p in players)])
        label = f"Publish v{version}" if action == "publish" else "Apply anyway"
        style = discord.ButtonStyle.success if action == "publish" else \
            discord.ButtonStyle.danger
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id))
        self.action = action
        self.tournament_id = tournament_id
        self.version = version
        self.players = players

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button,  # type: ignore[type-arg]
        match: re.Match[str],
    ) -> DraftButton:
        players = tuple(int(p) for p in (match["a"], match["b"]) if p)
        return cls(match["action"], int(match["t"]), int(match["version"]), players)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            actor = await actor_of(interaction)
            service = service_of(interaction)
            refs = [f"#{p}" for p in self.players]
            if self.action == "publish":
                view = await service.publish_draft(actor, version=self.version,
                                                   tournament=self.tournament_id)
                announced(interaction)
                await interaction.response.edit_message(
                    content=f"Round {view.number} is published (draft v{self.version}).",
                    view=None, allowed_mentions=allowed_mentions())
                return
            edit_op = {"swap": service.swap_in_draft, "pair": service.pair_in_draft,
                       "bye": service.bye_in_draft}[self.action]
            edit = await edit_op(actor, *refs, version=self.version, confirm=True,
                                 tournament=self.tournament_id)
            await interaction.response.edit_message(
                content=requests_render.draft_edit(edit),
                embeds=[requests_render.draft(edit.draft)],
                view=draft_buttons(edit.draft.tournament_id, edit.draft.version),
                allowed_mentions=allowed_mentions(),
            )
        except Exception as exc:
            await report_error(interaction, exc, "the draft button")


def draft_buttons(tournament_id: int, version: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(DraftButton("publish", tournament_id, version))
    return view


def confirm_edit_button(tournament_id: int, action: str, version: int,
                        players: tuple[int, ...]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(DraftButton(action, tournament_id, version, players))
    return view


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem], ...] = (  # type: ignore[type-arg]
    ReportButton, DraftButton,
)
