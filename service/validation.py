"""Checks of user input, each failing with a message that says what to do instead."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

from service.errors import InvalidInputError
from service.limits import (
    MAX_AUTO_ADVANCE_MINUTES,
    MAX_DEADLINE_MINUTES,
    MAX_GAMES_IN_MATCH,
    MAX_PLAYER_NAME,
    MAX_RATING,
    MAX_ROUNDS,
    MAX_TOURNAMENT_NAME,
    MIN_RATING,
    MIN_ROUNDS,
    echo,
)
from swiss.numbers import NumberError, parse_int
from swiss.pairing.names import DEFAULT_EDITION, SystemNameError, system_and_edition

# Re-exported for the modules that import the limits from here.
__all__ = [
    "MAX_AUTO_ADVANCE_MINUTES",
    "MAX_DEADLINE_MINUTES",
    "MAX_GAMES_IN_MATCH",
    "MAX_PLAYER_NAME",
    "MAX_RATING",
    "MAX_ROUNDS",
    "MAX_TOURNAMENT_NAME",
    "check_choice",
    "check_range",
    "check_rating",
    "check_rounds",
    "check_trf_header",
    "clean_name",
    "looks_like_reference",
    "member_name",
    "parse_id",
    "parse_player_ref",
    "parse_tournament_id",
    "strip_invisible",
]

# Discord ids (snowflakes) and our own ids are SQLite INTEGERs: at most 2**63 - 1.
MAX_ID = 2**63 - 1

# User, role and channel mention markup, and the two mass pings. allowed_mentions already stop
# any ping; these are refused in names because they would still *look* like a mention.
_MENTION = re.compile(r"<@[!&]?\d+>|<#\d+>|@everyone|@here", re.IGNORECASE)
_MENTION_MARKUP = re.compile(r"<(@[!&]?|#)\s*\d*>?")

_ZWJ = "\u200d"
_TAG_FIRST, _TAG_LAST = 0xE0020, 0xE007F  # emoji tag sequences (subdivision flags)
_BLACK_FLAG = "\U0001f3f4"


def _is_emoji_part(ch: str) -> bool:
    """A character that ends an emoji a ZWJ may join: a symbol (So), a skin-tone modifier
    (Sk), a variation selector, a keycap, or the end of a tag sequence."""
    return (
        unicodedata.category(ch) in ("So", "Sk", "Me")
        or "\ufe00" <= ch <= "\ufe0f"
        or ord(ch) == _TAG_LAST
    )


def strip_invisible(text: str) -> str:
    """Drop control and format characters (Unicode Cc, Cf, which include every bidi control,
    zero-width space and joiners, and lone surrogates Cs) except what emoji need: a zero-width
    joiner between two emoji (family, profession, rainbow-flag sequences) and the tag
    characters of a subdivision flag. Variation selectors, skin tones and regional-indicator
    flags are not format characters and stay. Whitespace becomes single spaces."""
    text = " ".join(text.split())
    out: list[str] = []
    for index, ch in enumerate(text):
        category = unicodedata.category(ch)
        if category not in ("Cc", "Cf", "Cs"):
            out.append(ch)
            continue
        if ch == _ZWJ:
            after = text[index + 1] if index + 1 < len(text) else ""
            if out and _is_emoji_part(out[-1]) and after and unicodedata.category(after) == "So":
                out.append(ch)
            continue
        if _TAG_FIRST <= ord(ch) <= _TAG_LAST and out and (
            out[-1] == _BLACK_FLAG or _TAG_FIRST <= ord(out[-1]) < _TAG_LAST
        ):
            out.append(ch)
    return " ".join("".join(out).split())


def looks_like_reference(name: str) -> bool:
    """Could ``name`` be read as a player or tournament reference (a pairing number ``#3``, an
    id, a mention)? Such names are refused so that references are never ambiguous."""
    bare = name.replace(" ", "")
    if bare.startswith("#"):
        bare = bare[1:]
    return bare.isdigit() or bool(_MENTION_MARKUP.search(name))


def clean_name(value: str, *, what: str, limit: int) -> str:
    """A name to store: invisible characters stripped (see :func:`strip_invisible`), then
    refuse empty, too long, mention look-alikes and names that read as a reference. "@" and
    emoji are fine: nothing we post can ping through a name (allowed_mentions)."""
    if not isinstance(value, str):
        raise InvalidInputError(f"The {what} must be text.")
    name = strip_invisible(value)
    if not name:
        raise InvalidInputError(f"The {what} is empty: give a name.")
    if len(name) > limit:
        raise InvalidInputError(
            f"The {what} is too long ({len(name)} characters): use at most {limit}."
        )
    if _MENTION.search(name) or _MENTION_MARKUP.search(name):
        raise InvalidInputError(
            f"The {what} contains a mention, @everyone or @here: write it without mentions."
        )
    if looks_like_reference(name):
        raise InvalidInputError(
            f"The {what} {echo(name)} reads like a pairing number, an id or a mention: add a word "
            "(e.g. 'Table 2') so that nobody confuses the two."
        )
    return name


def member_name(display_name: str, user_id: int, *, limit: int) -> str:
    """A member's display name made safe to store and show: invisible characters stripped,
    mention markup and mass pings defused, cut to ``limit``; never empty."""
    name = strip_invisible(str(display_name))
    name = _MENTION_MARKUP.sub("", name)
    name = re.sub(r"@(everyone|here)", r"\1", name, flags=re.IGNORECASE)
    name = " ".join(name.split())[:limit].strip()
    return name or f"user {user_id}"


@dataclass(frozen=True, slots=True)
class PlayerReference:
    """How an option names a player: a Discord ``user`` id, a pairing ``number`` or a guest's
    exact ``name``. The forms never overlap: ``#N`` is always a pairing number, digits and
    mentions are always user ids, and names can never look like either."""

    kind: Literal["user", "number", "name"]
    value: int | str


_USER_MENTION = re.compile(r"<@!?([0-9]+)>")
_NUMBER_REF = re.compile(r"#\s*([0-9]+)")
_ASCII_DIGITS = re.compile(r"[0-9]+")


def parse_id(text: str, *, what: str) -> int:
    """ASCII digits within SQLite's range (a Discord id or one of ours), else a clear refusal
    (no ValueError for "²", no OverflowError for 20 digits): the one strict parser,
    :func:`swiss.numbers.parse_int`."""
    try:
        return parse_int(text, what, low=1, high=MAX_ID)
    except NumberError:
        raise InvalidInputError(f"{echo(text)} is not a valid {what}.") from None


def parse_player_ref(ref: int | str) -> PlayerReference:
    """A player option: a mention ``<@123>``, a Discord user id, ``#3`` or a guest's name."""
    if isinstance(ref, bool):
        raise InvalidInputError("Name a player: a @mention, a pairing number like #3, or a name.")
    if isinstance(ref, int):
        if not 0 < ref <= MAX_ID:
            raise InvalidInputError(f"{ref} is not a valid Discord user id.")
        return PlayerReference("user", ref)
    text = " ".join(str(ref).split())
    if not text:
        raise InvalidInputError("Name a player: a @mention, a pairing number like #3, or a name.")
    if mention := _USER_MENTION.fullmatch(text):
        return PlayerReference("user", parse_id(mention.group(1), what="Discord user id"))
    if number := _NUMBER_REF.fullmatch(text):
        return PlayerReference("number", parse_id(number.group(1), what="pairing number"))
    if _ASCII_DIGITS.fullmatch(text):
        return PlayerReference("user", parse_id(text, what="Discord user id"))
    return PlayerReference("name", text)


def parse_tournament_id(text: str) -> int | None:
    """The id in a tournament option ("12"), or None when the text is a name. Digits beyond
    SQLite's range are no id (and, names never being all digits, no tournament either)."""
    try:
        return parse_int(text.strip(), "tournament id", low=1, high=MAX_ID)
    except NumberError:
        return None


def check_range(value: int | None, *, what: str, low: int, high: int) -> int:
    if value is None or isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(f"The {what} must be a whole number from {low} to {high}.")
    if not low <= value <= high:
        raise InvalidInputError(
            f"The {what} must be from {low} to {high} (you gave {value})."
        )
    return value


def check_rounds(rounds: int) -> int:
    return check_range(rounds, what="number of rounds", low=MIN_ROUNDS, high=MAX_ROUNDS)


def check_rating(rating: int | None) -> int:
    if rating is None:
        return 0
    return check_range(rating, what="rating", low=MIN_RATING, high=MAX_RATING)


def check_choice(value: str, *, what: str, choices: tuple[str, ...]) -> str:
    key = str(value).strip().lower()
    if key not in choices:
        raise InvalidInputError(
            f"Unknown {what} {echo(value)}: choose one of {', '.join(choices)}."
        )
    return key


def check_system(system: str, edition: str) -> tuple[str, str]:
    """The pairing system and its rules edition (:mod:`swiss.pairing.names`): an earlier
    combined name such as ``fide-dutch-2017`` is read; an edition other than the default for
    a system without editions is refused (the default is what every caller passes when the
    user gave none)."""
    given = None if str(edition).strip() == DEFAULT_EDITION else edition
    try:
        return system_and_edition(system, given)
    except SystemNameError as exc:
        raise InvalidInputError(exc.sentence()) from None


def check_trf_header(header: object) -> dict[str, str]:
    """The TRF report header (swiss.trf.header), checked and normalised: codes in order,
    dates ``YYYY/MM/DD``, the end not before the start, lengths that fit a TRF line."""
    from swiss.trf.header import HeaderError, check_header

    if not isinstance(header, dict):
        raise InvalidInputError("The TRF header must map fields to values.")
    try:
        clean = check_header({str(k): str(v) for k, v in header.items()})
    except HeaderError as exc:
        message = str(exc)
        raise InvalidInputError(message[:1].upper() + message[1:] + ".") from None
    # Mention markup in a header would look like a ping when the header is shown.
    for code, value in clean.items():
        if _MENTION_MARKUP.search(value) or _MENTION.search(value):
            raise InvalidInputError(f"The TRF header line {code} may not contain a mention.")
    return clean
