"""Scanning a TRF file: its lines and fields, each kept with its line and column.

The first of the two stages of :func:`swiss.trf.parse_trf`. The scanner knows the column layout
and the syntax of every interpreted line, but nothing about the tournament: it returns a
:class:`ScannedTrf` of raw records that remember where they were read, so that the second stage
(:mod:`swiss.trf.reader`, which builds the :class:`~swiss.model.Tournament` and checks that the
lines agree with each other) can name the line and column of any problem it finds.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from swiss.model import Color, Points, Scoring
from swiss.numbers import MAX_SEED, NumberError, parse_fraction, parse_int
from swiss.trf.format import (
    ACCELERATION,
    ALL_CODES,
    BYE_CODES,
    FIRST_ROUND_COLUMN,
    INTERPRETED,
    LINE_BREAK,
    MAX_ID,
    MAX_POINTS,
    MAX_ROUNDS,
    MAX_SCORE,
    MIN_PLAYER_LINE,
    PLAYED_CODES,
    REQUEST_CODE,
    ROUND_WIDTH,
    SCORING_FIELDS,
    UNSUPPORTED,
    TrfError,
    TrfPlayerInfo,
)


@dataclass(slots=True)
class Entry:
    """One round entry of a player line, as written."""

    line: int
    column: int  # 1-based column of the opponent field
    opponent: int | None
    colour: str  # "w", "b" or "-" (blank colour is read as "-")
    code: str  # upper-case result code, " " for blank

    @property
    def participated(self) -> bool:
        """bbp's "participated in pairing": a game, or a pairing-allocated bye."""
        return self.opponent is not None or self.code in ("U", "+")

    @property
    def round(self) -> int:
        return (self.column - FIRST_ROUND_COLUMN) // ROUND_WIDTH + 1

    @property
    def colour_column(self) -> int:
        return self.column + 5

    @property
    def result_column(self) -> int:
        return self.column + 7


@dataclass(slots=True)
class PlayerLine:
    line: int
    id: int
    name: str
    rating: int
    points: Points
    info: TrfPlayerInfo
    entries: list[Entry | None]


@dataclass(slots=True)
class ByeLine:
    line: int
    column: int
    round: int
    player: int
    code: str


@dataclass(frozen=True, slots=True)
class AccelerationEntry:
    """Extra pairing points for one player and round, from a field of an ``XXA`` line."""

    line: int
    column: int  # where the points were read
    player: int
    round: int
    points: Points


@dataclass(frozen=True, slots=True)
class AccelerationRange:
    """A TRF-2026 ``250`` record: ``points`` for every player ``first_player..last_player`` in
    every round ``first_round..last_round``."""

    line: int
    points: Points
    first_round: int
    last_round: int
    first_player: int
    last_player: int


@dataclass(slots=True)
class ScannedTrf:
    """Everything the interpreted lines say, as written, with the lines it came from."""

    line_count: int = 0
    players: dict[int, PlayerLine] = field(default_factory=dict)
    line_order: list[int] = field(default_factory=list)  # player ids in file order
    name: str = ""
    total_rounds: int = 0
    total_rounds_line: int = 0
    initial_color: Color | None = None
    use_rank: bool = False
    no_colours: bool = False
    bb_points: dict[str, Points] = field(default_factory=dict)
    full_scoring: Scoring | None = None
    # XXP groups: line, [(id, column)]
    xxp: list[tuple[int, list[tuple[int, int]]]] = field(default_factory=list)
    # line, first round, last round, [(id, column)]
    forbidden_260: list[tuple[int, int, int, list[tuple[int, int]]]] = field(default_factory=list)
    bye_lines: list[ByeLine] = field(default_factory=list)
    withdrawals: list[tuple[int, int, int]] = field(default_factory=list)  # line, player, round
    seed: int = 0
    accelerated: bool = False
    # TRF-2026 192 (encoded tournament type), e.g. FIDE_DUTCH_2025_BAKU, and its line
    tournament_type: str = ""
    tournament_type_line: int = 0
    # XXA fields and 250 records in file order (acceleration_of says how they combine)
    acceleration: list[AccelerationEntry | AccelerationRange] = field(default_factory=list)
    other_lines: list[str] = field(default_factory=list)
    other_line_numbers: list[int] = field(default_factory=list)  # each one's line in the file


def scan_trf(text: str) -> ScannedTrf:
    """Read every line of a TRF file into raw records; raise :class:`TrfError` (with line and
    column) for a line or field that breaks the layout."""
    return _Scanner(text).scan()


class _Scanner:
    """One pass over the lines; every field goes through :mod:`swiss.numbers` and every error
    carries the line and the column of the offending character."""

    def __init__(self, text: str) -> None:
        if text.startswith("\ufeff"):
            text = text[1:]
        self.lines = LINE_BREAK.split(text)
        if self.lines and self.lines[-1] == "":
            self.lines.pop()
        self.out = ScannedTrf(line_count=len(self.lines))
        self.xxa_lines: dict[int, int] = {}  # player -> line of his XXA line

    # -- the line loop -------------------------------------------------------------------
    def scan(self) -> ScannedTrf:
        for number, line in enumerate(self.lines, start=1):
            if len(line) < 3:
                continue
            code = line[:3]
            if code in UNSUPPORTED:
                raise TrfError(f"code {code}: {UNSUPPORTED[code]}", number, 1)
            if code in ACCELERATION or (code == "192" and line.rstrip().endswith("_BAKU")):
                self.out.accelerated = True
            if code not in INTERPRETED:
                # XXA lines are written back from the model (the writer emits them); every
                # other line, 250 included, is kept verbatim.
                if line.strip() and code != "XXA":
                    self.out.other_lines.append(line.rstrip())
                    self.out.other_line_numbers.append(number)
                if code == "260":
                    self._read_260(number, line)
                elif code == "XXA":
                    self._read_xxa(number, line)
                elif code == "250":
                    self.out.acceleration.append(read_250(number, line))
                elif code == "192":
                    self._read_192(number, line)
                continue
            self._read_line(code, number, line)
        return self.out

    def _read_line(self, code: str, number: int, line: str) -> None:
        if code == "001":
            self._read_player(number, line)
        elif code == "012":
            self.out.name = line[4:].strip()
        elif code in ("XXR", "142"):
            self.out.total_rounds = _int_field(number, line, 4, None, "the number of rounds",
                                               1, MAX_ROUNDS)
            self.out.total_rounds_line = number
        elif code == "XXC":
            for token in line[3:].split():
                if token == "white1":
                    self.out.initial_color = Color.WHITE
                elif token == "black1":
                    self.out.initial_color = Color.BLACK
                elif token == "rank":
                    self.out.use_rank = True
        elif code == "152":
            if len(line.rstrip()) != 5 or line[4] not in "WB":
                raise TrfError("a 152 line is '152 W' or '152 B'", number, 5)
            self.out.initial_color = Color.WHITE if line[4] == "W" else Color.BLACK
        elif code == "162":
            self._read_162(number, line)
        elif code.startswith("BB"):
            self.out.bb_points[code[2]] = _points_field(number, line, 4, None,
                                                        f"the {code} points value")
        elif code == "XXP":
            self.out.xxp.append((number, _id_tokens(number, line, 3)))
        elif code == "240":
            self._read_240(number, line)
        elif code == "SBN":
            self.out.no_colours = True
        elif code == "SBW":
            tokens = list(re.finditer(r"\S+", line[3:]))
            if len(tokens) != 2:
                raise TrfError("an SBW line is 'SBW <player> <round>'", number, 5)
            player, rnd = tokens
            self.out.withdrawals.append((
                number,
                _int_field(number, line, 3 + player.start(), 3 + player.end(),
                           "the withdrawn player's id", 1, MAX_ID),
                _int_field(number, line, 3 + rnd.start(), 3 + rnd.end(),
                           "the withdrawal round", 1, MAX_ROUNDS),
            ))
        elif code == "SBS":
            self.out.full_scoring = self._read_sbs(number, line)
        elif code == "SBE":
            self.out.seed = _int_field(number, line, 4, None, "the event seed", 0, MAX_SEED)

    def _read_162(self, number: int, line: str) -> None:
        if len(line.rstrip()) < 10:
            raise TrfError("a 162 line needs at least one code and value", number, 6)
        index = 5
        while index + 5 <= len(line.rstrip()):
            letter = line[index]
            value = _points_field(number, line, index + 1, index + 5,
                                  f"the points value of code {letter!r}")
            if letter == "X":
                raise TrfError("point code X is not supported", number, index + 1)
            key = {"W": "W", "D": "D", "L": "L", "Z": "Z", "P": "U"}.get(letter)
            if letter == "A":  # TRF-2026 absence: zero-point bye and forfeit loss alike
                self.out.bb_points["Z"] = value
                self.out.bb_points["F"] = value
            elif key is None:
                raise TrfError(f"unknown point code {letter!r}", number, index + 1)
            else:
                self.out.bb_points[key] = value
            index += 9

    def _read_sbs(self, number: int, line: str) -> Scoring:
        values: dict[str, Points] = {}
        for match in re.finditer(r"\S+", line[3:]):
            column = 4 + match.start()
            key, equals, value = match.group().partition("=")
            if key not in SCORING_FIELDS or not equals:
                raise TrfError(f"unknown scoring field {key!r} (an SBS line holds "
                               "name=value pairs such as win=3)", number, column)
            if key in values:
                raise TrfError(f"scoring field {key!r} is given twice", number, column)
            # Ratios are allowed: the writer puts values such as 1/3 here exactly.
            value_column = column + len(key) + 1
            values[key] = _points_field(number, line, value_column - 1, value_column - 1
                                        + len(value), f"the {key} points", ratios=True)
        return Scoring(**values)  # type: ignore[arg-type]

    def _read_240(self, number: int, line: str) -> None:
        if len(line.rstrip()) < 14:
            raise TrfError("a 240 line is '240 T RRR PPPP PPPP ...'", number, 11)
        code = line[4].upper()
        if code == "U":
            raise TrfError("a pairing-allocated bye cannot be assigned in advance", number, 5)
        if code not in REQUEST_CODE:
            raise TrfError(f"unknown bye type {line[4]!r} (use H, F or Z)", number, 5)
        round_number = _int_field(number, line, 6, 9, "the bye round", 1, MAX_ROUNDS)
        start = 10
        stripped = line.rstrip()
        while start + 4 <= len(stripped):
            pid = _int_field(number, line, start, start + 4, "player id", 1, MAX_ID)
            self.out.bye_lines.append(ByeLine(number, start + 1, round_number, pid, code))
            start += 5
        if stripped[start:].strip():
            raise TrfError("incomplete player id (ids take 4 columns, 5 apart)", number,
                           start + 1)

    def _read_260(self, number: int, line: str) -> None:
        first = _int_field(number, line, 4, 7, "the first round of a 260 line", 1, MAX_ROUNDS)
        last = _int_field(number, line, 8, 11, "the last round of a 260 line", 1, MAX_ROUNDS)
        players = []
        start = 12
        while start + 4 <= len(line.rstrip()):
            players.append((_int_field(number, line, start, start + 4, "player id", 1, MAX_ID),
                            start + 1))
            start += 5
        self.out.forbidden_260.append((number, first, last, players))

    def _read_192(self, number: int, line: str) -> None:
        """TRF-2026 ``192``: the encoded tournament type at column 5, one code of capitals,
        digits and ``_`` (``FIDE_DUTCH_2025_BAKU``); a code ending in ``_BAKU`` asks for Baku
        acceleration. The line itself is kept verbatim; one per file (bbpPairings reads the
        last of several, a file that says two things is refused here)."""
        if self.out.tournament_type_line:
            raise TrfError(f"a second 192 line (the first is on line "
                           f"{self.out.tournament_type_line})", number, 1)
        if line[3:4] not in ("", " "):
            raise TrfError("column 4 of a 192 line must be blank", number, 4)
        code = line[4:].rstrip()
        if not code:
            raise TrfError("a 192 line needs the tournament type code at column 5 (e.g. "
                           "FIDE_DUTCH_2025_BAKU)", number, 5)
        bad = re.search(r"[^A-Z0-9_]", code)
        if bad:
            raise TrfError(f"a tournament type code (192) is made of capitals, digits and '_' "
                           f"(found {bad.group()!r})", number, 5 + bad.start())
        self.out.tournament_type = code
        self.out.tournament_type_line = number

    def _read_xxa(self, number: int, line: str) -> None:
        """``XXA pppp  a.a  a.a ...``: extra pairing points per round (JaVaFo/bbpPairings): the
        player id at columns 5-8, then one 4-column field per round from column 10, 5 apart,
        every field filled from round 1 on (bbpPairings refuses a blank field, and a line
        without any). One line per player: bbpPairings silently ignores a second one, so it is
        refused here rather than read differently."""
        pid = _int_field(number, line, 4, 8, "player id", 1, MAX_ID)
        first = self.xxa_lines.setdefault(pid, number)
        if first != number:
            raise TrfError(f"a second XXA line for player {pid} (the first is on line {first}; "
                           "bbpPairings would ignore this one)", number, 5)
        if line[8:9].strip():
            raise TrfError("column 9 of an XXA line must be blank", number, 9)
        stripped = line.rstrip()
        if len(stripped) <= 9:
            raise TrfError("an XXA line needs the points of round 1 at columns 10-13", number,
                           10)
        start, round_number = 9, 1
        while start < len(stripped):
            if round_number > MAX_ROUNDS:
                raise TrfError(f"an XXA line has at most {MAX_ROUNDS} rounds", number, start + 1)
            if not stripped[start:start + 4].strip():
                raise TrfError(f"round {round_number}: blank acceleration field (write 0.0 for "
                               "no extra points)", number, start + 1)
            points = _points_field(number, line, start, start + 4,
                                   "acceleration points (4 columns, 5 apart)",
                                   low=0, high=MAX_SCORE, decimals=1)
            self.out.acceleration.append(
                AccelerationEntry(number, start + 1, pid, round_number, points))
            if stripped[start + 4:start + 5].strip():
                raise TrfError("acceleration fields take 4 columns, 5 apart", number, start + 5)
            start += 5
            round_number += 1

    # -- player lines --------------------------------------------------------------------
    def _read_player(self, number: int, line: str) -> None:
        if len(line) < MIN_PLAYER_LINE:
            raise TrfError(
                f"a player line must reach the points column 81-84 (it has {len(line)} "
                "characters)", number, len(line) + 1)
        _refuse_five_digits(number, line, 4)
        pid = _int_field(number, line, 4, 8, "pairing id", 1, MAX_ID)
        if pid in self.out.players:
            raise TrfError(
                f"pairing id {pid} is repeated (first on line {self.out.players[pid].line})",
                number, 5)
        rating = 0
        if line[48:52].strip():
            rating = _int_field(number, line, 48, 52, "rating", 0, MAX_ID)
        points = _points_field(number, line, 80, 84, "points column 81-84", low=-MAX_SCORE,
                               high=MAX_SCORE, decimals=1)
        rank_text = line[85:89].strip()
        # bbp ignores the rank column; anything but ASCII digits there reads as "no rank".
        rank = int(rank_text) if rank_text.isascii() and rank_text.isdigit() else 0
        info = TrfPlayerInfo(
            sex=line[9:10].strip(),
            title=line[10:13].strip(),
            federation=line[53:56].strip(),
            fide_id=line[57:68].strip(),
            birth=line[69:79].strip(),
            rank=rank,
            points=points,
        )
        self.out.players[pid] = PlayerLine(
            line=number, id=pid, name=line[14:47].strip(), rating=rating,
            points=points, info=info, entries=self._read_entries(number, line, pid),
        )
        self.out.line_order.append(pid)

    def _read_entries(self, number: int, line: str, pid: int) -> list[Entry | None]:
        entries: list[Entry | None] = []
        start = FIRST_ROUND_COLUMN - 1
        while start + 8 <= len(line):
            entries.append(self._read_entry(number, line, start, pid))
            start += ROUND_WIDTH
        rest = line[start:]
        if rest.strip():
            offset = len(rest) - len(rest.lstrip())
            round_number = len(entries) + 1
            raise TrfError(
                f"incomplete round {round_number} entry (it needs columns {start + 1}-"
                f"{start + 8}: opponent, colour, result)", number, start + offset + 1)
        while entries and entries[-1] is None:
            entries.pop()
        return entries

    @staticmethod
    def _read_entry(number: int, line: str, start: int, pid: int) -> Entry | None:
        column = start + 1
        round_number = (start - FIRST_ROUND_COLUMN + 1) // ROUND_WIDTH + 1
        opp_text, colour, code = line[start:start + 4], line[start + 5], line[start + 7]
        if opp_text == "    " and colour == " " and code == " ":
            return None  # blank: absent unless later rounds say otherwise
        opponent: int | None = None
        _refuse_five_digits(number, line, start)
        opp = opp_text.strip()
        if opp.isascii() and opp.isdigit():  # the usual case (4 digits: at most MAX_ID)
            opponent = int(opp) or None
        elif opp:
            opponent = _int_field(number, line, start, start + 4,
                                  f"round {round_number}: opponent id", 0, MAX_ID) or None
        if opponent == pid:
            raise TrfError(f"round {round_number}: player {pid} is listed as his own "
                           "opponent", number, column)
        colour = colour.lower()
        if colour == " ":
            colour = "-"
        if colour not in ("w", "b", "-"):
            raise TrfError(f"round {round_number}: colour {line[start + 5]!r} is not w, b or -",
                           number, column + 5)
        code = code.upper()
        if code not in ALL_CODES:
            raise TrfError(f"round {round_number}: unknown result code {line[start + 7]!r}",
                           number, column + 7)
        if opponent is None:
            if colour != "-":
                raise TrfError(f"round {round_number}: colour {colour!r} without an opponent",
                               number, column + 5)
            if code in PLAYED_CODES and code != "=":
                raise TrfError(f"round {round_number}: result {code!r} needs an opponent",
                               number, column + 7)
        elif code in BYE_CODES:
            what = "a blank result" if code == " " else f"result {code!r}"
            raise TrfError(f"round {round_number}: {what} is for a round without an opponent "
                           f"(opponent {opponent} given)", number, column + 7)
        return Entry(number, column, opponent, colour, code)


def read_250(number: int, line: str) -> AccelerationRange:
    """A TRF-2026 ``250`` record (accelerated rounds), ``250 MMMM GGGG RRF RRL PPPF PPPL``:
    match points at 5-8 (blank or zero: individual events only), game points at 10-13 (not
    zero), first and last round at 15-17 and 19-21, first and last player id at 23-26 and
    28-31. Raises :class:`TrfError` at the offending column."""
    stripped = line.rstrip()
    if len(stripped) < 31:
        raise TrfError("a 250 line is '250 MMMM GGGG RRF RRL PPPF PPPL' (31 columns)", number,
                       len(stripped) + 1)
    if len(stripped) > 31:
        raise TrfError("a 250 line ends at column 31", number, 32)
    for column in (4, 9, 14, 18, 22, 27):
        if line[column - 1] != " ":
            raise TrfError(f"column {column} of a 250 line must be blank", number, column)
    if line[4:8].strip():
        match = _points_field(number, line, 4, 8, "match points", low=0, high=MAX_SCORE,
                              decimals=1)
        if match:
            raise TrfError("match points (columns 5-8) are for team events: leave them blank",
                           number, 5)
    points = _points_field(number, line, 9, 13, "acceleration points", low=0,
                           high=MAX_SCORE, decimals=1)
    if not points:
        raise TrfError("the acceleration points (columns 10-13) must not be zero", number, 10)
    first_round = _int_field(number, line, 14, 17, "first round", 1, MAX_ROUNDS)
    last_round = _int_field(number, line, 18, 21, "last round", 1, MAX_ROUNDS)
    if last_round < first_round:
        raise TrfError(f"last round {last_round} is before first round {first_round}", number,
                       19)
    first_player = _int_field(number, line, 22, 26, "first player id", 1, MAX_ID)
    last_player = _int_field(number, line, 27, 31, "last player id", 1, MAX_ID)
    if last_player < first_player:
        raise TrfError(f"last player {last_player} is before first player {first_player}",
                       number, 28)
    return AccelerationRange(number, points, first_round, last_round, first_player,
                             last_player)


def acceleration_of(items: Iterable[AccelerationEntry | AccelerationRange],
                    players: Collection[int]) -> dict[int, dict[int, Fraction]]:
    """Round -> player -> extra pairing points of XXA fields and 250 records.

    As bbpPairings 6.0.0 reads them (black-box checked): a 250 record replaces what XXA lines
    give for its players and rounds, whether it comes before or after them, and a later 250
    record replaces an earlier one; a 250 record covers the players of its range that are in
    ``players``. (A second XXA line for one player is an error of the scanner.) Zero points
    are left out.
    """
    out: dict[int, dict[int, Fraction]] = {}
    ranges = []
    for item in items:
        if isinstance(item, AccelerationRange):
            ranges.append(item)
        else:
            out.setdefault(item.round, {})[item.player] = item.points
    for item in ranges:
        for r in range(item.first_round, item.last_round + 1):
            per_round = out.setdefault(r, {})
            for pid in range(item.first_player, item.last_player + 1):
                if pid in players:
                    per_round[pid] = item.points
    cleaned = {r: {pid: v for pid, v in sorted(m.items()) if v} for r, m in sorted(out.items())}
    return {r: m for r, m in cleaned.items() if m}


# -- fields --------------------------------------------------------------------------------
def _field(line: str, start: int, end: int | None) -> tuple[str, int]:
    """The text of columns ``start+1..end`` without surrounding blanks, and its 0-based index."""
    raw = line[start:end]
    text = raw.strip()
    return text, start + len(raw) - len(raw.lstrip())


def _refuse_five_digits(number: int, line: str, start: int) -> None:
    """A start number in columns ``start+1..start+4`` that runs on into the next column.

    A TRF file of 10,000 players or more writes ``10000`` over columns 5-9: read as four
    columns it would be 1000 (and "repeated"), so the real problem is said instead."""
    field = line[start:start + 5]
    if len(field) == 5 and field.isascii() and field.isdigit():
        raise TrfError(f"start number {line[start:].split()[0][:12]} is too long: start numbers "
                       f"have at most four digits in TRF-16 (columns {start + 1}-{start + 4}), "
                       f"so a TRF file holds at most {MAX_ID:,} players", number, start + 1)


def _int_field(number: int, line: str, start: int, end: int | None, what: str, low: int,
               high: int) -> int:
    """A whole number in ``low..high`` (see :mod:`swiss.numbers`), or a :class:`TrfError` at the
    offending character."""
    text, index = _field(line, start, end)
    # Fast path for the usual field (a few ASCII digits in range); anything else goes through
    # parse_int, which says what is wrong.
    if 0 < len(text) <= 9 and text.isascii() and text.isdigit() and low <= int(text) <= high:
        return int(text)
    try:
        return parse_int(text, what, low=low, high=high)
    except NumberError as exc:
        raise TrfError(exc.reason, number, index + exc.offset + 1) from None


def _points_field(number: int, line: str, start: int, end: int | None, what: str, *,
                  low: int = -MAX_POINTS, high: int = MAX_POINTS, decimals: int = 4,
                  ratios: bool = False) -> Points:
    """Exact points (a decimal, or with ``ratios`` also ``p/q``), bounded, or a TrfError."""
    text, index = _field(line, start, end)
    try:
        return _points_value(text, what, low, high, decimals, ratios)
    except NumberError as exc:
        raise TrfError(exc.reason, number, index + exc.offset + 1) from None


@functools.lru_cache(maxsize=1024)
def _points_value(text: str, what: str, low: int, high: int, decimals: int,
                  ratios: bool) -> Points:
    """:func:`parse_fraction`, remembered: a file repeats the same few scores (errors are
    raised, not remembered)."""
    return parse_fraction(text, what, low=low, high=high, decimals=decimals, ratios=ratios)


def _id_tokens(number: int, line: str, start: int) -> list[tuple[int, int]]:
    """Whitespace-separated player ids from ``start`` (0-based), with their columns."""
    out = []
    for match in re.finditer(r"\S+", line[start:]):
        column = start + match.start()
        out.append((_int_field(number, line, column, column + len(match.group()), "player id",
                               1, MAX_ID), column + 1))
    return out


def decode_trf(data: bytes) -> str:
    """The text of a TRF file's bytes, which must be UTF-8 (as bbpPairings requires).

    An invalid byte is reported as a :class:`TrfError` at its line and column (in characters,
    counted like the scanner counts them), not as a byte offset nobody can find in an editor.
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[:exc.start].decode("utf-8")  # valid: the decoder stopped at exc.start
        if before.startswith("\ufeff"):
            before = before[1:]
        lines = LINE_BREAK.split(before)
        raise TrfError(f"not valid UTF-8: byte 0x{data[exc.start]:02x} does not belong to any "
                       "character (save the file as UTF-8)", len(lines),
                       len(lines[-1]) + 1) from None
