"""Reading TRF-16 files the way bbpPairings does (see :mod:`swiss.trf` for the rules)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from swiss.model import Bye, ByeKind, Color, Game, Player, Points, Round, Scoring, Tournament
from swiss.state import player_states
from swiss.trf.format import (
    ACCELERATION,
    ALL_CODES,
    BYE_CODES,
    CODE_OUTCOME,
    FIRST_ROUND_COLUMN,
    GAME_RESULT,
    INTERPRETED,
    LINE_BREAK,
    MAX_ID,
    MIN_PLAYER_LINE,
    NUMBER,
    PLAYED_CODES,
    PLAYED_ROUND_BYE,
    REQUEST_CODE,
    ROUND_WIDTH,
    SCORING_FIELDS,
    UNSUPPORTED,
    TrfError,
    TrfPlayerInfo,
    TrfTournament,
    bbp_scoring,
    show_points,
)


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
    def round(self) -> int:
        return (self.column - FIRST_ROUND_COLUMN) // ROUND_WIDTH + 1

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
        self.lines = LINE_BREAK.split(text)
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
            if code in UNSUPPORTED:
                raise TrfError(f"code {code}: {UNSUPPORTED[code]}", number, 1)
            if code in ACCELERATION or (code == "192" and line.rstrip().endswith("_BAKU")):
                self.accelerated = True
            if code not in INTERPRETED:
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
    def _read_entry(number: int, line: str, start: int, pid: int) -> _Entry | None:
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
                    kind = PLAYED_ROUND_BYE[entry.code]
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
                    f"round {without_colour.round}: a game "
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
        mine, theirs = CODE_OUTCOME.get(entry.code), CODE_OUTCOME.get(other.code)
        coloured = entry.colour != "-"
        if coloured:
            first_is_me = entry.colour == "w"
        else:
            first_is_me = (seeds[pid], pid) < (seeds[opp], opp)
        pair = (mine, theirs) if first_is_me else (theirs, mine)
        result = GAME_RESULT.get(pair)  # type: ignore[arg-type]
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
            kind = REQUEST_CODE[code]
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
        return bbp_scoring(self.bb_points)

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
                f"the score {show_points(raw.points)} of player {pid} does not match the game "
                f"results ({show_points(computed)} under this point system)", raw.line, 81)


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
