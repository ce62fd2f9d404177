"""Team events in TRF files: ``001`` player records grouped into teams by ``013`` records.

Each team's round is derived from its members' games, as FIDE's team rules describe it: the
opponent team is the team of any member's opponent; the match was played when at least one
board was played over the board (all boards forfeited is a forfeit); board 1's colour is the
colour of the highest-listed member who played; game points add up the boards; match points
compare the two teams' game points. A team whose members all have the pairing-allocated bye
(``U``) had the bye, worth a drawn match. The ``192`` record names the variant
(``FIDE_TEAM_TYPEB_GP_MP`` and so on).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from swiss.teams.model import Colour, MatchKind, MatchRecord, Team, TeamRules
from swiss.trf import TrfError

FIRST_ROUND_COLUMN = 92
ROUND_WIDTH = 10
TEAM_NAME_COLUMNS = (5, 36)
GAME_POINTS = {"1": Fraction(1), "W": Fraction(1), "+": Fraction(1), "=": Fraction(1, 2),
               "D": Fraction(1, 2), "0": Fraction(0), "L": Fraction(0), "-": Fraction(0)}
PLAYED = frozenset("10=WLD")
MATCH_POINTS = {"win": Fraction(2), "draw": Fraction(1), "loss": Fraction(0)}


@dataclass(frozen=True, slots=True)
class TeamEvent:
    """A team event read from a TRF file."""

    teams: tuple[Team, ...]
    rules: TeamRules
    rounds_played: int
    total_rounds: int
    colour_model_named: bool  # the 192 record named the colour model


@dataclass(frozen=True, slots=True)
class _Entry:
    opponent: int
    colour: str
    code: str


def rules_from_code(code: str) -> tuple[TeamRules, bool] | None:
    """The rules a ``192`` tournament-type code names, and whether it named the colour model;
    None for codes that are not FIDE team Swiss codes."""
    parts = code.strip().upper().split("_")
    if parts[:2] != ["FIDE", "TEAM"]:
        return None
    rest = [p for p in parts[2:] if p != "BAKU"]
    model, named = "type-a", False
    if rest and rest[0] in ("TYPEA", "TYPEB"):
        model, named = ("type-a" if rest[0] == "TYPEA" else "type-b"), True
        rest = rest[1:]
    elif rest:  # FIDE_TEAM_MP_GP and the like: no colour preferences
        model, named = "none", True
    if not rest:
        return TeamRules(colour_model=model), named  # type: ignore[arg-type]
    if rest[0] not in ("MP", "GP") or len(rest) > 2 or ((len(rest) == 2 and rest[1] not in (
            "MP", "GP")) or rest[1:] == rest[:1]):
        return None
    primary = "mp" if rest[0] == "MP" else "gp"
    return TeamRules(colour_model=model, primary=primary,  # type: ignore[arg-type]
                     use_secondary=len(rest) == 2), named


def parse_team_trf(text: str) -> TeamEvent:
    """Read a team event; every problem is a :class:`TrfError` with its line and column."""
    players: dict[int, dict[int, _Entry]] = {}
    rosters: list[tuple[int, str, list[int]]] = []
    rules, named, total_rounds = TeamRules(), False, 0
    for number, line in enumerate(text.splitlines(), start=1):
        code = line[:3]
        if code == "001":
            start, entries = _player(line, number)
            if start in players:
                raise TrfError(f"player {start} appears twice", number, 5)
            players[start] = entries
        elif code in ("013", "310"):
            rosters.append((number, line[4:36].strip(), _members(line, number)))
        elif code == "192":
            found = rules_from_code(line[4:])
            if found is None:
                raise TrfError(f"{line[4:].strip()!r} is not a FIDE team Swiss type "
                               "(FIDE_TEAM, FIDE_TEAM_TYPEB_MP_GP, FIDE_TEAM_GP_MP, ...)",
                               number, 5)
            rules, named = found
        elif code == "XXR":
            value = line[4:].strip()
            if not value.isdigit() or not 0 < int(value) < 1000:
                raise TrfError("XXR needs the number of rounds (1 to 999)", number, 5)
            total_rounds = int(value)
    if not rosters:
        raise TrfError("no team records ('013'): is this a team event?", 1, 1)
    team_of = _team_of(rosters, players)
    rounds = max((max(e, default=0) for e in players.values()), default=0)
    teams = []
    for tpn, (_line, name, members) in enumerate(rosters, start=1):
        history = [_team_round(r, members, players, team_of) for r in range(1, rounds + 1)]
        teams.append(Team(tpn, name or f"Team {tpn}", tuple(members), history))
    _check_consistent(teams)
    return TeamEvent(tuple(teams), rules, rounds, total_rounds, named)


def _player(line: str, number: int) -> tuple[int, dict[int, _Entry]]:
    start_text = line[4:8].strip()
    if not start_text.isdigit() or int(start_text) == 0:
        raise TrfError("the starting rank (columns 5-8) must be a number from 1 to 9999",
                       number, 5)
    entries: dict[int, _Entry] = {}
    round_number = 0
    for column in range(FIRST_ROUND_COLUMN - 1, len(line), ROUND_WIDTH):
        round_number += 1
        field = line[column:column + 8].ljust(8)
        if not field.strip():
            continue
        opponent_text, colour, code = field[:4].strip(), field[5], field[7]
        if not opponent_text.isdigit():
            raise TrfError(f"round {round_number}: the opponent must be a number",
                           number, column + 1)
        if colour not in "wb- " or code not in "10=WLD+-UZHF ":
            raise TrfError(f"round {round_number}: unknown colour {colour!r} or result "
                           f"{code!r}", number, column + 6)
        entries[round_number] = _Entry(int(opponent_text), colour, code)
    return int(start_text), entries


def _members(line: str, number: int) -> list[int]:
    members = []
    for offset, word in _words(line, TEAM_NAME_COLUMNS[1]):
        if not word.isdigit() or int(word) == 0:
            raise TrfError(f"team member {word!r} is not a starting rank", number, offset + 1)
        members.append(int(word))
    if not members:
        raise TrfError("a team record needs its members' starting ranks from column 37",
                       number, 37)
    return members


def _words(line: str, start: int) -> list[tuple[int, str]]:
    words, column = [], start
    for word in line[start:].split():
        column = line.index(word, column)
        words.append((column, word))
        column += len(word)
    return words


def _team_of(rosters: list[tuple[int, str, list[int]]],
             players: Mapping[int, object]) -> dict[int, int]:
    team_of: dict[int, int] = {}
    for tpn, (line, _name, members) in enumerate(rosters, start=1):
        for member in members:
            if member in team_of:
                raise TrfError(f"player {member} is in two teams ({team_of[member]} and "
                               f"{tpn})", line, 37)
            if member not in players:
                raise TrfError(f"team member {member} has no player record ('001')", line, 37)
            team_of[member] = tpn
    return team_of


def _team_round(round_number: int, members: list[int], players: Mapping[int, dict[int, _Entry]],
                team_of: Mapping[int, int]) -> MatchRecord:
    entries = [players[m][round_number] for m in members if round_number in players[m]]
    boards = tuple((players[m][round_number].colour, players[m][round_number].code)
                   if round_number in players[m] else ("", "") for m in members)
    games = [e for e in entries if e.opponent]
    if not games:
        if entries and all(e.code == "U" for e in entries):
            # A drawn match's match points, and a won game's point on every board: gacrux's
            # reading of art. 1.4, which the regulations of a competition may change.
            return MatchRecord(round_number, MatchKind.PAB, match_points=MATCH_POINTS["draw"],
                               game_points=Fraction(len(entries)), boards=boards)
        if entries and all(e.code == "F" for e in entries):
            return MatchRecord(round_number, MatchKind.FULL_BYE,
                               match_points=MATCH_POINTS["win"],
                               game_points=Fraction(len(entries)), boards=boards)
        return MatchRecord(round_number, MatchKind.ABSENT, boards=boards)
    opponent = team_of.get(games[0].opponent)
    if opponent is None:
        raise TrfError(f"round {round_number}: player {games[0].opponent} is in no team")
    ours = sum((GAME_POINTS.get(e.code, Fraction(0)) for e in games), Fraction(0))
    theirs = sum((GAME_POINTS.get(players[e.opponent][round_number].code, Fraction(0))
                  for e in games if round_number in players.get(e.opponent, {})), Fraction(0))
    outcome = "win" if ours > theirs else "draw" if ours == theirs else "loss"
    played = [e for e in games if e.code in PLAYED]
    if not played:
        kind = MatchKind.FORFEIT_WIN if outcome == "win" else MatchKind.FORFEIT_LOSS
        return MatchRecord(round_number, kind, opponent, None, MATCH_POINTS[outcome], ours,
                           boards)
    colour: Colour = "w" if games[0].colour == "w" else "b"  # board 1, even if forfeited
    return MatchRecord(round_number, MatchKind.PLAYED, opponent, colour,
                       MATCH_POINTS[outcome], ours, boards)


def _check_consistent(teams: list[Team]) -> None:
    by_tpn = {t.tpn: t for t in teams}
    for team in teams:
        for match in team.history:
            if match.opponent is None:
                continue
            theirs = by_tpn[match.opponent].history[match.round - 1]
            if theirs.opponent != team.tpn:
                raise TrfError(f"round {match.round}: team {team.tpn} meets team "
                               f"{match.opponent}, whose players met team {theirs.opponent}")
