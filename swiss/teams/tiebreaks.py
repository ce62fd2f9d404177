"""Team tie-breaks of FIDE C.07 (edition in force from 1 March 2026) and team standings.

A team tie-break sums *match points* (2 / 1 / 0 by comparing the two teams' game points) or
*game points* (the boards' points): ``BH:MP`` is the Buchholz of match points, ``BH:GP`` of
game points; without ``:MP`` / ``:GP`` the event's primary score is meant. The catalogue:

========= ==================================================================== ===========
MPTS      match points                                                          (score)
GPTS      game points
PTS       the primary score (match points for ``FIDE_TEAM_MP_*``, game points for ``_GP_*``)
BH        Buchholz: the opponents' scores                                       -C, -M
FB        Fore Buchholz: BH with every last-round match taken as a draw        -C, -M
SB        Sonneborn-Berger: opponent's score x the team's score in that match   -C
E{o}{t}SB the extended team SB: opponent's ``o`` points (M or G) x the team's
          ``t`` points in that match: EMMSB = SB:MP, EGGSB = SB:GP, EMGSB, EGMSB
ESB       EMGSB when match points are primary, EGMSB when game points are
PS        progressive score: the running score after each round, summed        -C
DE        direct encounter on the primary score (C.07 art. 6), re-applied to sub-ties
WIN       wins, forfeit wins and byes worth a win included: matches (:MP) or boards (:GP)
WON       wins over the board: matches played (:MP) or boards (:GP)
BPG       matches played with Black on board 1 (:MP), or boards played with Black (:GP)
BWG       matches won with Black on board 1 (:MP), or boards won with Black (:GP)
BC        board count: each board's game points times its board number (lower first)
========= ==================================================================== ===========

Unplayed rounds follow C.07 art. 16 as it stands for individuals
(:mod:`swiss.standings.unplayed`), with a team's match in place of a game: an opponent's
voluntary unplayed rounds after its last match count as drawn matches (16.3: 1 match point,
half the boards in game points); each unplayed round of the team itself (forfeit, bye,
absence) is a match against a dummy whose score is the team's own, capped at the scheduled
opponent's score for a forfeit (16.4.1) and at a drawn match per round without an opponent
(16.4.2); a Cut removes a voluntary unplayed round first (16.5).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from swiss.model import Scoring, Tournament
from swiss.standings.context import Context
from swiss.standings.direct import direct_encounter
from swiss.standings.records import PlayerRecord, RoundKind, RoundRecord
from swiss.standings.unplayed import (
    Contribution,
    cut_highest,
    cut_lowest,
    fore_records,
    own_dummy_score,
    score_for_opponents,
)
from swiss.teams.model import MatchKind, MatchRecord, ScoreName, Team

EDITION = "2026"
WITH_CUTS = frozenset({"BH", "FB", "SB", "PS"})
WITH_MEDIAN = frozenset({"BH", "FB"})
BASES = frozenset({"MPTS", "GPTS", "PTS", "BH", "FB", "SB", "ESB", "EMMSB", "EMGSB",
                   "EGMSB", "EGGSB", "PS", "DE", "WIN", "WON", "BPG", "BWG", "BC"})
LOWER_IS_BETTER = frozenset({"BC"})
_BOARD_POINTS = {"1": Fraction(1), "W": Fraction(1), "+": Fraction(1), "U": Fraction(1),
                 "F": Fraction(1), "=": Fraction(1, 2), "D": Fraction(1, 2),
                 "H": Fraction(1, 2)}
_OVER_THE_BOARD = frozenset("10=WLD")
_SPEC = re.compile(r"^(?P<base>[A-Z]+)(?::(?P<score>MP|GP))?(?P<mods>(?:[-/][CM]\d{1,3})*)$")
_MODIFIER = re.compile(r"[-/]([CM])(\d+)")


class TeamTiebreakError(ValueError):
    """An unknown team tie-break or a modifier it does not take."""


@dataclass(frozen=True, slots=True)
class TeamTiebreak:
    """One entry of a team tie-break list: ``BH:GP-C1`` is Buchholz of game points, cut 1.

    ``score`` is the points summed (for BH, FB, PS and the opponents' side of SB);
    ``own`` the team's points an SB multiplies them by.
    """

    acronym: str
    base: str
    score: ScoreName
    own: ScoreName
    cut_low: int = 0
    cut_high: int = 0


def parse_team_tiebreak(text: str, primary: ScoreName = "mp") -> TeamTiebreak:
    """Read ``BH:GP/C1``, ``SB:MP``, ``EMGSB``, ``DE``... (``-C1`` and ``/C1`` alike)."""
    written = text.strip().upper()
    found = _SPEC.match(written)
    if found is None or found["base"] not in BASES:
        raise TeamTiebreakError(
            f"unknown team tie-break {text.strip()[:40]!r}: use one of "
            f"{', '.join(sorted(BASES))}, with :MP or :GP and -C1 / -M1 where they apply")
    base = found["base"]
    named: ScoreName | None = found["score"].lower() if found["score"] else None  # type: ignore[assignment]
    score: ScoreName = named or primary
    own: ScoreName = score
    if base == "ESB":
        score, own = ("mp", "gp") if (named or primary) == "mp" else ("gp", "mp")
    elif base.startswith("E") and base.endswith("SB"):
        if named is not None:
            raise TeamTiebreakError(f"{base} names its points already: drop :{named.upper()}")
        score = "mp" if base[1] == "M" else "gp"
        own = "mp" if base[2] == "M" else "gp"
    elif base in ("MPTS", "GPTS"):
        score = own = "mp" if base == "MPTS" else "gp"
    cut_low = cut_high = 0
    for kind, count in _MODIFIER.findall(found["mods"]):
        allowed = WITH_CUTS if kind == "C" else WITH_MEDIAN
        if base not in allowed:
            raise TeamTiebreakError(f"{base} takes no -{kind} modifier")
        cut_low += int(count)
        cut_high += int(count) if kind == "M" else 0
    return TeamTiebreak(written, base, score, own, cut_low, cut_high)


def team_scoring(which: ScoreName, boards: int) -> Scoring:
    """The points of each kind of round, in match points or in game points."""
    if which == "mp":
        two, one = Fraction(2), Fraction(1)
        return Scoring(win=two, draw=one, loss=Fraction(0), forfeit_win=two,
                       forfeit_loss=Fraction(0), pairing_bye=one, half_bye=one,
                       full_bye=two, zero_bye=Fraction(0), absent=Fraction(0))
    full, half = Fraction(boards), Fraction(boards, 2)
    return Scoring(win=full, draw=half, loss=Fraction(0), forfeit_win=full,
                   forfeit_loss=Fraction(0), pairing_bye=full, half_bye=half, full_bye=full,
                   zero_bye=Fraction(0), absent=Fraction(0))


_KIND = {MatchKind.FORFEIT_WIN: RoundKind.FORFEIT_WIN,
         MatchKind.FORFEIT_LOSS: RoundKind.FORFEIT_LOSS,
         MatchKind.PAB: RoundKind.PAIRING_BYE, MatchKind.FULL_BYE: RoundKind.FULL_BYE,
         MatchKind.ABSENT: RoundKind.ABSENT}
_OUTCOME = {Fraction(2): RoundKind.WIN, Fraction(1): RoundKind.DRAW, Fraction(0): RoundKind.LOSS}


def _points(match: MatchRecord, which: ScoreName) -> Fraction:
    return match.match_points if which == "mp" else match.game_points


def both_teams_came(match: MatchRecord) -> bool:
    """A match in which each team won at least one board by forfeit: no board was played,
    yet neither team failed to come, so the tie-breaks count it as played (gacrux's
    reading). A match one team did not come to at all stays a forfeit."""
    codes = {code for _colour, code in match.boards}
    return match.kind in (MatchKind.FORFEIT_WIN, MatchKind.FORFEIT_LOSS) and {"+", "-"} <= codes


def played_for_tiebreaks(match: MatchRecord) -> bool:
    return match.played or both_teams_came(match)


def team_records(teams: Sequence[Team], which: ScoreName, rounds: int | None = None
                 ) -> dict[int, PlayerRecord]:
    """Each team as a :class:`PlayerRecord` of match points or of game points (the
    individual tie-break rules then apply to it unchanged)."""
    records = {}
    for team in teams:
        cells = []
        for match in team.history[:rounds]:
            kind = (_OUTCOME[match.match_points] if played_for_tiebreaks(match)
                    else _KIND[match.kind])
            cells.append(RoundRecord(match.round, kind, _points(match, which),
                                     match.opponent))
        total = sum((c.points for c in cells), Fraction(0))
        records[team.tpn] = PlayerRecord(team.tpn, team.name, 0, team.tpn, total, cells)
    return records


class TeamTables:
    """The per-score records and opponent scores every tie-break of one standings reads."""

    def __init__(self, teams: Sequence[Team], rounds: int | None = None,
                 total_rounds: int = 0) -> None:
        self.teams = {t.tpn: t for t in teams}
        self.boards = max((len(t.members) for t in teams), default=0)
        self.rounds = max((len(t.history[:rounds]) for t in teams), default=0)
        self.records = {which: team_records(teams, which, rounds) for which in ("mp", "gp")}
        # Fore Buchholz takes the event's last round as drawn: before that round is played
        # (standings after an earlier round of an announced length) it equals Buchholz.
        final = total_rounds <= 0 or self.rounds >= total_rounds
        self.fore = {which: fore_records(self.records[which], self.scoring(which))
                     if final else self.records[which] for which in ("mp", "gp")}
        self._opponent: dict[tuple[str, bool], dict[int, Fraction]] = {}

    def scoring(self, which: ScoreName) -> Scoring:
        return team_scoring(which, self.boards)

    def opponent_scores(self, which: ScoreName, fore: bool = False) -> dict[int, Fraction]:
        """Each team's score as its opponents' tie-breaks see it (art. 16.3)."""
        key = (which, fore)
        if key not in self._opponent:
            records = self.fore[which] if fore else self.records[which]
            self._opponent[key] = {tpn: score_for_opponents(r, "c07", self.scoring(which))
                                   for tpn, r in records.items()}
        return self._opponent[key]

    def contributions(self, tpn: int, score: ScoreName, own: ScoreName | None,
                      fore: bool = False) -> list[Contribution]:
        """Per round: the opponent's (or dummy's) ``score``, times the team's ``own`` points
        in that round when ``own`` is given (Sonneborn-Berger)."""
        records = self.fore[score] if fore else self.records[score]
        opponents = self.opponent_scores(score, fore)
        record = records[tpn]
        own_cells = (self.fore[own] if fore else self.records[own])[tpn].rounds if own else []
        terms = []
        for index, cell in enumerate(record.rounds):
            if cell.kind.is_played:
                value = opponents[cell.opponent]  # type: ignore[index]
            else:
                scheduled = opponents.get(cell.opponent) if cell.opponent else None
                value = own_dummy_score(record, cell, "c07", self.scoring(score),
                                        edition=EDITION, opponent_score=scheduled,
                                        rounds=self.rounds)
            term = value * own_cells[index].points if own else value
            terms.append(Contribution(cell.number, cell.opponent if cell.kind.is_played
                                      else None, value, term,
                                      cell.kind.is_voluntary_unplayed))
        return terms


def _opponent_sum(tables: TeamTables, tpn: int, spec: TeamTiebreak) -> Fraction:
    fore = spec.base == "FB"
    own = spec.own if spec.base not in ("BH", "FB") else None
    terms = tables.contributions(tpn, spec.score, own, fore)
    kept, _cut = cut_lowest(terms, spec.cut_low, "c07")
    kept, _cut = cut_highest(kept, spec.cut_high)
    return sum((t.value for t in kept), Fraction(0))


def _progressive(tables: TeamTables, tpn: int, spec: TeamTiebreak) -> Fraction:
    running, total = Fraction(0), Fraction(0)
    for index, cell in enumerate(tables.records[spec.score][tpn].rounds):
        running += cell.points
        if index >= spec.cut_low:
            total += running
    return total


def _match_count(team: Team, spec: TeamTiebreak, rounds: int) -> Fraction:
    """WIN, WON, BPG and BWG counted in matches (board 1's colour)."""
    total = Fraction(0)
    for match in team.history[:rounds]:
        won = match.match_points == 2
        played = played_for_tiebreaks(match)
        colour = match.colour or (match.boards[0][0] if match.boards else None)
        black = played and colour == "b"
        total += {"WIN": won, "WON": won and played, "BPG": black,
                  "BWG": black and won}[spec.base]
    return total


def _board_count(team: Team, spec: TeamTiebreak, rounds: int) -> Fraction:
    """WIN, WON, BPG, BWG (counted in games) and BC over every board of every round."""
    if spec.base != "BC" and spec.score == "mp":
        return _match_count(team, spec, rounds)
    total = Fraction(0)
    for match in team.history[:rounds]:
        for board, (colour, code) in enumerate(match.boards, start=1):
            points = _BOARD_POINTS.get(code, Fraction(0))
            played = code in _OVER_THE_BOARD
            if spec.base == "BC":
                total += board * points
            elif spec.base == "WIN":
                total += points == 1
            elif spec.base == "WON":
                total += played and points == 1
            elif spec.base == "BPG":
                total += played and colour == "b"
            else:  # BWG
                total += played and colour == "b" and points == 1
    return total


def team_tiebreak_values(tables: TeamTables, spec: TeamTiebreak) -> dict[int, Fraction]:
    """The value of one tie-break (not DE, which needs the tied groups) for every team."""
    if spec.base in ("WIN", "WON", "BPG", "BWG", "BC"):
        return {tpn: _board_count(team, spec, tables.rounds)
                for tpn, team in tables.teams.items()}
    if spec.base in ("MPTS", "GPTS", "PTS"):
        return {tpn: r.points for tpn, r in tables.records[spec.score].items()}
    if spec.base == "PS":
        return {tpn: _progressive(tables, tpn, spec) for tpn in tables.teams}
    if spec.base == "DE":
        raise TeamTiebreakError("DE works on tied groups: use team_standings")
    return {tpn: _opponent_sum(tables, tpn, spec) for tpn in tables.teams}


def direct_encounter_values(tables: TeamTables, group: list[int], which: ScoreName
                            ) -> dict[int, Fraction]:
    """DE inside one group of tied teams, on ``which`` points: each team's place in the
    group as DE orders it, teams DE leaves equal sharing the best of their places (1, 1, 3),
    or 0 for every team when DE does not separate them."""
    scoring = tables.scoring(which)
    context = Context(Tournament(players=(), scoring=scoring), tables.records[which], "c07",
                      edition=EDITION)
    tiers = {tpn: value for tpn, (value, _text) in direct_encounter(context, group).items()}
    return {tpn: Fraction(0) if not tier else
            Fraction(1 + sum(1 for other in tiers.values() if other < tier))
            for tpn, tier in tiers.items()}


@dataclass(frozen=True, slots=True)
class TeamStandingRow:
    rank: int
    tpn: int
    name: str
    values: tuple[Fraction, ...]  # the primary score, then each tie-break in order


def default_team_tiebreaks(primary: ScoreName) -> tuple[str, ...]:
    """The secondary score, then the C.07 team list's usual opponent-based tie-breaks."""
    secondary = "GPTS" if primary == "mp" else "MPTS"
    return (secondary, "DE", "ESB", "BH", "BH-C1")


def team_standings(teams: Sequence[Team], primary: ScoreName,
                   tiebreaks: Sequence[str] | None = None, rounds: int | None = None,
                   total_rounds: int = 0
                   ) -> tuple[tuple[TeamTiebreak, ...], list[TeamStandingRow]]:
    """Teams ranked by the primary score, then each tie-break (higher first; BC lower first;
    DE by place within the group still tied); teams equal on everything share a rank.
    ``rounds``: the standings after that round (default: every round in the histories);
    ``total_rounds``: the rounds announced (0: unknown, the last round given is the last).
    Returns the parsed list and the rows, whose ``values`` are as the tie-breaks define
    them."""
    specs = tuple(parse_team_tiebreak(t, primary)
                  for t in (tiebreaks if tiebreaks is not None
                            else default_team_tiebreaks(primary)))
    tables = TeamTables(teams, rounds, total_rounds)
    keys: dict[int, list[Fraction]] = {tpn: [r.points] for tpn, r
                                       in tables.records[primary].items()}
    for spec in specs:
        if spec.base != "DE":
            sign = -1 if spec.base in LOWER_IS_BETTER else 1
            for tpn, value in team_tiebreak_values(tables, spec).items():
                keys[tpn].append(sign * value)
            continue
        groups: dict[tuple[Fraction, ...], list[int]] = {}
        for tpn, key in keys.items():
            groups.setdefault(tuple(key), []).append(tpn)
        for group in groups.values():
            places = direct_encounter_values(tables, sorted(group), spec.score)
            for tpn in group:  # a lower place ranks higher: negated for one sort order
                keys[tpn].append(-places[tpn] if places[tpn] else Fraction(0))
    order = sorted(keys, key=lambda tpn: ([-v for v in keys[tpn]], tpn))
    rows: list[TeamStandingRow] = []
    for position, tpn in enumerate(order, start=1):
        tied = rows and tuple(keys[tpn]) == tuple(keys[rows[-1].tpn])
        rank = rows[-1].rank if tied else position
        values = tuple(-v if spec is not None and spec.base in ("DE", *LOWER_IS_BETTER)
                       else v for v, spec in zip(keys[tpn], (None, *specs), strict=True))
        rows.append(TeamStandingRow(rank, tpn, tables.teams[tpn].name, values))
    return specs, rows
