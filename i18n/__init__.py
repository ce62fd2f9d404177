"""The bot's languages: English, German, Spanish, French, Portuguese (Brazil) and Russian.

Design
------
* The texts are gettext catalogues, one per language: ``i18n/locale/<lang>/LC_MESSAGES/
  swissbot.po`` (``de``, ``es``, ``fr``, ``pt_BR``, ``ru``). The message ids are the English
  texts, so English needs no catalogue. The ``.po`` files are read when a language is first
  used (Babel parses them and compiles them in memory): no compiled ``.mo`` file is kept.
  ``make messages`` extracts the ids from the code and the command tree into every
  catalogue (:mod:`scripts.messages`); ``tests/project/test_i18n_catalogues.py`` fails when
  a catalogue lags behind the code.
* Placeholders are ``str.format`` names: ``_("Round {round} is paired.", round=3)``. Plurals
  go through :func:`ngettext` with each language's ``Plural-Forms`` (Russian has three);
  ``n`` is also a placeholder: ``ngettext("{n} board", "{n} boards", n)``.
* Which language: :data:`current` (a context variable, so each Discord interaction has its
  own). A command answers privately in the member's Discord locale; public posts are in the
  server's language (``/config language``), which the outbox row carries, so a post queued
  before a restart is rendered in the language it was queued in. A locale that is not
  shipped (Discord has 30) falls back to English: :func:`language_of`.
* Layers below the bot (the service) never know who reads: they produce lazy texts,
  :class:`Message` (an id and its parameters), turned into words where the reader is known.

This package imports nothing of ours: every layer may use it.
"""

from __future__ import annotations

import gettext as _gettext
import io
import string
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

#: The languages shipped, as catalogue folder names; English is the message ids themselves.
LANGUAGES = ("en", "de", "es", "fr", "pt_BR", "ru")
DEFAULT_LANGUAGE = "en"
#: Each language's own name, for ``/config language``.
LANGUAGE_NAMES = {
    "en": "English",
    "de": "Deutsch",
    "es": "Español",
    "fr": "Français",
    "pt_BR": "Português (Brasil)",
    "ru": "Русский",
}
#: Discord's locale codes for each language (Discord: en-US, en-GB, de, es-ES, es-419, fr,
#: pt-BR, ru, ...).
DISCORD_LOCALES = {
    "en": ("en-US", "en-GB"),
    "de": ("de",),
    "es": ("es-ES", "es-419"),
    "fr": ("fr",),
    "pt_BR": ("pt-BR",),
    "ru": ("ru",),
}
DOMAIN = "swissbot"
#: gettext's plural rules, as translators and tools know them (CLDR, Babel's default, gives
#: Spanish, French and Portuguese a third form for a million that no catalogue uses).
PLURAL_FORMS = {
    "de": (2, "(n != 1)"),
    "es": (2, "(n != 1)"),
    "fr": (2, "(n > 1)"),
    "pt_BR": (2, "(n > 1)"),
    "ru": (3, "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1"
              " : 2)"),
}

#: The language of the texts produced in this context (a Discord interaction, a delivery).
current: ContextVar[str] = ContextVar("swissbot_language", default=DEFAULT_LANGUAGE)


def language_of(locale: object) -> str:
    """The shipped language for a locale code ("de", "pt-BR", "es-419", ``discord.Locale``),
    English for anything else: an unknown or malformed locale is never an error."""
    code = str(getattr(locale, "value", locale) or "").strip().replace("_", "-")
    if not code or len(code) > 16:
        return DEFAULT_LANGUAGE
    lowered = code.lower()
    for language, locales in DISCORD_LOCALES.items():
        if lowered == language.lower().replace("_", "-") or lowered in (
            each.lower() for each in locales
        ):
            return language
    if lowered.startswith("pt"):
        return "pt_BR"
    base = lowered.split("-", 1)[0]
    return base if base in LANGUAGES and base != "pt" else DEFAULT_LANGUAGE


@contextmanager
def speaking(language: str | None) -> Iterator[str]:
    """Produce texts in ``language`` (any locale code: see :func:`language_of`) inside."""
    resolved = language_of(language)
    token = current.set(resolved)
    try:
        yield resolved
    finally:
        current.reset(token)


def catalogue_path(language: str) -> Any:
    """The ``.po`` file of a language (a package resource: it works from a wheel too)."""
    return resources.files(__name__).joinpath("locale", language, "LC_MESSAGES", f"{DOMAIN}.po")


@cache
def translations(language: str) -> _gettext.NullTranslations:
    """The language's catalogue, read once. English (or a missing file) translates nothing."""
    if language not in LANGUAGES or language == DEFAULT_LANGUAGE:
        return _gettext.NullTranslations()
    # Babel is imported only here: reading a catalogue is the only thing it is needed for.
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    path = catalogue_path(language)
    with path.open("rb") as handle:
        catalogue = read_po(handle, locale=language, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalogue)  # fuzzy entries are left out: English until reviewed
    compiled.seek(0)
    return _gettext.GNUTranslations(compiled)


def load_all() -> None:
    """Read every catalogue now (about 40 ms of parsing each, and Babel's import): a process
    that must not stall later (the bot's event loop) calls it at start, in a thread."""
    for language in LANGUAGES:
        translations(language)


def placeholders(text: str) -> set[str]:
    """The named fields of a text: ``{name}``, ``{points:>5}``."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name} if text else set()


def _format(text: str, params: Mapping[str, Any], language: str) -> str:
    if not params:
        return text
    values = {
        key: value.render(language) if isinstance(value, Message) else value
        for key, value in params.items()
    }
    try:
        return text.format_map(values)
    except (KeyError, IndexError, ValueError):
        # a translation with a broken placeholder must not lose the message
        return _fill_known_fields(text, values)


def _fill_known_fields(text: str, values: Mapping[str, Any]) -> str:
    """The fields the parameters have, the others left as ``{name}``: a translation that
    names an unknown field still says the rest."""
    try:
        return text.format_map(_Missing(values))
    except (IndexError, ValueError):
        return text


class _Missing(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def translate(
    msgid: str, *, plural: str | None = None, n: int | None = None,
    context: str | None = None, language: str | None = None,
) -> str:
    """The unformatted translation of ``msgid`` in ``language`` (default: :data:`current`)."""
    language = language_of(language) if language is not None else current.get()
    catalogue = translations(language)
    if plural is not None:
        count = int(n or 0)
        if context is not None:
            return catalogue.npgettext(context, msgid, plural, count)
        return catalogue.ngettext(msgid, plural, count)
    if context is not None:
        return catalogue.pgettext(context, msgid)
    return catalogue.gettext(msgid)


def _(msgid: str, /, **params: Any) -> str:
    """``msgid`` in the current language, its ``{placeholders}`` filled from ``params``."""
    language = current.get()
    return _format(translate(msgid, language=language), params, language)


def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The singular or one of the plural forms for ``n`` in the current language; ``{n}`` is
    filled with ``n`` unless ``params`` says otherwise."""
    language = current.get()
    params.setdefault("n", n)
    return _format(translate(singular, plural=plural, n=n, language=language), params, language)


def N_(msgid: str, /) -> str:
    """Marks a constant text for the catalogues; it is translated where shown (``_(CONST)``)."""
    return msgid


def in_words(texts: Mapping[str, str], key: str) -> str:
    """``texts[key]`` (a table of :func:`N_` texts, such as a status's words) in the current
    language; a key the table does not have, as it is."""
    return _(texts[key]) if key in texts else key


@dataclass(frozen=True, slots=True)
class Message:
    """A text not yet put into words: an id (and plural) with its parameters, rendered in a
    language by whoever knows the reader. ``str()`` renders it in the current language."""

    msgid: str
    params: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None
    n: int | None = None

    def render(self, language: str | None = None) -> str:
        language = language_of(language) if language is not None else current.get()
        params = dict(self.params)
        if self.plural is not None:
            params.setdefault("n", self.n)
        text = translate(self.msgid, plural=self.plural, n=self.n, language=language)
        return _format(text, params, language)

    def __str__(self) -> str:
        return self.render()

    def to_json(self) -> dict[str, Any]:
        """For a stored text (an outbox row): parameters must be JSON themselves."""
        data: dict[str, Any] = {"msgid": self.msgid, "params": {
            key: value.to_json() if isinstance(value, Message) else value
            for key, value in self.params.items()
        }}
        if self.plural is not None:
            data["plural"], data["n"] = self.plural, self.n
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        params = {
            key: cls.from_json(value) if isinstance(value, Mapping) and "msgid" in value
            else value
            for key, value in (data.get("params") or {}).items()
        }
        return cls(str(data["msgid"]), params, data.get("plural"), data.get("n"))


def lazy(msgid: str, /, **params: Any) -> Message:
    """A text to put into words later, in the reader's language."""
    return Message(msgid, params)


def lazy_plural(singular: str, plural: str, n: int, /, **params: Any) -> Message:
    """A plural text to put into words later (see :func:`ngettext`)."""
    return Message(singular, params, plural, n)


def render(text: object, language: str | None = None) -> str:
    """A :class:`Message` in ``language``; anything else as ``str``."""
    return text.render(language) if isinstance(text, Message) else str(text)


def stored(value: object, language: str | None = None) -> str:
    """A text kept in JSON (an outbox payload): a :meth:`Message.to_json` put into words in
    ``language`` (default: the current one), or a plain string as it was written."""
    if isinstance(value, Mapping) and "msgid" in value:
        return Message.from_json(value).render(language)
    return str(value)
