"""A team event's stored rounds read as the pure core sees them (swiss.teams): each team's
history of matches, the e-sports stage's results, the standings. No I/O: what the pairing
worker and the standings take."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from storage.team_rounds import BoardRow, MatchRow
from storage.teams import TeamEventRow, TeamRow
from swiss.teams.esports import StageMatch, StagePairing, StageRules, pair_stage, rank_key
from swiss.teams.esports import standings as stage_standings
from swiss.teams.model import MatchKind, MatchRecord, Team, TeamPairing, TeamRules

# A board's result as points for (White, Black), and each side's TRF code.
BOARD_POINTS: dict[str, tuple[Fraction, Fraction]] = {
    "1-0": (Fraction(1), Fraction(0)), "0-1": (Fraction(0), Fraction(1)),
    "1/2": (Fraction(1, 2), Fraction(1, 2)), "+-": (Fraction(1), Fraction(0)),
    "-+": (Fraction(0), Fraction(1)), "--": (Fraction(0), Fraction(0)),
}
_CODES = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2": ("=", "="), "+-": ("+", "-"),
          "-+": ("-", "+"), "--": ("-", "-")}


@dataclass(frozen=True, slots=True)
class EventState:
    """Everything pairing and standings read: the settings, teams, matches and boards."""

    event: TeamEventRow
    teams: tuple[TeamRow, ...]
    matches: tuple[MatchRow, ...]
    boards: tuple[BoardRow, ...]
    rounds_paired: int


def team_side_white(match: MatchRow, team_id: int, board: int) -> bool:
    """Whether ``team_id`` has White on ``board`` (1-based) of ``match``: the match's first
    team has White on the odd boards."""
    return (team_id == match.white_team_id) == (board % 2 == 1)


def board_scores(match: MatchRow, boards: list[BoardRow]) -> tuple[Fraction, Fraction]:
    """The two teams' game points (the match's first team, then the second) over its boards."""
    first = second = Fraction(0)
    for row in boards:
        white, black = BOARD_POINTS.get(row.result, (Fraction(0), Fraction(0)))
        if team_side_white(match, match.white_team_id, row.board):
            first, second = first + white, second + black
        else:
            first, second = first + black, second + white
    return first, second


def chess_match_points(first: Fraction, second: Fraction) -> tuple[int, int]:
    """2 for the match won, 1 each for a drawn one (C.04.6)."""
    return (2, 0) if first > second else (0, 2) if second > first else (1, 1)


def histories(state: EventState) -> list[Team]:
    """Each team as :mod:`swiss.teams` sees it: pairing number, name, finished matches."""
    boards_of: dict[int, list[BoardRow]] = {}
    for row in state.boards:
        boards_of.setdefault(row.match_id, []).append(row)
    by_id = {t.id: t for t in state.teams}
    teams = {t.id: Team(t.number, t.name) for t in state.teams}
    for match in state.matches:
        if match.state != "final":
            continue
        first = teams[match.white_team_id]
        if match.black_team_id is None:
            first.history.append(MatchRecord(
                match.round_number, MatchKind.PAB, match_points=Fraction(match.white_mp or 0),
                game_points=Fraction(state.event.boards)))
            continue
        second_row = by_id[match.black_team_id]
        rows = boards_of.get(match.id, [])
        for team, other, white in ((first, second_row.number, True),
                                   (teams[match.black_team_id], first.tpn, False)):
            team.history.append(_record(match, rows, other, white, state.event))
    return list(teams.values())


def _record(match: MatchRow, rows: list[BoardRow], opponent: int, first: bool,
            event: TeamEventRow) -> MatchRecord:
    boards = event.boards
    mp = (match.white_mp if first else match.black_mp) or 0
    score = (match.white_score if first else match.black_score) or 0
    # chess keeps game points in half points; e-sports counts maps
    gp = Fraction(score, 2) if event.system == "fide-team" else Fraction(score)
    if match.forfeit is not None:
        came = match.forfeit == ("black" if first else "white")
        kind = MatchKind.FORFEIT_WIN if came else MatchKind.FORFEIT_LOSS
        return MatchRecord(match.round_number, kind, opponent, None, Fraction(mp),
                           Fraction(boards) if came else Fraction(0))
    codes = []
    for row in rows:
        white = team_side_white(match, match.white_team_id if first else match.black_team_id
                                or 0, row.board)
        pair = _CODES.get(row.result, ("", ""))
        codes.append(("w" if white else "b", pair[0] if white else pair[1]))
    return MatchRecord(match.round_number, MatchKind.PLAYED, opponent, "w" if first else "b",
                       Fraction(mp), gp, tuple(codes))


def stage_results(state: EventState) -> list[StageMatch]:
    """The e-sports stage's finished matches: winner and loser by seed (team number)."""
    number = {t.id: t.number for t in state.teams}
    results = []
    for match in state.matches:
        if match.state != "final":
            continue
        if match.black_team_id is None:
            results.append(StageMatch(match.round_number, number[match.white_team_id], None))
            continue
        white_won = (match.white_mp or 0) > (match.black_mp or 0)
        winner, loser = ((match.white_team_id, match.black_team_id) if white_won
                         else (match.black_team_id, match.white_team_id))
        results.append(StageMatch(match.round_number, number[winner], number[loser]))
    return results


def stage_rules(event: TeamEventRow) -> StageRules:
    return StageRules(event.wins_to_advance, event.losses_to_eliminate,
                      event.decider_best_of, event.other_best_of)


def pair_round(state: EventState, round_number: int, total_rounds: int,
               absent: frozenset[int]) -> TeamPairing | StagePairing:
    """The next round's pairing by the event's system (team numbers)."""
    if state.event.system == "esports-swiss":
        seeds = [t.number for t in state.teams]
        return pair_stage(seeds, stage_results(state), round_number, stage_rules(state.event))
    # imported here: the FIDE team engine brings numpy, which every process importing the
    # service (the pairing workers of individual events among them) would otherwise load
    from swiss.teams.fide_team import pair_fide_team

    rules = TeamRules(colour_model=state.event.colour_model,  # type: ignore[arg-type]
                      primary=state.event.primary_score)  # type: ignore[arg-type]
    return pair_fide_team(histories(state), rules, round_number, total_rounds, absent)


def stage_over(state: EventState) -> bool:
    """Every team of the e-sports stage has advanced or been eliminated (or one is left)."""
    table = stage_standings([t.number for t in state.teams], stage_results(state))
    rules = stage_rules(state.event)
    alive = [s for s in table.values() if s.wins < rules.wins_to_advance
             and s.losses < rules.losses_to_eliminate]
    return len(alive) <= 1


@dataclass(frozen=True, slots=True)
class StandingRow:
    """A team's place: its points and tie-breaks; ``status`` "active" or "withdrawn", and in
    an e-sports stage "advanced" or "eliminated"."""

    rank: int
    number: int
    name: str
    match_points: Fraction
    game_points: Fraction
    tiebreaks: tuple[Fraction, ...]
    status: str


def standings(state: EventState, total_rounds: int) -> tuple[tuple[str, ...],
                                                              list[StandingRow]]:
    """The ranking: C.07 team tie-breaks (fide-team); record, difficulty, seed (e-sports)."""
    by_number = {t.number: t for t in state.teams}
    teams = histories(state)
    mp = {t.tpn: t.score("mp") for t in teams}
    gp = {t.tpn: t.score("gp") for t in teams}
    if state.event.system == "esports-swiss":
        rules = stage_rules(state.event)
        table = stage_standings(list(by_number), stage_results(state))
        order = sorted(table.values(), key=rank_key)
        rows = []
        for place, s in enumerate(order, start=1):
            status = ("advanced" if s.wins >= rules.wins_to_advance else "eliminated"
                      if s.losses >= rules.losses_to_eliminate else by_number[s.seed].status)
            rows.append(StandingRow(place, s.seed, by_number[s.seed].name, Fraction(s.wins),
                                    gp[s.seed], (Fraction(s.losses), Fraction(s.difficulty)),
                                    status))
        return ("L", "Difficulty"), rows
    from swiss.teams.tiebreaks import team_standings  # as pair_fide_team above

    primary = state.event.primary_score
    specs, ranked = team_standings(teams, primary,  # type: ignore[arg-type]
                                   rounds=state.rounds_paired or None,
                                   total_rounds=total_rounds)
    return (tuple(s.acronym for s in specs),
            [StandingRow(r.rank, r.tpn, r.name, mp[r.tpn], gp[r.tpn], r.values[1:],
                         by_number[r.tpn].status) for r in ranked])
