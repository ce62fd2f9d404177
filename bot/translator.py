"""The slash commands in the member's language: discord.py's ``app_commands.Translator``.

On sync, discord.py asks the translator for every command and group name and description,
every option name and description and every choice name, once per Discord locale, and sends
the answers as ``name_localizations`` / ``description_localizations``; Discord then shows each
member the commands in his client's language. Names are looked up with a gettext context
(``command name``, ``option name``) because a name and a sentence may share the same English
text; descriptions and choices without one. ``None`` (English, a locale not shipped, a text
not translated) leaves Discord to show the English default.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from i18n import DEFAULT_LANGUAGE, language_of, translate

#: The gettext context of each kind of name (see the module docstring).
NAME_CONTEXTS = {
    Where.command_name: "command name",
    Where.group_name: "command name",
    Where.parameter_name: "option name",
}


class CatalogueTranslator(app_commands.Translator):
    """Commands, options and choices from the gettext catalogues (:mod:`i18n`)."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = language_of(locale)
        if language == DEFAULT_LANGUAGE:
            return None
        source = string.message
        text = translate(source, context=NAME_CONTEXTS.get(context.location), language=language)
        return None if text == source else text


class _Recorder(app_commands.Translator):
    """Asked exactly what the catalogue translator is asked on sync; answers nothing."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[tuple[str | None, str]] = []

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is discord.Locale.german:  # one locale is enough: the texts are the same
            self.asked.append((NAME_CONTEXTS.get(context.location), string.message))
        return None


async def command_strings(tree: app_commands.CommandTree[Any]) -> list[tuple[str | None, str]]:
    """Every text of the tree's commands the translator is asked for on sync, as
    ``(gettext context, English text)``: what the catalogues must translate."""
    recorder = _Recorder()
    for command in tree.get_commands():
        await command.get_translated_payload(tree, recorder)
    return list(dict.fromkeys(recorder.asked))


async def every_command_tree(extensions: Iterable[str]) -> app_commands.CommandTree[Any]:
    """The commands of the cog ``extensions`` (``bot.client.DEFAULT_EXTENSIONS``: all of
    them), in a tree that never connects: what ``make messages`` extracts and the tests
    check."""
    from discord.ext import commands

    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none(), help_command=None)
    for extension in extensions:
        await bot.load_extension(extension)
    return bot.tree
