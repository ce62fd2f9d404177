"""``/privacy export``, ``/privacy forget`` and ``/privacy forget-member`` (server managers):
a member's data on request (service.privacy).

All answer privately. A forget asks first, with buttons whose custom_id
``swissbot:forget:<choice>:<member>:<entries>[:<manager>]`` carries the state the prompt was
shown for (how many entries would be anonymised): the service refuses a click once that
changed, and a click after the forget (a double click, an old prompt) finds nothing left and
says so.
"""

from __future__ import annotations

import io
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserFacingError, report_error
from bot.render.message import allowed_mentions
from cogs.common import actor_of, answer, service_of
from cogs.views import _id as _from_id  # a forged number beyond the database's becomes 0

DISMISSED = "Nothing was forgotten."


def export_text(events: int, size: int, limit: int) -> str | None:
    """The reply's text, or None when the file does not fit ``limit`` (Discord's, bytes)."""
    if size > limit:
        return None
    where = f"{events} event{'s' if events != 1 else ''}" if events else "no event"
    return (f"🔒 Everything this bot stores about you in this server ({where}), as JSON. "
            "Only you can see this message.")


def retention_text(days: int) -> str:
    """The answer of ``/config retention``."""
    if days == 0:
        return "Finished and cancelled events are kept for good."
    return (f"Finished and cancelled events are deleted {days} day{'s' if days != 1 else ''} "
            "after they end, once their last export is posted in their channel.")


def forget_prompt(entries: int, member: int | None = None) -> str:
    """The prompt of a forget: of the member himself, or (``member``) of another one."""
    whose, who = ("your", "you") if member is None else (f"<@{member}>'s", f"<@{member}>")
    what = (f"{whose} {entries} entr{'ies' if entries != 1 else 'y'} (events and waiting "
            "lists)" if entries else f"what is stored about {who}")
    return (f"⚠️ Forget {who} in this server? The name and Discord id are removed from "
            f"{what}, from the announcements and from the logs, and the direct-message and "
            "Lichess settings are deleted. Results and standings stay, under the name "
            "\"Withdrawn player N\"; in a running event the player withdraws. This cannot "
            "be undone.")


def forget_done(pseudonym: str | None, member: int | None = None) -> str:
    who = "you" if member is None else f"<@{member}>"
    if pseudonym is None:
        return f"Nothing about {who} is stored in this server (any more)."
    return (f"🗑️ Done: {who} {'are' if member is None else 'is'} now \"{pseudonym}\" in this "
            "server's events, and nothing stored here names them.")


class ForgetButton(
    discord.ui.DynamicItem[discord.ui.Button],  # type: ignore[type-arg]
    template=(r"swissbot:forget:(?P<choice>sure|keep):(?P<member>[0-9]+):(?P<entries>[0-9]+)"
              r"(?::(?P<asker>[0-9]+))?"),
):
    """Confirm (``sure``) or Cancel (``keep``) of a forget prompt; the custom_id carries the
    member, the entries the prompt counted and, when a manager asked, who (only he may
    answer; the service checks again that he manages the server)."""

    def __init__(self, choice: str, member: int, entries: int, asker: int | None = None, *,
                 disabled: bool = False) -> None:
        label = "Forget me" if asker is None else "Forget them"
        label, style = ((label, discord.ButtonStyle.danger) if choice == "sure" else
                        ("Cancel", discord.ButtonStyle.secondary))
        custom_id = f"swissbot:forget:{choice}:{member}:{entries}"
        super().__init__(discord.ui.Button(
            label=label, style=style, disabled=disabled,
            custom_id=custom_id if asker is None else f"{custom_id}:{asker}"))
        self.choice, self.member, self.entries, self.asker = choice, member, entries, asker

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction,
        item: discord.ui.Button,  # type: ignore[type-arg]
        match: re.Match[str],
    ) -> ForgetButton:
        asker = _from_id(match["asker"]) if match["asker"] else None
        return cls(match["choice"], _from_id(match["member"]), _from_id(match["entries"]),
                   asker)

    async def callback(self, interaction: discord.Interaction) -> None:
        disabled = forget_buttons(self.member, self.entries, self.asker, disabled=True)
        try:
            if interaction.user.id != (self.member if self.asker is None else self.asker):
                raise UserFacingError("This prompt is someone else's: only they can answer it.")
            if self.choice == "keep":
                await interaction.response.edit_message(
                    content=DISMISSED, view=disabled, allowed_mentions=allowed_mentions())
                return
            await interaction.response.defer()
            other = None if self.asker is None else self.member
            outcome = await service_of(interaction).privacy_forget(
                await actor_of(interaction), other, entries=self.entries)
            await interaction.edit_original_response(
                content=forget_done(outcome.pseudonym, other), view=disabled,
                allowed_mentions=allowed_mentions())
        except Exception as exc:
            await report_error(interaction, exc, "the forget confirmation")


def forget_buttons(member: int, entries: int, asker: int | None = None, *,
                   disabled: bool = False) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for choice in ("sure", "keep"):
        view.add_item(ForgetButton(choice, member, entries, asker, disabled=disabled))
    if disabled:
        view.stop()  # nothing to listen to
    return view


class PrivacyCog(commands.Cog):
    privacy = app_commands.Group(name="privacy", description="Your data stored by this bot",
                                 guild_only=True)

    @privacy.command(name="export", description="Get everything stored about you here, "
                                                "as a JSON file (only you see it)")
    async def export(self, interaction: discord.Interaction) -> None:
        exported = await service_of(interaction).privacy_export(await actor_of(interaction))
        data = exported.content.encode("utf-8")
        text = export_text(exported.events, len(data), interaction.filesize_limit)
        if text is None:
            raise UserFacingError(
                f"Your data ({len(data) / 1024 / 1024:.1f} MB) is larger than Discord lets me "
                "attach here; ask a server manager for it.")
        await answer(interaction, text, ephemeral=True,
                     file=discord.File(io.BytesIO(data), filename=exported.filename))

    @privacy.command(name="forget", description="Remove your name and Discord id from this "
                                                "server's events (asks first)")
    async def forget(self, interaction: discord.Interaction) -> None:
        actor = await actor_of(interaction)
        summary = await service_of(interaction).privacy_summary(actor)
        if not summary.stored:
            await answer(interaction, forget_done(None), ephemeral=True)
            return
        await answer(interaction, forget_prompt(summary.entries), ephemeral=True,
                     view=forget_buttons(actor.user_id, summary.entries))

    @privacy.command(name="forget-member", description="Server managers: remove a member's "
                                                       "name and Discord id (asks first)")
    @app_commands.describe(member="The member to forget in this server")
    async def forget_member(self, interaction: discord.Interaction, member: discord.User) -> None:
        actor = await actor_of(interaction)
        # refused here for anyone but a server manager (NotManagerError)
        summary = await service_of(interaction).privacy_summary(actor, member.id)
        if not summary.stored:
            await answer(interaction, forget_done(None, member.id), ephemeral=True)
            return
        asker = None if member.id == actor.user_id else actor.user_id
        await answer(interaction, forget_prompt(summary.entries, None if asker is None
                                                else member.id), ephemeral=True,
                     view=forget_buttons(member.id, summary.entries, asker))



async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(ForgetButton)
    await bot.add_cog(PrivacyCog())
