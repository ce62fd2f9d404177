"""Discord's rules for a command sync, localizations included: the real API refuses the whole
``PUT .../commands`` (400, code 50035) when one name or description breaks them, so the
sandbox does too, and a translation Discord would refuse fails the tests instead of the
production bot's start.

Names of slash commands and options: 1-32 characters, lowercase, letters, digits, ``-`` and
``_`` (``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``), unique among their siblings in
every language; descriptions and choice names 1-100 characters; localizations only for
Discord's locales.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable
from typing import Any

#: Discord's locales (developer docs, "Locales").
LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi",
    "th", "zh-CN", "ja", "zh-TW", "ko",
})


def valid_name(name: object) -> bool:
    if not isinstance(name, str) or not 1 <= len(name) <= 32 or name != name.lower():
        return False
    return all(
        char in "-_" or unicodedata.category(char)[0] in "LN"
        or unicodedata.name(char, "").split(" ")[0] in ("DEVANAGARI", "THAI")
        for char in name
    )


def command_problems(commands: Iterable[dict[str, Any]]) -> list[str]:
    """What Discord would refuse in a sync of ``commands`` (empty: accepted)."""
    problems: list[str] = []
    _level(list(commands), "", problems, slash=True)
    return problems


def _level(nodes: list[dict[str, Any]], where: str, problems: list[str], *, slash: bool) -> None:
    for locale in {None, *(key for node in nodes for key in node.get("name_localizations")
                           or {})}:
        names = [(node.get("name_localizations") or {}).get(locale, node.get("name"))
                 if locale else node.get("name") for node in nodes]
        for name, count in Counter(names).items():
            if count > 1:
                problems.append(f"{where}: {name!r} twice ({locale or 'default'})")
    for node in nodes:
        path = f"{where}/{node.get('name')}"
        # a top-level command of type 1 is a slash command (2 and 3: context menus, whose
        # names may have capitals and spaces); everything inside one follows its rules
        checked = slash and (where != "" or node.get("type", 1) == 1)
        _texts(node, path, problems, checked=checked)
        options = node.get("options") or []
        if options:
            _level(options, path, problems, slash=checked)


def _texts(node: dict[str, Any], path: str, problems: list[str], *, checked: bool) -> None:
    names = {"default": node.get("name"), **(node.get("name_localizations") or {})}
    for locale, name in names.items():
        if locale != "default" and locale not in LOCALES:
            problems.append(f"{path}: {locale!r} is not a Discord locale")
        if checked and not valid_name(name):
            problems.append(f"{path}: name {name!r} ({locale})")
    descriptions = {"default": node.get("description", ""),
                    **(node.get("description_localizations") or {})}
    for locale, text in descriptions.items():
        if locale != "default" and locale not in LOCALES:
            problems.append(f"{path}: {locale!r} is not a Discord locale")
        if checked and (not isinstance(text, str) or not 1 <= len(text) <= 100):
            problems.append(f"{path}: description of {len(str(text))} characters ({locale})")
    for choice in node.get("choices") or []:
        for locale, text in {"default": choice.get("name"),
                             **(choice.get("name_localizations") or {})}.items():
            if not isinstance(text, str) or not 1 <= len(text) <= 100:
                problems.append(f"{path}: choice {text!r} ({locale})")
