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

from bot import metrics
from bot.render.limits import fit_content
from i18n import N_, _, current, language_of, speaking
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


def _unwrapped(error: BaseException) -> BaseException:
    """The error a command raised, out of discord.py's wrappers."""
    original = error
    while isinstance(original, app_commands.CommandInvokeError | app_commands.TransformerError):
        inner = original.__cause__ if isinstance(original, app_commands.TransformerError) else (
            original.original
        )
        if inner is None:
            break
        original = inner
    return original


def refusal_code(error: BaseException) -> str:
    """A stable, bounded name for a refusal (the metrics' label): the service's code, or the
    kind of check that refused."""
    original = _unwrapped(error)
    code = getattr(original, "code", None)
    if isinstance(code, str) and code:
        return code
    if isinstance(original, app_commands.TransformerError):
        return "bad_option"
    if isinstance(original, app_commands.CheckFailure):
        return "check_failed"
    return "refused"


def user_message(error: BaseException) -> str | None:
    """The text to show the user for an expected refusal, or None for a bug."""
    original = _unwrapped(error)
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
        return _("I could not understand {value} for that option.", value=echo(original.value))
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
    """The one place command and component errors end up: told in the member's language."""
    with speaking(interaction.locale):
        await _report_error(interaction, error, where)


async def _report_error(interaction: discord.Interaction, error: BaseException, where: str) -> None:
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
        _("Something went wrong on my side (error id `{incident}`). "
          "Please tell an organiser; the id is in the bot's log.", incident=incident),
    )


SHUTTING_DOWN = N_(
    "swissbot is shutting down for a moment (a restart or an update): nothing was done. "
    "Run the command again in a minute."
)


def unknown_choice(interaction: discord.Interaction) -> str | None:
    """Discord only offers an option's declared choices, but does not stop a modified client
    from sending anything, and discord.py passes the value on as it came: refuse one that is
    not a choice here, for every command at once (a cog would otherwise read a junk ``dm``
    value as "off"). None when every choice option holds one of its choices."""
    try:
        command = interaction.command
        namespace = interaction.namespace
    except Exception:  # an unknown command: discord.py answers that case itself
        return None
    if not isinstance(command, app_commands.Command):
        return None
    for parameter in command.parameters:
        if not parameter.choices:
            continue
        value = getattr(namespace, parameter.display_name, None)
        if value is None:
            continue  # not given: the default applies
        allowed = [choice.value for choice in parameter.choices]
        if value not in allowed:
            names = ", ".join(str(choice.name) for choice in parameter.choices[:25])
            shown = discord.utils.escape_markdown(echo(value), as_needed=True)
            return fit_content(_(
                "{value} is not a choice for `{option}`: choose one of {choices}.",
                value=shown, option=parameter.display_name, choices=names))
    return None


class SwissTree(app_commands.CommandTree):
    """The command tree: errors go through :func:`report_error` instead of a bare log line;
    while the bot shuts down, new commands are refused (see ``SwissBot.shutdown``); a value
    that is not one of an option's choices is refused (:func:`unknown_choice`)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        # Everything this command says to its member is in his Discord client's language
        # (the check runs in the task that then runs the command and its error handler).
        current.set(language_of(interaction.locale))
        command = interaction.type is discord.InteractionType.application_command
        if command:
            metrics.command_started(interaction)
        if getattr(interaction.client, "shutting_down", False):
            if command:
                metrics.command_finished(interaction, "refused", "shutting_down")
                await send_ephemeral(interaction, _(SHUTTING_DOWN))
            return False  # autocomplete gets no suggestions rather than a half-served answer
        if command:
            problem = unknown_choice(interaction)
            if problem is not None:
                metrics.command_finished(interaction, "refused", "not_a_choice")
                await send_ephemeral(interaction, problem)
                return False
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        command = interaction.command
        where = f"/{command.qualified_name}" if command is not None else "the command tree"
        if user_message(error) is not None:
            metrics.command_finished(interaction, "refused", refusal_code(error))
        else:
            metrics.command_finished(interaction, "error")
        await report_error(interaction, error, where)
