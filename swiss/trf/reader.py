"""Reading TRF-16 files the way bbpPairings does (see :mod:`swiss.trf` for the rules).

Two stages: :func:`swiss.trf.scan.scan_trf` reads the lines and fields (layout and syntax, with
positions); this module builds the :class:`~swiss.model.Tournament` from them and checks that
the lines agree with each other (ids, both sides of every game, byes, the points column).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from types import MappingProxyType

from swiss.acceleration import baku_scoring_problem
from swiss.model import Bye, ByeKind, Game, Player, Round, Scoring, Tournament
from swiss.state import PlayerState, player_states
from swiss.trf.document import TrfTournament
from swiss.trf.format import (
    CODE_OUTCOME,
    GAME_RESULT,
    PLAYED_ROUND_BYE,
    REQUEST_CODE,
    TrfError,
    bbp_scoring,
    show_points,
)
from swiss.trf.scan import AccelerationRange, Entry, ScannedTrf, acceleration_of, scan_trf


def parse_trf(text: str) -> TrfTournament:
    """Parse the text of a TRF-16 file (bbpPairings/JaVaFo dialect) into the model.

    Raises :class:`TrfError` naming the line and column of the first problem: a field that is
    not a number, a line too short for its points column, a repeated or missing pairing id, two
    player lines that disagree about a game, a points column that does not match the results.
    """
    return _Builder(scan_trf(text)).build()


class _Builder:
    """Assembles the tournament from the scanned lines and checks them against each other."""

    def __init__(self, scanned: ScannedTrf) -> None:
        self.f = scanned

    def build(self) -> TrfTournament:
        self._check_ids()
        players = self._players()
        seeds = {p.id: p.seed for p in players}
        played = self._rounds_played()
        if self.f.total_rounds and played > self.f.total_rounds:
            raise TrfError(f"{played} rounds were played but the file says the tournament has "
                           f"{self.f.total_rounds}", self.f.total_rounds_line, 5)
        rounds, use_colors = self._rounds(played, seeds)
        withdrawn = self._withdrawn()
        requested = self._requested(played, withdrawn)
        tournament = Tournament(
            players=players,
            rounds=rounds,
            total_rounds=self.f.total_rounds,
            scoring=self._scoring(),
            use_colors=use_colors,
            initial_color=self.f.initial_color,
            withdrawn=withdrawn,
            requested_byes=requested,
            forbidden_pairs=self._forbidden(played + 1),
            seed=self.f.seed,
            name=self.f.name,
            acceleration=self._acceleration(),
            baku=self._baku(),
        )
        # One walk of the rounds for both (the order of a round's games does not change it).
        states = player_states(tournament)
        tournament = _canonical_boards(tournament, states)
        self._check_points(tournament, states)
        info = {pid: self.f.players[pid].info for pid in sorted(self.f.players)}
        # The states go along: pairing the next round needs the same walk (the order of a
        # round's games changes none of them), so it need not walk the rounds again.
        return TrfTournament(tournament, info, tuple(self.f.other_lines),
                             self.f.total_rounds_line, MappingProxyType(states),
                             tuple(self.f.other_line_numbers))

    def _check_ids(self) -> None:
        if self.f.use_rank:
            return
        expected = 1
        for pid in sorted(self.f.players):
            if pid != expected:
                raise TrfError(
                    f"pairing id {pid} leaves a gap: id {expected} is missing (ids must run "
                    f"1..N without gaps unless 'XXC rank' is given)", self.f.players[pid].line, 5)
            expected += 1

    def _players(self) -> tuple[Player, ...]:
        out = []
        for position, pid in enumerate(self.f.line_order, start=1):
            raw = self.f.players[pid]
            order = position if self.f.use_rank and position != pid else 0
            out.append(Player(id=pid, name=raw.name, rating=raw.rating, order=order))
        return tuple(sorted(out, key=lambda p: p.id))

    def _rounds_played(self) -> int:
        """bbp's count: an entry in column r means round r-1 was played; a game or a PAB in
        column r means round r was; and a column everyone has an entry in was played too."""
        played = 0
        for raw in self.f.players.values():
            if raw.entries:
                played = max(played, len(raw.entries) - 1)
            for index, entry in enumerate(raw.entries, start=1):
                if entry is not None and entry.participated:
                    played = max(played, index)
        if self.f.players and all(len(raw.entries) > played for raw in self.f.players.values()):
            played += 1
        return played

    def _entry(self, pid: int, round_number: int) -> Entry | None:
        entries = self.f.players[pid].entries
        return entries[round_number - 1] if round_number <= len(entries) else None

    def _rounds(self, played: int, seeds: Mapping[int, int]) -> tuple[tuple[Round, ...], bool]:
        with_colour: Entry | None = None
        without_colour: Entry | None = None
        rounds = []
        lines = [(pid, self.f.players[pid].entries) for pid in self.f.line_order]
        for r in range(1, played + 1):
            games: list[Game] = []
            byes: list[Bye] = []
            in_games: set[int] = set()
            for pid, entries in lines:
                entry = entries[r - 1] if r <= len(entries) else None  # (self._entry)
                if entry is None or pid in in_games:
                    continue
                if entry.opponent is None:
                    kind = PLAYED_ROUND_BYE[entry.code]
                    if kind is not None:
                        byes.append(Bye(pid, kind))
                    continue
                game, coloured = self._game(r, pid, entry, seeds)
                games.append(game)
                in_games.add(game.white)
                in_games.add(game.black)
                if game.result.is_played:
                    if coloured and with_colour is None:
                        with_colour = entry
                    if not coloured and without_colour is None:
                        without_colour = entry
            byes.sort(key=lambda b: (b.kind is not ByeKind.PAIRING, b.player))
            rounds.append(Round(number=r, games=tuple(games), byes=tuple(byes)))
        use_colors = not self.f.no_colours
        if use_colors and without_colour is not None:
            if with_colour is not None:
                raise TrfError(
                    f"round {without_colour.round}: a game "
                    "without colours ('-') in a tournament whose other games have colours "
                    f"(e.g. line {with_colour.line})",
                    without_colour.line, without_colour.colour_column)
            use_colors = False
        return tuple(rounds), use_colors

    def _game(self, r: int, pid: int, entry: Entry, seeds: Mapping[int, int]
              ) -> tuple[Game, bool]:
        opp = entry.opponent
        assert opp is not None
        if opp not in self.f.players:
            raise TrfError(f"round {r}: opponent {opp} is not a player in this file",
                           entry.line, entry.column)
        other = self._entry(opp, r)
        if other is None or other.opponent != pid:
            listed = "nobody" if other is None or other.opponent is None else \
                f"player {other.opponent}"
            raise TrfError(
                f"round {r}: player {pid} lists opponent {opp}, but player {opp}'s line "
                f"(line {self.f.players[opp].line}) lists {listed}", entry.line, entry.column)
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
        for number, pid, round_number in self.f.withdrawals:
            if pid not in self.f.players:
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
        for pid in self.f.line_order:
            entry = self._entry(pid, next_round)
            if entry is not None:
                sources.append((entry.line, entry.result_column, next_round, pid, entry.code))
        for bye in self.f.bye_lines:
            if bye.player not in self.f.players:
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

    def _acceleration(self) -> dict[int, dict[int, Fraction]]:
        """XXA fields and 250 records as round -> player -> extra pairing points."""
        for item in self.f.acceleration:
            if isinstance(item, AccelerationRange):
                self._check_range(item)
            elif item.player not in self.f.players:
                raise TrfError(f"XXA: {item.player} is not a player in this file", item.line, 5)
            elif self.f.total_rounds and item.round > self.f.total_rounds:
                raise TrfError(f"XXA: round {item.round} is after the last round "
                               f"({self.f.total_rounds})", item.line, item.column)
        return acceleration_of(self.f.acceleration, self.f.players)

    def _baku(self) -> bool:
        """A ``192 ..._BAKU`` code asks for Baku acceleration, unless XXA or 250 lines give the
        extra points: they make bbpPairings 6.0.0 disregard the code (as TRF-2026 says of 250
        records), even an XXA line of zeros. The point system must suit the method (the
        engine refuses the file otherwise)."""
        if not self.f.tournament_type.endswith("_BAKU") or self.f.acceleration:
            return False
        problem = baku_scoring_problem(self._scoring())
        if problem is not None:
            raise TrfError(f"{self.f.tournament_type}: {problem}", self.f.tournament_type_line,
                           5)
        return True

    def _check_range(self, item: AccelerationRange) -> None:
        if self.f.total_rounds and item.last_round > self.f.total_rounds:
            raise TrfError(f"250: round {item.last_round} is after the last round "
                           f"({self.f.total_rounds})", item.line, 19)
        for pid in range(item.first_player, item.last_player + 1):
            if pid not in self.f.players:
                raise TrfError(f"250: player {pid} of the range {item.first_player}-"
                               f"{item.last_player} is not a player in this file",
                               item.line, 23 if pid == item.first_player else 28)

    def _forbidden(self, next_round: int) -> frozenset[frozenset[int]]:
        groups: list[tuple[int, list[tuple[int, int]]]] = list(self.f.xxp)
        groups += [(line, players) for line, first, last, players in self.f.forbidden_260
                   if first <= next_round <= last]
        pairs: set[frozenset[int]] = set()
        for line, members in groups:
            for pid, column in members:
                if pid not in self.f.players:
                    raise TrfError(f"forbidden pair: {pid} is not a player in this file",
                                   line, column)
            ids = sorted({pid for pid, _ in members})
            pairs.update(frozenset((a, b)) for i, a in enumerate(ids) for b in ids[i + 1:])
        return frozenset(pairs)

    def _scoring(self) -> Scoring:
        if self.f.full_scoring is not None:
            return self.f.full_scoring
        return bbp_scoring(self.f.bb_points)

    def _check_points(self, tournament: Tournament, states: Mapping[int, PlayerState]) -> None:
        scoring = tournament.scoring
        requested = tournament.requested_byes.get(tournament.next_round, {})
        for pid, raw in self.f.players.items():
            computed = states[pid].score
            if raw.points == computed or (
                    # bbp accepts points already granted for the next round
                    pid in requested
                    and raw.points == computed + scoring.for_bye(requested[pid])):
                continue
            if self.f.accelerated and raw.points >= computed:
                continue
            raise TrfError(
                f"the score {show_points(raw.points)} of player {pid} does not match the game "
                f"results ({show_points(computed)} under this point system)", raw.line, 81)


def _canonical_boards(tournament: Tournament, states: Mapping[int, PlayerState]) -> Tournament:
    """Order each round's games like the engine's boards and number them from 1."""
    seeds = {p.id: (p.seed, p.id) for p in tournament.players}
    # Scores compared as integers in units of 1/unit: the same order as the Fractions,
    # without their arithmetic (or hashing) for every comparison.
    unit = math.lcm(1, *{s.denominator for st in states.values() for s in st.scores_before})
    units = {pid: [s.numerator * (unit // s.denominator) for s in st.scores_before]
             for pid, st in states.items()}
    rounds = []
    for rnd in tournament.rounds:
        index = rnd.number - 1

        def key(game: Game, index: int = index) -> tuple:
            a, b = game.white, game.black
            sa, sb = units[a][index], units[b][index]
            hi, lo = (a, b) if (-sa, seeds[a]) < (-sb, seeds[b]) else (b, a)
            s_hi, s_lo = max(sa, sb), min(sa, sb)
            return (-s_hi, -s_lo, seeds[hi], seeds[lo])

        # (Game built directly: dataclasses.replace costs several times as much.)
        games = tuple(Game(g.white, g.black, g.result, i, g.white_games, g.black_games)
                      for i, g in enumerate(sorted(rnd.games, key=key), 1))
        rounds.append(replace(rnd, games=games))
    return replace(tournament, rounds=tuple(rounds))
