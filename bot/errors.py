"""How command and button errors reach the user.

Refusals from the service (``ServiceError``) and failed checks are shown to the user as an
ephemeral message with their text. Anything else is a bug: it is logged at ERROR with a short
incident id, and the user sees only that id (so an organiser can quote it and we can grep it).
"""

from __future__ import annotations

import logging
import secrets

import discord
from discord import app_commands

from bot.render.limits import fit_content
from service.limits import echo

log = logging.getLogger(__name__)


class UserFacingError(Exception):
    """A refusal decided in the Discord layer (e.g. a missing permission), shown as is."""


def _service_error_type() -> type[Exception] | None:
    try:
        from service.errors import ServiceError
    except ImportError:  # the service layer is optional for the sandbox proof tests
        return None
    return ServiceError


def user_message(error: BaseException) -> str | None:
    """The text to show the user for an expected refusal, or None for a bug."""
    original = error
    while isinstance(original, app_commands.CommandInvokeError | app_commands.TransformerError):
        inner = original.__cause__ if isinstance(original, app_commands.TransformerError) else (
            original.original
        )
        if inner is None:
            break
        original = inner
    service_error = _service_error_type()
    if service_error is not None and isinstance(original, service_error):
        # A refusal quotes user text (a tournament or player name) as the service stored it:
        # its Markdown must show as typed, not format the answer ("**x**" bold, "||x||" a
        # spoiler). The service's own texts carry no Markdown to keep.
        return discord.utils.escape_markdown(str(original), as_needed=True)
    if isinstance(original, UserFacingError):
        return str(original)
    if isinstance(original, app_commands.CheckFailure) and str(original):
        return str(original)
    if isinstance(original, app_commands.TransformerError):
        return f"I could not understand {echo(original.value)} for that option."
    return None


async def send_ephemeral(interaction: discord.Interaction, text: str) -> None:
    """Answer ``interaction`` privately, whether or not it was already answered or deferred.

    The text is cut to Discord's 2,000 characters: a longer refusal would be refused by Discord
    (400) and the user would get no answer at all."""
    text = fit_content(text)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell the user about an error: %s", text)


async def report_error(interaction: discord.Interaction, error: BaseException, where: str) -> None:
    """The one place command and component errors end up."""
    text = user_message(error)
    if text is not None:
        await send_ephemeral(interaction, text)
        return
    incident = secrets.token_hex(3)
    cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    log.error(
        "unexpected error %s in %s (guild %s, user %s)",
        incident,
        where,
        interaction.guild_id,
        interaction.user.id if interaction.user else None,
        exc_info=cause,
    )
    await send_ephemeral(
        interaction,
        f"Something went wrong on my side (error id `{incident}`). "
        "Please tell an organiser; the id is in the bot's log.",
    )


SHUTTING_DOWN = (
    "swissbot is shutting down for a moment (a restart or an update): nothing was done. "
    "Run the command again in a minute."
)


class SwissTree(app_commands.CommandTree):
    """The command tree: errors go through :func:`report_error` instead of a bare log line;
    while the bot shuts down, new commands are refused (see ``SwissBot.shutdown``)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if not getattr(interaction.client, "shutting_down", False):
            return True
        if interaction.type is discord.InteractionType.application_command:
            await send_ephemeral(interaction, SHUTTING_DOWN)
        return False  # autocomplete gets no suggestions rather than a half-served answer

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        command = interaction.command
        where = f"/{command.qualified_name}" if command is not None else "the command tree"
        await report_error(interaction, error, where)
