"""The six languages' catalogues: up to date with the code, complete, and consistent.

* Every message id the code and the slash commands use is in every catalogue, and nothing
  else is (``make messages`` brings them in line).
* Every message is translated, with exactly the placeholders of its English id (a missing
  ``{round}`` would lose information, an unknown one would fall back to English).
* A plural has as many forms as the language's ``Plural-Forms`` says (Russian three).
"""

from __future__ import annotations

import asyncio
import gettext
from functools import cache

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from hypothesis import given
from hypothesis import strategies as st

import i18n
from bot.client import DEFAULT_EXTENSIONS
from bot.translator import command_strings, every_command_tree
from i18n.extract import catalogue_file, code_messages, template
from tests.paths import REPO

TRANSLATED = [language for language in i18n.LANGUAGES if language != i18n.DEFAULT_LANGUAGE]


@cache
def catalogue(language: str) -> Catalog:
    with catalogue_file(language).open("rb") as handle:
        return read_po(handle, locale=language)


@cache
def used_ids() -> frozenset[tuple[str | None, str | tuple[str, str]]]:
    messages = code_messages(REPO)
    messages += asyncio.run(_command_texts())
    return frozenset((message.context, message.id) for message in template(messages) if message.id)


async def _command_texts() -> list[tuple[str | None, str]]:
    return await command_strings(await every_command_tree(DEFAULT_EXTENSIONS))


def _ids(language: str) -> set[tuple[str | None, str | tuple[str, str]]]:
    return {(message.context, message.id) for message in catalogue(language) if message.id}


@pytest.mark.slow
@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_used_is_in_the_catalogue_and_nothing_else(language: str) -> None:
    missing = used_ids() - _ids(language)
    unused = _ids(language) - used_ids()
    assert not missing, f"run `make messages`, then translate: {sorted(map(str, missing))[:10]}"
    assert not unused, f"run `make messages`: {sorted(map(str, unused))[:10]}"


def _forms(message: object) -> list[str]:
    string = message.string  # type: ignore[attr-defined]
    return list(string) if isinstance(string, tuple | list) else [string]


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(language: str) -> None:
    problems = []
    for message in catalogue(language):
        if not message.id:
            continue
        english = message.id[-1] if isinstance(message.id, tuple) else message.id
        wanted = i18n.placeholders(english)
        for form in _forms(message):
            if not form or message.fuzzy:
                problems.append(f"untranslated: {message.id!r}")
            elif i18n.placeholders(form) - wanted or wanted - i18n.placeholders(form) - {"n"}:
                # a singular form may spell the number out ("eine Runde"): {n} may be left out
                problems.append(f"placeholders of {form!r} differ from {english!r}")
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("language", TRANSLATED)
def test_plurals_have_the_forms_of_the_language(language: str) -> None:
    books = catalogue(language)
    expected = books.num_plurals
    assert expected == {"ru": 3}.get(language, 2) == i18n.PLURAL_FORMS[language][0]
    assert books.plural_expr == i18n.PLURAL_FORMS[language][1]
    for message in books:
        if message.pluralizable:
            assert len(_forms(message)) == expected, message.id


def test_russian_plurals_take_the_form_of_the_number() -> None:
    with i18n.speaking("ru"):
        boards = {n: i18n.ngettext("{n} board", "{n} boards", n) for n in (1, 2, 5, 11, 21, 22)}
    assert boards[1].endswith("доска") and boards[21].endswith("доска")
    assert boards[2].endswith("доски") and boards[22].endswith("доски")
    assert boards[5].endswith("досок") and boards[11].endswith("досок")
    with i18n.speaking("en"):
        assert i18n.ngettext("{n} board", "{n} boards", 1) == "1 board"
        assert i18n.ngettext("{n} board", "{n} boards", 2) == "2 boards"


@pytest.mark.parametrize(("locale", "language"), [
    ("en-US", "en"), ("en-GB", "en"), ("de", "de"), ("es-ES", "es"), ("es-419", "es"),
    ("fr", "fr"), ("pt-BR", "pt_BR"), ("ru", "ru"), ("ja", "en"), ("zh-CN", "en"),
    ("uk", "en"), ("", "en"), (None, "en"), ("pt_BR", "pt_BR"),
])
def test_discord_locales_map_to_a_shipped_language(locale: str | None, language: str) -> None:
    assert i18n.language_of(locale) == language


@given(st.text(max_size=40))
def test_any_locale_falls_back_to_a_shipped_language(locale: str) -> None:
    assert i18n.language_of(locale) in i18n.LANGUAGES
    with i18n.speaking(locale) as language:
        assert i18n.current.get() == language
        # the text of an id is always there, whatever the locale
        assert i18n._("Rating for seeding")


def test_every_catalogue_is_read_by_gettext_with_its_plural_rule() -> None:
    for language in TRANSLATED:
        books = i18n.translations(language)
        assert isinstance(books, gettext.GNUTranslations)
        assert books.info()["plural-forms"]


def test_a_lazy_message_renders_in_each_language_and_survives_json() -> None:
    message = i18n.lazy("The server's posts are now in {language}.", language="X")
    again = i18n.Message.from_json(message.to_json())
    assert again == message
    texts = {language: message.render(language) for language in i18n.LANGUAGES}
    assert texts["en"] == "The server's posts are now in X."
    assert len(set(texts.values())) == len(texts)  # each language its own words
    with i18n.speaking("de"):
        assert str(message) == texts["de"]


def test_a_translation_with_a_wrong_field_still_says_the_rest() -> None:
    books = i18n.translations("de")
    original = books._catalog.get("Round {round} is complete.")  # type: ignore[attr-defined]
    books._catalog["Round {round} is complete."] = "Runde {runde} ist fertig ({round})."  # type: ignore[attr-defined]
    try:
        with i18n.speaking("de"):
            assert i18n._("Round {round} is complete.", round=3) == "Runde {runde} ist fertig (3)."
    finally:
        books._catalog["Round {round} is complete."] = original  # type: ignore[attr-defined]
