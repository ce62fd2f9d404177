"""Editions of the FIDE tie-break regulations (Handbook C.07) and the article behind each value.

Two editions are implemented:

``"2026"`` -- C.07 "Tie-Break and Play-Off Regulations" in force from 1 March 2026 (approved by
the FIDE Council on 2 February 2026). Differences from 2024 that change a value:

* art. 16.4: the dummy opponent of an unplayed round no longer always has the player's own
  final score: for a forfeit (16.4.1) it is capped at the scheduled opponent's score as the
  opponent's Buchholz sees it, for a round without opponent (byes, absences: 16.4.2) at the
  points of a draw times the number of rounds. A half-point bye in a 3-round event, with two
  wins, gives a dummy of 1.5 instead of 2.5.
* new tie-breaks STD (Standard Points: 1 / ½ / 0 per round whatever the event's scoring, so
  events scored 3/1/0 can be broken like 1/½/0 events), TPN (pairing number, lower first) and
  RTNG (the player's own rating).
* which unplayed round a Cut removes (16.5) follows the capped dummy scores: among the
  voluntary unplayed rounds the one with the lowest dummy score is cut first.

``"2024"`` -- the edition in force from 1 August 2024 (FIDE Council 29 July 2024): the dummy
opponent of every unplayed round has the player's own final score.

Which one applies: the edition in force on the event's first day (TRF line 042, the bot's event
creation date); without a date, the edition in force now (2026), since the core never reads a
clock. :func:`edition_for_date` encodes that.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from swiss.numbers import NumberError, parse_int

EDITIONS: tuple[str, ...] = ("2026", "2024")
DEFAULT_EDITION = "2026"
EDITION_2026_START = date(2026, 3, 1)
EDITION_TITLES: dict[str, str] = {
    "2026": "FIDE C.07 Tie-Break Regulations, edition in force from 1 March 2026",
    "2024": "FIDE C.07 Tie-Break Regulations, edition in force from 1 August 2024",
}


def check_edition(edition: str) -> str:
    """Return ``edition`` if it names a known C.07 edition, else raise ``ValueError``."""
    text = str(edition).strip()
    if text not in EDITIONS:
        raise ValueError(f"unknown tie-break rules {edition!r}: use 2026 or 2024")
    return text


def edition_for_date(start: date | None) -> str:
    """The C.07 edition in force on ``start`` (an event's first day); 2026 when unknown."""
    if start is None:
        return DEFAULT_EDITION
    return "2026" if start >= EDITION_2026_START else "2024"


def parse_trf_date(text: str) -> date | None:
    """A TRF date ``YYYY/MM/DD`` (or with ``-`` / ``.``); ``None`` if unreadable."""
    cleaned = text.strip().replace("-", "/").replace(".", "/")
    parts = cleaned.split("/")
    if len(parts) != 3:
        return None
    try:  # strictly: "²" passes isdigit() and a 20-digit year overflows date()
        year, month, day = (parse_int(p, "date", low=0, high=9999) for p in parts)
    except NumberError:
        return None
    if year < 100:  # two-digit years: 00-69 -> 2000s (TRF files of the 1990s exist)
        year += 2000 if year < 70 else 1900
    try:
        return date(year, month, day)
    except ValueError:
        return None


def trf_start_date(lines: Sequence[str], line_numbers: Sequence[int] = ()) -> date | None:
    """The start date of a TRF file from its line 042 (None without one, or a blank one).

    A date that cannot be read is a :class:`ValueError` naming the line (from
    ``line_numbers``, each line's number in the file) and column: the date decides the C.07
    edition, so silently taking today's edition instead would give other standings.
    """
    for index, line in enumerate(lines):
        if not line.startswith("042"):
            continue
        text = line[4:]
        if not text.strip():
            return None
        day = parse_trf_date(text)
        if day is None:
            offset = len(text) - len(text.lstrip())
            bad = next((i for i, ch in enumerate(text) if i >= offset and ch not in _DATE_CHARS),
                       offset)
            where = (f"line {line_numbers[index]}, column {5 + bad}: "
                     if index < len(line_numbers) else "")
            raise ValueError(
                f"{where}the start date (042) {text.strip()[:20]!r} cannot be read: write it "
                "YYYY/MM/DD with the ASCII digits 0-9, e.g. 2026/05/01 (the date decides "
                "which edition of the tie-break rules applies)")
        return day
    return None


_DATE_CHARS = frozenset("0123456789/-. ")


# Article of C.07 behind each tie-break, per edition. The 2024 numbering is the one of the
# published text (art. 6-10 definitions, 14 modifiers, 16 unplayed rounds); the 2026 text keeps
# it for the tie-breaks both editions share and adds STD, TPN and RTNG to the art. 5 table.
_SHARED: dict[str, str] = {
    "DE": "art. 6 (direct encounter)",
    "WIN": "art. 7.1 (number of wins)",
    "WON": "art. 7.2 (games won over the board)",
    "BPG": "art. 7.3 (games played with Black)",
    "BWG": "art. 7.4 (games won with Black)",
    "PS": "art. 7.5 (progressive scores); cut: art. 14",
    "REP": "art. 7.6 (rounds elected to play, formerly GE)",
    "BH": "art. 8.1 (Buchholz); unplayed rounds: art. 16; cut/median: art. 14",
    "AOB": "art. 8.2 (average of opponents' Buchholz)",
    "FB": "art. 8.3 (Fore Buchholz); unplayed rounds: art. 16; cut/median: art. 14",
    "SB": "art. 9.1 (Sonneborn-Berger); unplayed rounds: art. 16; cut: art. 14",
    "KS": "art. 9.2 (Koya; limit modifier)",
    "ARO": "art. 10.1 (average rating of opponents); cut/median: art. 14",
    "TPR": "art. 10.2 (tournament performance rating)",
    "PTP": "art. 10.3 (perfect tournament performance)",
    "APRO": "art. 10.4 (average performance rating of opponents)",
    "APPO": "art. 10.5 (average perfect performance of opponents)",
}
ARTICLES: dict[str, dict[str, str]] = {
    "2024": dict(_SHARED),
    "2026": {
        **_SHARED,
        "BH": "art. 8.1 (Buchholz); unplayed rounds: art. 16, dummy capped (16.4.1/16.4.2); "
              "cut/median: art. 14",
        "FB": "art. 8.3 (Fore Buchholz); unplayed rounds: art. 16, dummy capped "
              "(16.4.1/16.4.2); cut/median: art. 14",
        "SB": "art. 9.1 (Sonneborn-Berger); unplayed rounds: art. 16, dummy capped "
              "(16.4.1/16.4.2); cut: art. 14",
        "STD": "art. 5 table, Standard Points (new in 2026)",
        "TPN": "art. 5 table, tournament pairing number (new in 2026)",
        "RTNG": "art. 5 table, rating (new in 2026)",
    },
}
NOT_FIDE = "not a FIDE C.07 tie-break (swissbot / other games)"


def article(base: str, edition: str, unplayed: str = "c07") -> str:
    """The C.07 article a tie-break value follows, e.g. ``"art. 8.1 (Buchholz) ..."``."""
    if unplayed == "c02" and base in ("BH", "FB", "SB"):
        return _SHARED[base].split(";")[0] + "; unplayed rounds: C.02 (2017) art. 13.15"
    table = ARTICLES.get(edition, ARTICLES[DEFAULT_EDITION])
    if base in table:
        return table[base]
    if base in ("STD", "TPN", "RTNG"):
        return f"defined from the 2026 edition ({ARTICLES['2026'][base].split(',')[-1].strip()})"
    return NOT_FIDE
