"""Scanning a TRF file: its lines and fields, each kept with its line and column.

The first of the two stages of :func:`swiss.trf.parse_trf`. The scanner knows the column layout
and the syntax of every interpreted line, but nothing about the tournament: it returns a
:class:`ScannedTrf` of raw records that remember where they were read, so that the second stage
(:mod:`swiss.trf.reader`, which builds the :class:`~swiss.model.Tournament` and checks that the
lines agree with each other) can name the line and column of any problem it finds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from swiss.model import Color, Points, Scoring
from swiss.trf.format import (
    ACCELERATION,
    ALL_CODES,
    BYE_CODES,
    FIRST_ROUND_COLUMN,
    INTERPRETED,
    LINE_BREAK,
    MAX_ID,
    MIN_PLAYER_LINE,
    NUMBER,
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
    other_lines: list[str] = field(default_factory=list)


def scan_trf(text: str) -> ScannedTrf:
    """Read every line of a TRF file into raw records; raise :class:`TrfError` (with line and
    column) for a line or field that breaks the layout."""
    return _Scanner(text).scan()


class _Scanner:
    def __init__(self, text: str) -> None:
        if text.startswith("\ufeff"):
            text = text[1:]
        self.lines = LINE_BREAK.split(text)
        if self.lines and self.lines[-1] == "":
            self.lines.pop()
        self.out = ScannedTrf(line_count=len(self.lines))

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
                if line.strip():
                    self.out.other_lines.append(line.rstrip())
                if code == "260":
                    self._read_260(number, line)
                continue
            self._read_line(code, number, line)
        return self.out

    def _read_line(self, code: str, number: int, line: str) -> None:
        if code == "001":
            self._read_player(number, line)
        elif code == "012":
            self.out.name = line[4:].strip()
        elif code in ("XXR", "142"):
            self.out.total_rounds = self._single_int(number, line, 4, "the number of rounds")
            if self.out.total_rounds <= 0:
                raise TrfError("the number of rounds must be positive", number, 5)
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
            self.out.bb_points[code[2]] = self._points_field(number, line, 4, "points value")
        elif code == "XXP":
            self.out.xxp.append((number, self._id_tokens(number, line, 3)))
        elif code == "240":
            self._read_240(number, line)
        elif code == "SBN":
            self.out.no_colours = True
        elif code == "SBW":
            values = [v for v, _ in self._id_tokens(number, line, 3)]
            if len(values) != 2:
                raise TrfError("an SBW line is 'SBW <player> <round>'", number, 5)
            self.out.withdrawals.append((number, values[0], values[1]))
        elif code == "SBS":
            self.out.full_scoring = self._read_sbs(number, line)
        elif code == "SBE":
            self.out.seed = self._single_int(number, line, 4, "the event seed")

    # -- field helpers -------------------------------------------------------------------
    @staticmethod
    def _single_int(number: int, line: str, start: int, what: str) -> int:
        text = line[start:].strip()
        try:
            return int(text)
        except ValueError:
            raise TrfError(f"{what} {text!r} is not a whole number", number, start + 1) from None

    @staticmethod
    def _points_field(number: int, line: str, start: int, what: str, end: int | None = None
                      ) -> Points:
        text = line[start:end].strip()
        if not text:
            raise TrfError(f"the {what} is blank", number, start + 1)
        if not NUMBER.fullmatch(text):
            raise TrfError(f"the {what} {text!r} is not a number", number, start + 1)
        return Fraction(text)

    @staticmethod
    def _id_tokens(number: int, line: str, start: int) -> list[tuple[int, int]]:
        """Whitespace-separated whole numbers from ``start`` (0-based), with their columns."""
        out = []
        for match in re.finditer(r"\S+", line[start:]):
            token, column = match.group(), start + match.start() + 1
            if not token.isdigit():
                raise TrfError(f"{token!r} is not a player id", number, column)
            out.append((int(token), column))
        return out

    def _read_162(self, number: int, line: str) -> None:
        if len(line.rstrip()) < 10:
            raise TrfError("a 162 line needs at least one code and value", number, 6)
        index = 5
        while index + 5 <= len(line.rstrip()):
            letter = line[index]
            value = self._points_field(number, line, index + 1, "points value", index + 5)
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
            key, _, value = match.group().partition("=")
            if key not in SCORING_FIELDS:
                raise TrfError(f"unknown scoring field {key!r}", number, column)
            try:
                values[key] = Fraction(value)
            except (ValueError, ZeroDivisionError):
                raise TrfError(f"points {value!r} for {key} are not a number", number,
                               column) from None
        return Scoring(**values)  # type: ignore[arg-type]

    def _read_240(self, number: int, line: str) -> None:
        if len(line.rstrip()) < 14:
            raise TrfError("a 240 line is '240 T RRR PPPP PPPP ...'", number, 11)
        code = line[4].upper()
        if code == "U":
            raise TrfError("a pairing-allocated bye cannot be assigned in advance", number, 5)
        if code not in REQUEST_CODE:
            raise TrfError(f"unknown bye type {line[4]!r} (use H, F or Z)", number, 5)
        text = line[6:9].strip()
        if not text.isdigit() or int(text) == 0:
            raise TrfError(f"round {text!r} is not a round number", number, 7)
        start = 10
        stripped = line.rstrip()
        while start + 4 <= len(stripped):
            field_text = line[start:start + 4].strip()
            if not field_text.isdigit():
                raise TrfError(f"player id {field_text!r} is not a number", number, start + 1)
            self.out.bye_lines.append(ByeLine(number, start + 1, int(text), int(field_text), code))
            start += 5
        if stripped[start:].strip():
            raise TrfError("incomplete player id (ids take 4 columns, 5 apart)", number,
                           start + 1)

    def _read_260(self, number: int, line: str) -> None:
        first, last = line[4:7].strip(), line[8:11].strip()
        if not first.isdigit() or not last.isdigit():
            raise TrfError("a 260 line starts with its first and last round", number, 5)
        players = []
        start = 12
        while start + 4 <= len(line.rstrip()):
            text = line[start:start + 4].strip()
            if not text.isdigit():
                raise TrfError(f"player id {text!r} is not a number", number, start + 1)
            players.append((int(text), start + 1))
            start += 5
        self.out.forbidden_260.append((number, int(first), int(last), players))

    # -- player lines --------------------------------------------------------------------
    def _read_player(self, number: int, line: str) -> None:
        if len(line) < MIN_PLAYER_LINE:
            raise TrfError(
                f"a player line must reach the points column 81-84 (it has {len(line)} "
                "characters)", number, len(line) + 1)
        id_text = line[4:8].strip()
        if not id_text.isdigit():
            raise TrfError(f"pairing id {id_text!r} is not a number", number, 5)
        pid = int(id_text)
        if not 1 <= pid <= MAX_ID:
            raise TrfError(f"pairing id {pid} is outside 1..{MAX_ID}", number, 5)
        if pid in self.out.players:
            raise TrfError(
                f"pairing id {pid} is repeated (first on line {self.out.players[pid].line})",
                number, 5)
        rating_text = line[48:52].strip()
        if rating_text and not rating_text.isdigit():
            raise TrfError(f"rating {rating_text!r} is not a number", number, 49)
        points = self._points_field(number, line, 80, "points column 81-84", 84)
        rank_text = line[85:89].strip()
        info = TrfPlayerInfo(
            sex=line[9:10].strip(),
            title=line[10:13].strip(),
            federation=line[53:56].strip(),
            fide_id=line[57:68].strip(),
            birth=line[69:79].strip(),
            rank=int(rank_text) if rank_text.isdigit() else 0,
            points=points,
        )
        self.out.players[pid] = PlayerLine(
            line=number, id=pid, name=line[14:47].strip(), rating=int(rating_text or 0),
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
        if opp_text.strip() not in ("", "0000"):
            text = opp_text.strip()
            if not text.isdigit():
                raise TrfError(f"round {round_number}: opponent id {text!r} is not a number",
                               number, column)
            opponent = int(text) or None
            if opponent == pid:
                raise TrfError(f"round {round_number}: player {pid} is listed as his own "
                               "opponent", number, column)
        colour = colour.lower()
        if colour == " ":
            colour = "-"
        if colour not in "wb-":
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
