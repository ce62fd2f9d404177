"""The tournament header of a TRF report (lines ``012`` to ``122``), as a federation rates it.

TRF-16 and TRF-2026 ("tournament data", codes ending in 2) define:

====  ==========================  ================================================
code  key                         value
====  ==========================  ================================================
012   ``name``                    tournament name
022   ``city``                    city
032   ``federation``              federation (three-letter FIDE code, e.g. ``FRA``)
042   ``start``                   date of start, ``YYYY/MM/DD`` (TRF-2026)
052   ``end``                     date of end, ``YYYY/MM/DD``
062   ``players``                 number of players
072   ``rated``                   number of rated players
082   ``teams``                   number of teams (team tournaments)
092   ``type``                    type of tournament (e.g. ``Individual: Swiss-System``)
102   ``chief-arbiter``           chief arbiter
112   ``deputies``                deputy chief arbiters: one ``112`` line each
                                  (given here separated by ``;``)
122   ``time-control``            allotted times per moves/game
====  ==========================  ================================================

A header is a ``dict`` from code to text, normalised by :func:`check_header` (dates written
``YYYY/MM/DD``, the federation in capitals, deputies joined by ``"; "``), so that writing it
(:func:`header_lines`) and reading it back (:func:`read_header`) gives the same ``dict``.
bbpPairings and JaVaFo ignore all of these lines but ``012``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date

MAX_TEXT = 80  # longest value of a text line: far above real names and time controls
MAX_COUNT = 99_999
DEPUTY_SEPARATOR = ";"


@dataclass(frozen=True, slots=True)
class HeaderField:
    """One header line: its code, the key organisers type, what it holds and its kind."""

    code: str
    key: str
    label: str
    kind: str  # "text", "date", "count", "federation" or "list"


HEADER_FIELDS: tuple[HeaderField, ...] = (
    HeaderField("012", "name", "tournament name", "text"),
    HeaderField("022", "city", "city", "text"),
    HeaderField("032", "federation", "federation", "federation"),
    HeaderField("042", "start", "date of start", "date"),
    HeaderField("052", "end", "date of end", "date"),
    HeaderField("062", "players", "number of players", "count"),
    HeaderField("072", "rated", "number of rated players", "count"),
    HeaderField("082", "teams", "number of teams", "count"),
    HeaderField("092", "type", "type of tournament", "text"),
    HeaderField("102", "chief-arbiter", "chief arbiter", "text"),
    HeaderField("112", "deputies", "deputy chief arbiters", "list"),
    HeaderField("122", "time-control", "allotted times per moves/game", "text"),
)
BY_CODE: dict[str, HeaderField] = {f.code: f for f in HEADER_FIELDS}
BY_KEY: dict[str, HeaderField] = {f.key: f for f in HEADER_FIELDS}
HEADER_CODES: tuple[str, ...] = tuple(f.code for f in HEADER_FIELDS)

_DATE = re.compile(r"(\d{4})[/-](\d{2})[/-](\d{2})", re.ASCII)  # ASCII: not "١٢"
_FEDERATION = re.compile(r"[A-Z]{3}")


class HeaderError(ValueError):
    """A header value that a TRF report cannot carry; the message names the field, ``code``
    is its code ("" when no single field is at fault)."""

    def __init__(self, message: str, code: str = "") -> None:
        super().__init__(message)
        self.code = code


def field_of(name: str) -> HeaderField:
    """The field called ``name``: its key (``city``) or its code (``022``)."""
    text = name.strip().lower()
    found = BY_KEY.get(text) or BY_CODE.get(text)
    if found is None:
        keys = ", ".join(f"{f.key} ({f.code})" for f in HEADER_FIELDS)
        raise HeaderError(f"unknown TRF header field {name.strip()[:20]!r}; use one of {keys}")
    return found


def check_value(field: HeaderField, value: str) -> str:
    """``value`` checked and normalised for ``field``; "" means "not set".

    Dates are ``YYYY/MM/DD`` or ``YYYY-MM-DD`` (written with slashes, as TRF-2026 asks),
    counts whole numbers up to 99,999, the federation three letters; text is one line of at
    most 80 printable characters. Raises :class:`HeaderError` with the field's code.
    """
    try:
        return _normalise(field, value)
    except HeaderError as exc:
        raise HeaderError(str(exc), field.code) from None


def _normalise(field: HeaderField, value: str) -> str:
    text = " ".join(str(value).split())  # one line: no tabs, no line breaks
    if not text:
        return ""
    if any(not ch.isprintable() for ch in text):
        raise HeaderError(f"the {field.label} ({field.code}) contains a control character")
    if len(text) > MAX_TEXT:
        raise HeaderError(f"the {field.label} ({field.code}) is {len(text)} characters long; "
                          f"at most {MAX_TEXT} fit a TRF line")
    if field.kind == "date":
        match = _DATE.fullmatch(text)
        try:
            if match is None:
                raise ValueError
            day = date(int(match[1]), int(match[2]), int(match[3]))
        except ValueError:
            raise HeaderError(f"the {field.label} ({field.code}) must be a date written "
                              f"YYYY/MM/DD, such as 2026/05/01 (not {text[:20]!r})") from None
        return day.strftime("%Y/%m/%d")
    if field.kind == "count":
        if not text.isascii() or not text.isdigit() or int(text) > MAX_COUNT:
            raise HeaderError(f"the {field.label} ({field.code}) must be a whole number "
                              f"from 0 to {MAX_COUNT} (not {text[:20]!r})")
        return str(int(text))
    if field.kind == "federation":
        upper = text.upper()
        if not _FEDERATION.fullmatch(upper):
            raise HeaderError(f"the {field.label} ({field.code}) must be a three-letter FIDE "
                              f"code such as FRA or USA (not {text[:20]!r})")
        return upper
    if field.kind == "list":
        names = [" ".join(part.split()) for part in text.split(DEPUTY_SEPARATOR)]
        names = [n for n in names if n]
        return f"{DEPUTY_SEPARATOR} ".join(names)
    return text


def check_header(header: Mapping[str, str]) -> dict[str, str]:
    """The whole header checked and normalised (keys or codes in; codes out, in code order).

    Also checks what involves two fields: the end date is not before the start date.
    """
    out: dict[str, str] = {}
    for name, value in header.items():
        field = field_of(name)
        clean = check_value(field, value)
        if clean:
            out[field.code] = clean
    start, end = out.get("042"), out.get("052")
    if start and end and end < start:  # YYYY/MM/DD compares as text
        raise HeaderError(f"the date of end (052) {end} is before the date of start (042) "
                          f"{start}", "052")
    return {code: out[code] for code in HEADER_CODES if code in out}


def header_lines(header: Mapping[str, str], *, skip: Iterable[str] = ("012",)) -> list[str]:
    """The TRF lines of ``header`` (a checked header), in code order; ``112`` once per
    deputy. Codes in ``skip`` are left out (``012`` by default: :func:`write_trf` writes the
    tournament's name itself)."""
    skipped = set(skip)
    lines: list[str] = []
    for code in HEADER_CODES:
        value = header.get(code)
        if not value or code in skipped:
            continue
        if BY_CODE[code].kind == "list":
            lines.extend(f"{code} {name.strip()}" for name in value.split(DEPUTY_SEPARATOR))
        else:
            lines.append(f"{code} {value}")
    return lines


def read_header(name: str, lines: Iterable[str]) -> dict[str, str]:
    """The header of a parsed TRF file: ``name`` (its ``012``) and the header lines among
    ``lines`` (:attr:`swiss.trf.TrfTournament.other_lines`), normalised like
    :func:`check_header`. Raises :class:`HeaderError` for a value that does not check."""
    raw: dict[str, str] = {"012": name} if name else {}
    for line in lines:
        code = line[:3]
        if code not in BY_CODE or code == "012":
            continue
        value = line[4:].strip()
        if BY_CODE[code].kind == "list" and raw.get(code):
            raw[code] = f"{raw[code]}{DEPUTY_SEPARATOR} {value}"
        else:
            raw[code] = value
    return check_header(raw)
