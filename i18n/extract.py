"""The catalogues kept up to date with the code (``make messages``).

The message ids are found in the source by Babel's extractor (the keywords below) and, for
the slash commands, in the command tree (the bot hands them over: this package imports
nothing of ours). Each ``.po`` file is then updated as ``pybabel update`` would: new ids are
added untranslated, ids no longer used are dropped, translations kept. No source locations
are written: they would change with every edit elsewhere in a file.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from i18n import DEFAULT_LANGUAGE, DOMAIN, LANGUAGE_NAMES, LANGUAGES, PLURAL_FORMS

#: The functions whose arguments are message ids (``name: (singular, plural)`` positions).
KEYWORDS = {"_": None, "N_": None, "lazy": None, "ngettext": (1, 2), "lazy_plural": (1, 2)}
#: Where the texts users see are made (the core and the storage produce none).
SOURCE_PACKAGES = ("i18n", "service", "bot", "cogs")
LOCALE_DIR = Path(__file__).parent / "locale"
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
HEADER_COMMENT = ("# swissbot in {language}. The ids are the English texts; `make messages`\n"
                  "# adds the new ones (untranslated: shown in English until translated).")
#: A plural id is stored as (singular, plural).
MessageId = str | tuple[str, str]


def code_messages(root: Path) -> list[tuple[str | None, MessageId]]:
    """Every ``(context, id)`` the code under ``root`` passes to the keywords, in order."""
    found: list[tuple[str | None, MessageId]] = []
    for package in SOURCE_PACKAGES:
        for _, _, message, _, context in extract_from_dir(
            root / package, method_map=[("**.py", "python")], keywords=KEYWORDS,
            comment_tags=(), strip_comment_tags=True,
        ):
            if message and message not in ("", ("", "")):
                found.append((context, message))
    return found


def template(messages: Iterable[tuple[str | None, MessageId]]) -> Catalog:
    catalogue = Catalog(domain=DOMAIN, project="swissbot", charset="utf-8")
    for context, message in messages:
        # (``in`` would look the id up without its context: a command named "standings"
        # and the choice "standings" are two messages)
        if message and catalogue.get(message, context=context) is None:
            catalogue.add(message, context=context)
    return catalogue


def catalogue_file(language: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return locale_dir / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def update(messages: Iterable[tuple[str | None, MessageId]],
           locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Bring every language's catalogue in line with ``messages``; returns the files."""
    pot = template(messages)
    written = []
    for language in LANGUAGES:
        if language == DEFAULT_LANGUAGE:
            continue
        path = catalogue_file(language, locale_dir)
        if path.exists():
            with path.open("rb") as handle:
                catalogue = read_po(handle, locale=language, domain=DOMAIN)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalogue = Catalog(locale=language, domain=DOMAIN, project="swissbot")
        count, rule = PLURAL_FORMS[language]
        catalogue.mime_headers = [("Plural-Forms", f"nplurals={count}; plural={rule};")]
        catalogue.update(pot, no_fuzzy_matching=True, update_header_comment=False)
        catalogue.obsolete.clear()  # an id no longer used leaves the catalogue
        # a fixed header: a run that changes no message changes no file
        catalogue.creation_date = catalogue.revision_date = FIXED_DATE
        catalogue.fuzzy = False
        catalogue.header_comment = HEADER_COMMENT.format(language=LANGUAGE_NAMES[language])
        catalogue.last_translator = catalogue.language_team = "swissbot"
        catalogue.msgid_bugs_address = ""
        with path.open("wb") as handle:
            write_po(handle, catalogue, width=100, no_location=True, omit_header=False,
                     sort_output=True, include_previous=False)
        written.append(path)
    return written
