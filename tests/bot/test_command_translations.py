"""The slash commands in every shipped language, as Discord will be sent them on sync.

Discord refuses the whole sync when one localized name breaks its rules: lowercase, 1-32
characters of ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, unique among the commands
(or options) of one level, and descriptions and choice names of 1-100 characters.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from typing import Any

import discord
import pytest

from bot.client import DEFAULT_EXTENSIONS
from bot.translator import CatalogueTranslator, every_command_tree

SHIPPED_LOCALES = {"de": "de", "es-ES": "es", "es-419": "es", "fr": "fr", "pt-BR": "pt_BR",
                   "ru": "ru"}


def valid_name(name: str) -> bool:
    """Discord's name rule, written with Unicode categories (``re`` has no ``\\p{L}``)."""
    if not 1 <= len(name) <= 32 or name != name.lower():
        return False
    for char in name:
        category = unicodedata.category(char)
        script = unicodedata.name(char, "")
        if not (char in "-_" or category[0] in "LN" or "DEVANAGARI" in script
                or "THAI" in script):
            return False
    return True


@pytest.fixture(scope="module")
def payloads() -> list[dict[str, Any]]:
    import asyncio

    async def translated() -> list[dict[str, Any]]:
        tree = await every_command_tree(DEFAULT_EXTENSIONS)
        translator = CatalogueTranslator()
        return [await command.get_translated_payload(tree, translator)
                for command in tree.get_commands()]

    return asyncio.run(translated())


def _levels(nodes: list[dict[str, Any]], path: str = "") -> list[tuple[str, list[dict]]]:
    """Each level of names that must be unique: the top commands, each command's options."""
    levels = [(path or "/", nodes)]
    for node in nodes:
        if node.get("options"):
            levels += _levels(node["options"], f"{path}/{node['name']}")
    return levels


def test_every_name_and_description_is_localized_in_every_shipped_language(
    payloads: list[dict[str, Any]],
) -> None:
    problems = []
    for where, nodes in _levels(payloads):
        for locale in SHIPPED_LOCALES:
            names = [node.get("name_localizations", {}).get(locale, node["name"])
                     for node in nodes]
            for name, count in Counter(names).items():
                if count > 1:
                    problems.append(f"{where} {locale}: {name!r} is used {count} times")
            for node, name in zip(nodes, names, strict=True):
                if not valid_name(name):
                    problems.append(f"{where} {locale}: {name!r} is not a valid name")
                description = node.get("description_localizations", {}).get(
                    locale, node.get("description", "x"))
                if not 1 <= len(description) <= 100:
                    problems.append(f"{where}/{name} {locale}: description of "
                                    f"{len(description)} characters")
                for choice in node.get("choices") or ():
                    shown = choice.get("name_localizations", {}).get(locale, choice["name"])
                    if not 1 <= len(shown) <= 100:
                        problems.append(f"{where}/{name} {locale}: choice {shown!r}")
    assert not problems, "\n".join(problems[:30])


def test_the_commands_are_really_translated(payloads: list[dict[str, Any]]) -> None:
    tournament = next(node for node in payloads if node["name"] == "tournament")
    assert tournament["name_localizations"]["de"] == "turnier"
    assert tournament["name_localizations"]["fr"] == "tournoi"
    create = next(node for node in tournament["options"] if node["name"] == "create")
    assert create["description_localizations"]["ru"] != create["description"]
    # every shipped language names most of the commands in its own words
    for locale in SHIPPED_LOCALES:
        translated = [node for node in payloads if locale in node.get("name_localizations", {})]
        assert len(translated) >= len(payloads) // 2, locale


def test_a_locale_not_shipped_gets_the_english_default(payloads: list[dict[str, Any]]) -> None:
    for node in payloads:
        for locale in (discord.Locale.japanese.value, "en-US", "en-GB"):
            assert locale not in node.get("name_localizations", {})
            assert locale not in node.get("description_localizations", {})
