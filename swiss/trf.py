"""FIDE TRF-16 files as bbpPairings and JaVaFo read them, and the pairs output format.

:func:`parse_trf` turns the text of a TRF file into a :class:`TrfTournament` (the model's
:class:`~swiss.model.Tournament` plus the TRF-only player fields); :func:`write_trf` writes a
tournament back in exactly the column layout bbpPairings reads; :func:`format_pairs` prints a
:class:`~swiss.pairing.types.PairingResult` the way ``bbpPairings -p`` and JaVaFo do.

Columns below are 1-based, as in the FIDE description.

Reading follows bbpPairings:

* Lines are recognised by their first three characters; LF, CRLF and bare CR all end a line.
  Unknown codes (``022``, ``092``, ``132``, comments ...) are kept verbatim in
  :attr:`TrfTournament.other_lines` and written back; ``013``, ``310`` and ``299`` are rejected.
* ``001`` player lines: pairing id at 5-8, name 15-47, rating 49-52, points 81-84 (required and
  checked against the results), rank 86-89 (kept, not used), then one 10-column entry per round
  from column 92: opponent (``0000`` or blank: none), colour (``w``/``b``/``-``), result.
* The number of rounds played is bbp's: the last column anyone was paired in (a game or a
  pairing-allocated bye); entries in the column after it are byes or absences *requested* for
  the round being paired and become ``Tournament.requested_byes[next_round]``, as do ``240``
  lines (for any round).
* ``XXR``/``142`` total rounds, ``XXC white1|black1|rank`` and ``152 W|B``, ``BBW BBD BBL BBZ
  BBF BBU`` and ``162`` point systems, ``XXP`` forbidden groups, ``260`` forbidden groups when
  their range covers the round being paired, ``012`` tournament name.

TRF cannot say everything the model can, so the writer adds a few lines of its own, all with a
code bbpPairings and JaVaFo ignore (prefix ``SB``):

* ``SBN`` -- the event uses no colours (games are then written with colour ``-``);
* ``SBW <id> <round>`` -- the player withdrew and takes no part from that round on;
* ``SBS win=3 draw=1 ...`` -- the full point system, only when ``BB*`` lines cannot express it;
* ``SBE <seed>`` -- the event seed (random systems, round-1 coin, tie-break term).

What TRF cannot keep, the parser rebuilds in one canonical form: games of a round in the
engine's board order (higher score of the pair first, then the higher lower score, then the
better seed of the higher player) numbered from board 1; in colourless events the better seed is
the first side; byes with the pairing-allocated bye first, then by player id; ``XXC rank`` seeds
become ``Player.order`` (0 where it equals the id). Pending games and requested
pairing-allocated byes cannot be written (:class:`ValueError`).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from swiss.model import (
    Bye,
    ByeKind,
    Color,
    Game,
    Outcome,
    Player,
    Points,
    Result,
    Round,
    Scoring,
    Tournament,
)
from swiss.pairing.types import PairingResult
from swiss.state import player_states

__all__ = [
    "TrfError",
    "TrfPlayerInfo",
    "TrfTournament",
    "format_pairs",
    "parse_trf",
    "write_trf",
]

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_NUMBER = re.compile(r"-?\d+(\.\d+)?")
_FIRST_ROUND_COLUMN = 92  # 1-based column of round 1's opponent id
_ROUND_WIDTH = 10
_MIN_PLAYER_LINE = 84  # the points column 81-84 is required
_MAX_ID = 9999

# Result codes. "Played" codes need an opponent; bye codes need none.
_PLAYED_CODES = frozenset("10=WLD")
_FORFEIT_CODES = frozenset("+-")
_BYE_CODES = frozenset("HFUZ ")
_ALL_CODES = _PLAYED_CODES | _FORFEIT_CODES | _BYE_CODES

# What a result code means for the player on whose line it is.
_CODE_OUTCOME = {
    "1": Outcome.WIN, "W": Outcome.WIN,
    "0": Outcome.LOSS, "L": Outcome.LOSS,
    "=": Outcome.DRAW, "D": Outcome.DRAW,
    "+": Outcome.FORFEIT_WIN, "-": Outcome.FORFEIT_LOSS,
}
_GAME_RESULT = {
    (Outcome.WIN, Outcome.LOSS): Result.WHITE_WINS,
    (Outcome.LOSS, Outcome.WIN): Result.BLACK_WINS,
    (Outcome.DRAW, Outcome.DRAW): Result.DRAW,
    (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS): Result.WHITE_FORFEIT_WIN,
    (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN): Result.BLACK_FORFEIT_WIN,
    (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_LOSS): Result.DOUBLE_FORFEIT,
}
_OUTCOME_CODE = {
    Outcome.WIN: "1", Outcome.LOSS: "0", Outcome.DRAW: "=",
    Outcome.FORFEIT_WIN: "+", Outcome.FORFEIT_LOSS: "-",
}
# Bye codes without an opponent in a played round; None means "absent" (no bye at all).
_PLAYED_ROUND_BYE = {
    "U": ByeKind.PAIRING, "+": ByeKind.PAIRING,
    "F": ByeKind.FULL, "H": ByeKind.HALF, "=": ByeKind.HALF,
    "Z": ByeKind.ZERO, "-": None, " ": None,
}
# Entries for a round not yet paired (column or 240 type); None means "absent".
_REQUEST_CODE = {"H": ByeKind.HALF, "=": ByeKind.HALF, "F": ByeKind.FULL, "Z": ByeKind.ZERO,
                 "-": None, " ": None}
_BYE_CODE = {ByeKind.PAIRING: "U", ByeKind.HALF: "H", ByeKind.FULL: "F", ByeKind.ZERO: "Z"}
_ABSENT_ENTRY = "  0000 - -"  # neither a game nor a bye: absent, scores Scoring.absent
_SCORING_FIELDS = (
    "win", "draw", "loss", "forfeit_win", "forfeit_loss",
    "pairing_bye", "half_bye", "full_bye", "zero_bye", "absent",
)
_UNSUPPORTED = {
    "013": "team tournaments are not supported",
    "310": "team tournaments are not supported",
    "299": "abnormal assignment points are not supported",
}
# Codes whose content the parser maps into the model; everything else is kept verbatim.
_INTERPRETED = frozenset(
    {"001", "012", "XXR", "142", "XXC", "152", "162", "XXP", "240",
     "BBW", "BBD", "BBL", "BBZ", "BBF", "BBU", "SBN", "SBW", "SBS", "SBE"}
)
_ACCELERATION = frozenset({"XXA", "250"})


class TrfError(ValueError):
    """A malformed or inconsistent TRF file. The message names the line and column."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None):
        self.reason = message
        self.line = line
        self.column = column
        where = []
        if line is not None:
            where.append(f"line {line}")
        if column is not None:
            where.append(f"column {column}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


@dataclass(frozen=True, slots=True)
class TrfPlayerInfo:
    """The fields of a ``001`` line that the model has no place for (kept for writing back)."""

    sex: str = ""
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    birth: str = ""
    rank: int = 0  # rank column 86-89; 0 when blank
    points: Points | None = None  # the points column as read


@dataclass(frozen=True, slots=True)
class TrfTournament:
    """A parsed TRF file: the tournament, the TRF-only player fields and the uninterpreted lines."""

    tournament: Tournament
    players: Mapping[int, TrfPlayerInfo] = field(default_factory=dict)
    other_lines: tuple[str, ...] = ()

    def to_text(self, newline: str = "\n") -> str:
        """Write the file back (:func:`write_trf` with the kept player fields and lines)."""
        return write_trf(
            self.tournament, players=self.players, other_lines=self.other_lines, newline=newline
        )


# -- parsing -----------------------------------------------------------------------------------
@dataclass(slots=True)
class _Entry:
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
    def colour_column(self) -> int:
        return self.column + 5

    @property
    def result_column(self) -> int:
        return self.column + 7


@dataclass(slots=True)
class _PlayerLine:
    line: int
    id: int
    name: str
    rating: int
    points: Points
    info: TrfPlayerInfo
    entries: list[_Entry | None]


@dataclass(slots=True)
class _ByeLine:
    line: int
    column: int
    round: int
    player: int
    code: str


def parse_trf(text: str) -> TrfTournament:
    """Parse the text of a TRF-16 file (bbpPairings/JaVaFo dialect) into the model.

    Raises :class:`TrfError` naming the line and column of the first problem: a field that is
    not a number, a line too short for its points column, a repeated or missing pairing id, two
    player lines that disagree about a game, a points column that does not match the results.
    """
    return _Parser(text).parse()


class _Parser:
    def __init__(self, text: str) -> None:
        if text.startswith("\ufeff"):
            text = text[1:]
        self.lines = _LINE_BREAK.split(text)
        if self.lines and self.lines[-1] == "":
            self.lines.pop()
        self.players: dict[int, _PlayerLine] = {}
        self.line_order: list[int] = []
        self.name = ""
        self.total_rounds = 0
        self.total_rounds_line = 0
        self.initial_color: Color | None = None
        self.use_rank = False
        self.no_colours = False
        self.bb_points: dict[str, Points] = {}
        self.full_scoring: Scoring | None = None
        self.xxp: list[tuple[int, list[tuple[int, int]]]] = []  # line, [(id, column)]
        self.forbidden_260: list[tuple[int, int, int, list[tuple[int, int]]]] = []
        self.bye_lines: list[_ByeLine] = []
        self.withdrawals: list[tuple[int, int, int]] = []  # line, player, round
        self.seed = 0
        self.accelerated = False
        self.other_lines: list[str] = []

    # -- the line loop -------------------------------------------------------------------
    def parse(self) -> TrfTournament:
        for number, line in enumerate(self.lines, start=1):
            if len(line) < 3:
                continue
            code = line[:3]
            if code in _UNSUPPORTED:
                raise TrfError(f"code {code}: {_UNSUPPORTED[code]}", number, 1)
            if code in _ACCELERATION or (code == "192" and line.rstrip().endswith("_BAKU")):
                self.accelerated = True
            if code not in _INTERPRETED:
                if line.strip():
                    self.other_lines.append(line.rstrip())
                if code == "260":
                    self._read_260(number, line)
                continue
            self._read_line(code, number, line)
        return self._build()

    def _read_line(self, code: str, number: int, line: str) -> None:
        if code == "001":
            self._read_player(number, line)
        elif code == "012":
            self.name = line[4:].strip()
        elif code in ("XXR", "142"):
            self.total_rounds = self._single_int(number, line, 4, "the number of rounds")
            if self.total_rounds <= 0:
                raise TrfError("the number of rounds must be positive", number, 5)
            self.total_rounds_line = number
        elif code == "XXC":
            for token in line[3:].split():
                if token == "white1":
                    self.initial_color = Color.WHITE
                elif token == "black1":
                    self.initial_color = Color.BLACK
                elif token == "rank":
                    self.use_rank = True
        elif code == "152":
            if len(line.rstrip()) != 5 or line[4] not in "WB":
                raise TrfError("a 152 line is '152 W' or '152 B'", number, 5)
            self.initial_color = Color.WHITE if line[4] == "W" else Color.BLACK
        elif code == "162":
            self._read_162(number, line)
        elif code.startswith("BB"):
            self.bb_points[code[2]] = self._points_field(number, line, 4, "points value")
        elif code == "XXP":
            self.xxp.append((number, self._id_tokens(number, line, 3)))
        elif code == "240":
            self._read_240(number, line)
        elif code == "SBN":
            self.no_colours = True
        elif code == "SBW":
            values = [v for v, _ in self._id_tokens(number, line, 3)]
            if len(values) != 2:
                raise TrfError("an SBW line is 'SBW <player> <round>'", number, 5)
            self.withdrawals.append((number, values[0], values[1]))
        elif code == "SBS":
            self.full_scoring = self._read_sbs(number, line)
        elif code == "SBE":
            self.seed = self._single_int(number, line, 4, "the event seed")

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
        if not _NUMBER.fullmatch(text):
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
                self.bb_points["Z"] = value
                self.bb_points["F"] = value
            elif key is None:
                raise TrfError(f"unknown point code {letter!r}", number, index + 1)
            else:
                self.bb_points[key] = value
            index += 9

    def _read_sbs(self, number: int, line: str) -> Scoring:
        values: dict[str, Points] = {}
        for match in re.finditer(r"\S+", line[3:]):
            column = 4 + match.start()
            key, _, value = match.group().partition("=")
            if key not in _SCORING_FIELDS:
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
        if code not in _REQUEST_CODE:
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
            self.bye_lines.append(_ByeLine(number, start + 1, int(text), int(field_text), code))
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
        self.forbidden_260.append((number, int(first), int(last), players))

    # -- player lines --------------------------------------------------------------------
    def _read_player(self, number: int, line: str) -> None:
        if len(line) < _MIN_PLAYER_LINE:
            raise TrfError(
                f"a player line must reach the points column 81-84 (it has {len(line)} "
                "characters)", number, len(line) + 1)
        id_text = line[4:8].strip()
        if not id_text.isdigit():
            raise TrfError(f"pairing id {id_text!r} is not a number", number, 5)
        pid = int(id_text)
        if not 1 <= pid <= _MAX_ID:
            raise TrfError(f"pairing id {pid} is outside 1..{_MAX_ID}", number, 5)
        if pid in self.players:
            raise TrfError(
                f"pairing id {pid} is repeated (first on line {self.players[pid].line})",
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
        self.players[pid] = _PlayerLine(
            line=number, id=pid, name=line[14:47].strip(), rating=int(rating_text or 0),
            points=points, info=info, entries=self._read_entries(number, line, pid),
        )
        self.line_order.append(pid)

    def _read_entries(self, number: int, line: str, pid: int) -> list[_Entry | None]:
        entries: list[_Entry | None] = []
        start = _FIRST_ROUND_COLUMN - 1
        while start + 8 <= len(line):
            entries.append(self._read_entry(number, line, start, pid))
            start += _ROUND_WIDTH
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
    def _read_entry(number: int, line: str, start: int, pid: int) -> _Entry | None:
        column = start + 1
        round_number = (start - _FIRST_ROUND_COLUMN + 1) // _ROUND_WIDTH + 1
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
        if code not in _ALL_CODES:
            raise TrfError(f"round {round_number}: unknown result code {line[start + 7]!r}",
                           number, column + 7)
        if opponent is None:
            if colour != "-":
                raise TrfError(f"round {round_number}: colour {colour!r} without an opponent",
                               number, column + 5)
            if code in _PLAYED_CODES and code != "=":
                raise TrfError(f"round {round_number}: result {code!r} needs an opponent",
                               number, column + 7)
        elif code in _BYE_CODES:
            what = "a blank result" if code == " " else f"result {code!r}"
            raise TrfError(f"round {round_number}: {what} is for a round without an opponent "
                           f"(opponent {opponent} given)", number, column + 7)
        return _Entry(number, column, opponent, colour, code)

    # -- assembling the tournament --------------------------------------------------------
    def _build(self) -> TrfTournament:
        self._check_ids()
        players = self._players()
        seeds = {p.id: p.seed for p in players}
        played = self._rounds_played()
        if self.total_rounds and played > self.total_rounds:
            raise TrfError(f"{played} rounds were played but the file says the tournament has "
                           f"{self.total_rounds}", self.total_rounds_line, 5)
        rounds, use_colors = self._rounds(played, seeds)
        withdrawn = self._withdrawn()
        requested = self._requested(played, withdrawn)
        tournament = Tournament(
            players=players,
            rounds=rounds,
            total_rounds=self.total_rounds,
            scoring=self._scoring(),
            use_colors=use_colors,
            initial_color=self.initial_color,
            withdrawn=withdrawn,
            requested_byes=requested,
            forbidden_pairs=self._forbidden(played + 1),
            seed=self.seed,
            name=self.name,
        )
        tournament = _canonical_boards(tournament)
        self._check_points(tournament)
        info = {pid: self.players[pid].info for pid in sorted(self.players)}
        return TrfTournament(tournament, info, tuple(self.other_lines))

    def _check_ids(self) -> None:
        if self.use_rank:
            return
        expected = 1
        for pid in sorted(self.players):
            if pid != expected:
                raise TrfError(
                    f"pairing id {pid} leaves a gap: id {expected} is missing (ids must run "
                    f"1..N without gaps unless 'XXC rank' is given)", self.players[pid].line, 5)
            expected += 1

    def _players(self) -> tuple[Player, ...]:
        out = []
        for position, pid in enumerate(self.line_order, start=1):
            raw = self.players[pid]
            order = position if self.use_rank and position != pid else 0
            out.append(Player(id=pid, name=raw.name, rating=raw.rating, order=order))
        return tuple(sorted(out, key=lambda p: p.id))

    def _rounds_played(self) -> int:
        """bbp's count: an entry in column r means round r-1 was played; a game or a PAB in
        column r means round r was; and a column everyone has an entry in was played too."""
        played = 0
        for raw in self.players.values():
            if raw.entries:
                played = max(played, len(raw.entries) - 1)
            for index, entry in enumerate(raw.entries, start=1):
                if entry is not None and entry.participated:
                    played = max(played, index)
        if self.players and all(len(raw.entries) > played for raw in self.players.values()):
            played += 1
        return played

    def _entry(self, pid: int, round_number: int) -> _Entry | None:
        entries = self.players[pid].entries
        return entries[round_number - 1] if round_number <= len(entries) else None

    def _rounds(self, played: int, seeds: Mapping[int, int]) -> tuple[tuple[Round, ...], bool]:
        with_colour: _Entry | None = None
        without_colour: _Entry | None = None
        rounds = []
        for r in range(1, played + 1):
            games: list[Game] = []
            byes: list[Bye] = []
            in_games: set[int] = set()
            for pid in self.line_order:
                entry = self._entry(pid, r)
                if entry is None or pid in in_games:
                    continue
                if entry.opponent is None:
                    kind = _PLAYED_ROUND_BYE[entry.code]
                    if kind is not None:
                        byes.append(Bye(pid, kind))
                    continue
                game, coloured = self._game(r, pid, entry, seeds)
                games.append(game)
                in_games.update(game.players)
                if game.result.is_played:
                    if coloured and with_colour is None:
                        with_colour = entry
                    if not coloured and without_colour is None:
                        without_colour = entry
            byes.sort(key=lambda b: (b.kind is not ByeKind.PAIRING, b.player))
            rounds.append(Round(number=r, games=tuple(games), byes=tuple(byes)))
        use_colors = not self.no_colours
        if use_colors and without_colour is not None:
            if with_colour is not None:
                raise TrfError(
                    f"round {(without_colour.column - _FIRST_ROUND_COLUMN) // 10 + 1}: a game "
                    "without colours ('-') in a tournament whose other games have colours "
                    f"(e.g. line {with_colour.line})",
                    without_colour.line, without_colour.colour_column)
            use_colors = False
        return tuple(rounds), use_colors

    def _game(self, r: int, pid: int, entry: _Entry, seeds: Mapping[int, int]
              ) -> tuple[Game, bool]:
        opp = entry.opponent
        assert opp is not None
        if opp not in self.players:
            raise TrfError(f"round {r}: opponent {opp} is not a player in this file",
                           entry.line, entry.column)
        other = self._entry(opp, r)
        if other is None or other.opponent != pid:
            listed = "nobody" if other is None or other.opponent is None else \
                f"player {other.opponent}"
            raise TrfError(
                f"round {r}: player {pid} lists opponent {opp}, but player {opp}'s line "
                f"(line {self.players[opp].line}) lists {listed}", entry.line, entry.column)
        colours = (entry.colour, other.colour)
        if colours not in (("w", "b"), ("b", "w"), ("-", "-")):
            raise TrfError(
                f"round {r}: colour {entry.colour!r} of player {pid} does not fit colour "
                f"{other.colour!r} of his opponent {opp} (line {other.line})",
                entry.line, entry.colour_column)
        mine, theirs = _CODE_OUTCOME.get(entry.code), _CODE_OUTCOME.get(other.code)
        coloured = entry.colour != "-"
        if coloured:
            first_is_me = entry.colour == "w"
        else:
            first_is_me = (seeds[pid], pid) < (seeds[opp], opp)
        pair = (mine, theirs) if first_is_me else (theirs, mine)
        result = _GAME_RESULT.get(pair)  # type: ignore[arg-type]
        if result is None:
            raise TrfError(
                f"round {r}: result {entry.code!r} of player {pid} does not fit result "
                f"{other.code!r} of his opponent {opp} (line {other.line})",
                entry.line, entry.result_column)
        white, black = (pid, opp) if first_is_me else (opp, pid)
        return Game(white=white, black=black, result=result), coloured

    def _withdrawn(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for number, pid, round_number in self.withdrawals:
            if pid not in self.players:
                raise TrfError(f"withdrawn player {pid} is not a player in this file", number, 5)
            if round_number < 1:
                raise TrfError("the withdrawal round must be 1 or later", number, 5)
            out[pid] = round_number
        return out

    def _requested(self, played: int, withdrawn: Mapping[int, int]
                   ) -> dict[int, dict[int, ByeKind]]:
        """Requested byes: the column after the last played round, and every 240 line."""
        next_round = played + 1
        sources: list[tuple[int, int, int, int, str]] = []  # line, column, round, id, code
        for pid in self.line_order:
            entry = self._entry(pid, next_round)
            if entry is not None:
                sources.append((entry.line, entry.result_column, next_round, pid, entry.code))
        for bye in self.bye_lines:
            if bye.player not in self.players:
                raise TrfError(f"player {bye.player} is not a player in this file",
                               bye.line, bye.column)
            sources.append((bye.line, bye.column, bye.round, bye.player, bye.code))
        out: dict[int, dict[int, ByeKind]] = {}
        first_line: dict[tuple[int, int], int] = {}
        for line, column, round_number, pid, code in sources:
            kind = _REQUEST_CODE[code]
            if kind is None:
                out_from = withdrawn.get(pid)
                if out_from is not None and out_from <= round_number:
                    continue  # the absence of a withdrawn player, not a request
                kind = ByeKind.ZERO
            previous = out.get(round_number, {}).get(pid)
            if previous is not None and previous is not kind:
                raise TrfError(
                    f"player {pid} has two different byes for round {round_number} (the "
                    f"other is on line {first_line[(round_number, pid)]})", line, column)
            first_line.setdefault((round_number, pid), line)
            out.setdefault(round_number, {})[pid] = kind
        return out

    def _forbidden(self, next_round: int) -> frozenset[frozenset[int]]:
        groups: list[tuple[int, list[tuple[int, int]]]] = list(self.xxp)
        groups += [(line, players) for line, first, last, players in self.forbidden_260
                   if first <= next_round <= last]
        pairs: set[frozenset[int]] = set()
        for line, members in groups:
            for pid, column in members:
                if pid not in self.players:
                    raise TrfError(f"forbidden pair: {pid} is not a player in this file",
                                   line, column)
            ids = sorted({pid for pid, _ in members})
            pairs.update(frozenset((a, b)) for i, a in enumerate(ids) for b in ids[i + 1:])
        return frozenset(pairs)

    def _scoring(self) -> Scoring:
        if self.full_scoring is not None:
            return self.full_scoring
        return _bbp_scoring(self.bb_points)

    def _check_points(self, tournament: Tournament) -> None:
        states = player_states(tournament)
        scoring = tournament.scoring
        requested = tournament.requested_byes.get(tournament.next_round, {})
        for pid, raw in self.players.items():
            computed = states[pid].score
            allowed = {computed}
            if pid in requested:  # bbp accepts points already granted for the next round
                allowed.add(computed + scoring.for_bye(requested[pid]))
            if raw.points in allowed or (self.accelerated and raw.points >= computed):
                continue
            raise TrfError(
                f"the score {_show(raw.points)} of player {pid} does not match the game "
                f"results ({_show(computed)} under this point system)", raw.line, 81)


def _bbp_scoring(points: Mapping[str, Points]) -> Scoring:
    """The point system of bbp's ``BB*`` letters (W D L Z F U); unset letters keep chess."""
    chess = Scoring.chess()
    win = points.get("W", chess.win)
    draw = points.get("D", chess.draw)
    zero = points.get("Z", chess.zero_bye)
    return Scoring(
        win=win, draw=draw, loss=points.get("L", chess.loss),
        forfeit_win=win, forfeit_loss=points.get("F", chess.forfeit_loss),
        pairing_bye=points.get("U", win), half_bye=draw, full_bye=win,
        zero_bye=zero, absent=zero,
    )


def _bbp_letters(scoring: Scoring) -> dict[str, Points]:
    return {"W": scoring.win, "D": scoring.draw, "L": scoring.loss, "Z": scoring.zero_bye,
            "F": scoring.forfeit_loss, "U": scoring.pairing_bye}


def _canonical_boards(tournament: Tournament) -> Tournament:
    """Order each round's games like the engine's boards and number them from 1."""
    states = player_states(tournament)
    seeds = {p.id: (p.seed, p.id) for p in tournament.players}
    rounds = []
    for rnd in tournament.rounds:
        index = rnd.number - 1

        def key(game: Game, index: int = index) -> tuple:
            a, b = game.white, game.black
            sa, sb = states[a].scores_before[index], states[b].scores_before[index]
            hi, lo = (a, b) if (-sa, seeds[a]) < (-sb, seeds[b]) else (b, a)
            s_hi, s_lo = max(sa, sb), min(sa, sb)
            return (-s_hi, -s_lo, seeds[hi], seeds[lo])

        games = tuple(replace(g, board=i) for i, g in enumerate(sorted(rnd.games, key=key), 1))
        rounds.append(replace(rnd, games=games))
    return replace(tournament, rounds=tuple(rounds))


def _show(points: Points) -> str:
    return str(points.numerator) if points.denominator == 1 else f"{float(points):g}"


# -- writing -----------------------------------------------------------------------------------
def write_trf(
    tournament: Tournament,
    *,
    players: Mapping[int, TrfPlayerInfo] | None = None,
    other_lines: Sequence[str] = (),
    newline: str = "\n",
) -> str:
    """Write ``tournament`` as a TRF-16 file in the column layout bbpPairings reads.

    ``players`` supplies the TRF-only fields (sex, title, federation, FIDE id, birth date, rank)
    by player id; without a rank the standings position (score, then seed) is written.
    ``other_lines`` are written verbatim after the ``012`` line. Requested byes of the next
    round go in its column, others in ``240`` lines; see the module docstring for the ``SB``
    lines. Raises :class:`ValueError` for what TRF cannot hold (pending games, a requested
    pairing-allocated bye, ids or ratings above 9999, scores with more than one decimal).
    """
    info = players or {}
    states = player_states(tournament)
    ordered = sorted(tournament.players, key=lambda p: (p.seed, p.id))
    ranks = _standing_ranks(tournament, states)
    next_entries = _next_round_entries(tournament)
    all_in_next = bool(ordered) and all(p.id in next_entries for p in ordered)
    round_entries = [_round_entries(tournament, rnd) for rnd in tournament.rounds]

    out: list[str] = []
    if tournament.name:
        out.append(f"012 {tournament.name}")
    out.extend(other_lines)
    if tournament.total_rounds:
        out.append(f"XXR {tournament.total_rounds}")
    xxc = []
    if tournament.initial_color is not None and tournament.initial_color is not Color.NONE:
        xxc.append("white1" if tournament.initial_color is Color.WHITE else "black1")
    if any(position != p.id for position, p in enumerate(ordered, start=1)):
        xxc.append("rank")
    if xxc:
        out.append("XXC " + " ".join(xxc))
    out.extend(_scoring_lines(tournament.scoring))
    for player in ordered:
        extra = info.get(player.id, TrfPlayerInfo())
        line = _player_prefix(player, extra, states[player.id].score,
                              extra.rank or ranks[player.id])
        for entries in round_entries:
            line += entries.get(player.id, _ABSENT_ENTRY)
        if player.id in next_entries and not all_in_next:
            line += f"  0000 - {next_entries[player.id]}"
        out.append(line)
    for pair in sorted(sorted(p) for p in tournament.forbidden_pairs):
        out.append("XXP " + " ".join(str(pid) for pid in pair))
    out.extend(_bye_lines(tournament, next_entries if all_in_next else {}))
    out.extend(_extension_lines(tournament))
    return newline.join(out) + newline


def _standing_ranks(tournament: Tournament, states: Mapping) -> dict[int, int]:
    ordered = sorted(tournament.players, key=lambda p: (-states[p.id].score, p.seed, p.id))
    return {p.id: position for position, p in enumerate(ordered, start=1)}


def _next_round_entries(tournament: Tournament) -> dict[int, str]:
    """Result codes for the next round's column: requested byes, then withdrawn players."""
    next_round = tournament.next_round
    entries: dict[int, str] = {}
    for pid, kind in tournament.requested_byes.get(next_round, {}).items():
        if kind is ByeKind.PAIRING:
            raise ValueError(f"player {pid}: a pairing-allocated bye cannot be requested "
                             f"(round {next_round}); TRF has no way to say it")
        entries[pid] = _BYE_CODE[kind]
    for pid, out_from in tournament.withdrawn.items():
        if out_from <= next_round and pid not in entries:
            entries[pid] = "-"
    return entries


def _format_points(points: Points, what: str) -> str:
    tenths = Fraction(points) * 10
    if tenths.denominator != 1:
        raise ValueError(f"{what} {points} has more than one decimal; TRF cannot hold it")
    whole, tenth = divmod(abs(tenths.numerator), 10)
    sign = "-" if tenths < 0 else ""
    text = f"{sign}{whole}.{tenth}"
    if len(text) > 4 and tenth == 0:
        text = f"{sign}{whole}"
    if len(text) > 4:
        raise ValueError(f"{what} {points} does not fit the 4 columns of TRF")
    return text


def _player_prefix(player: Player, info: TrfPlayerInfo, score: Points, rank: int) -> str:
    """Columns 1-89 of a ``001`` line."""
    if not 1 <= player.id <= _MAX_ID:
        raise ValueError(f"player id {player.id} is outside 1..{_MAX_ID}")
    if not 0 <= player.rating <= _MAX_ID:
        raise ValueError(f"player {player.id}: rating {player.rating} does not fit TRF")
    rating = str(player.rating) if player.rating else ""
    points = _format_points(score, f"player {player.id}'s score")
    return (
        f"001 {player.id:>4} {info.sex[:1]:1}{info.title[:3]:>3} {player.name[:33]:<33} "
        f"{rating:>4} {info.federation[:3]:<3} {info.fide_id[:11]:>11} {info.birth[:10]:<10} "
        f"{points:>4} {rank:>4}"
    )


def _round_entries(tournament: Tournament, rnd: Round) -> dict[int, str]:
    """The 10-column entry of every player who had a game or a bye in ``rnd``."""
    entries: dict[int, str] = {}
    for game in rnd.games:
        if game.result.is_pending:
            raise ValueError(f"round {rnd.number} has games without a result; TRF records "
                             "results only (finish or drop the round first)")
        for pid in game.players:
            outcome = game.outcome_for(pid)
            assert outcome is not None
            colour = game.color_of(pid).value if tournament.use_colors else "-"
            entries[pid] = f"  {game.opponent_of(pid):>4} {colour} {_OUTCOME_CODE[outcome]}"
    for bye in rnd.byes:
        entries[bye.player] = f"  0000 - {_BYE_CODE[bye.kind]}"
    return entries


def _scoring_lines(scoring: Scoring) -> list[str]:
    if scoring == Scoring.chess():
        return []
    lines = []
    letters = _bbp_letters(scoring)
    for letter, value in letters.items():
        # A value bbp cannot read is left out; the SBS line below holds it exactly.
        with contextlib.suppress(ValueError):
            lines.append(f"BB{letter} {_format_points(value, 'points'):>4}")
    if _bbp_scoring(letters) != scoring or len(lines) < len(letters):
        values = " ".join(f"{name}={getattr(scoring, name)}" for name in _SCORING_FIELDS)
        lines.append(f"SBS {values}")
    return lines


def _bye_lines(tournament: Tournament, next_entries: Mapping[int, str]) -> list[str]:
    """``240`` lines: requested byes of every round but the next (which has its column),
    unless every player has an entry for the next round (bbp would take that column for a
    played round)."""
    groups: dict[tuple[int, str], list[int]] = {}
    for round_number, requests in sorted(tournament.requested_byes.items()):
        if round_number == tournament.next_round:
            continue
        for pid, kind in requests.items():
            if kind is ByeKind.PAIRING:
                raise ValueError(f"player {pid}: a pairing-allocated bye cannot be requested "
                                 f"(round {round_number}); TRF has no way to say it")
            groups.setdefault((round_number, _BYE_CODE[kind]), []).append(pid)
    for pid, code in next_entries.items():
        groups.setdefault((tournament.next_round, code), []).append(pid)
    lines = []
    for (round_number, code), pids in sorted(groups.items()):
        ids = " ".join(f"{pid:>4}" for pid in sorted(pids))
        lines.append(f"240 {code} {round_number:>3} {ids}")
    return lines


def _extension_lines(tournament: Tournament) -> list[str]:
    lines = []
    if not tournament.use_colors:
        lines.append("SBN")
    if tournament.seed:
        lines.append(f"SBE {tournament.seed}")
    for pid, out_from in sorted(tournament.withdrawn.items()):
        lines.append(f"SBW {pid} {out_from}")
    return lines


# -- the pairs output --------------------------------------------------------------------------
def format_pairs(result: PairingResult) -> str:
    """The pairs as bbpPairings (``-p``) and JaVaFo print them.

    First the number of pairs (boards, plus one for a pairing-allocated bye), then one
    ``WHITE BLACK`` line per board in board order, and the pairing-allocated bye as ``ID 0``
    last. Requested byes (half, full, zero) are not printed.
    """
    games = sorted(result.games, key=lambda g: g.board) if all(
        g.board for g in result.games) else list(result.games)
    lines = [f"{g.white} {g.black}" for g in games]
    pab = result.pairing_bye
    if pab is not None:
        lines.append(f"{pab} 0")
    return "\n".join([str(len(lines)), *lines]) + "\n"
