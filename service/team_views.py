"""What the team operations return (service.teams, service.team_rounds), and the plain
lookups both share."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from i18n import Message, lazy
from service.errors import ConflictError, NotFoundError
from service.limits import echo
from service.team_state import StandingRow as TeamStandingView
from storage import teams as team_repo
from storage.connection import Connection
from storage.teams import MemberRow, TeamEventRow, TeamRow
from storage.tournaments import TournamentRow

TeamRef = str | None


@dataclass(frozen=True, slots=True)
class TeamEventView:
    tournament_id: int
    tournament_name: str
    system: str
    boards: int
    colour_model: str
    primary_score: str
    wins_to_advance: int
    losses_to_eliminate: int
    decider_best_of: int
    other_best_of: int
    version: int


@dataclass(frozen=True, slots=True)
class MemberView:
    user_id: int
    name: str
    position: int
    substitute: bool


@dataclass(frozen=True, slots=True)
class TeamView:
    tournament_id: int
    tournament_name: str
    id: int
    number: int
    name: str
    captain_user_id: int
    status: str
    checked_in: bool
    version: int
    members: tuple[MemberView, ...]


@dataclass(frozen=True, slots=True)
class LineupView:
    tournament_name: str
    team: str
    round_number: int
    version: int
    boards: tuple[MemberView, ...]  # board 1 first
    late: bool  # set by an organiser after the round was paired


@dataclass(frozen=True, slots=True)
class BoardView:
    board: int
    white: MemberView | None
    black: MemberView | None
    white_team: str
    black_team: str
    result: str
    state: str


@dataclass(frozen=True, slots=True)
class MatchView:
    round_number: int
    number: int
    white_team: str  # board 1's White (chess); the higher seed (e-sports)
    black_team: str | None  # None: the bye
    best_of: int
    state: str
    white_score: Fraction | None  # game points (chess) or maps (e-sports)
    black_score: Fraction | None
    white_mp: int | None
    black_mp: int | None
    forfeit: str | None
    reported_by: str | None
    boards: tuple[BoardView, ...]
    white_lineup: tuple[MemberView, ...] = ()
    black_lineup: tuple[MemberView, ...] = ()


@dataclass(frozen=True, slots=True)
class TeamRoundView:
    tournament_id: int
    tournament_name: str
    system: str
    round_number: int
    state: str
    matches: tuple[MatchView, ...]


@dataclass(frozen=True, slots=True)
class TeamStandingsView:
    tournament_id: int
    tournament_name: str
    system: str
    after_round: int
    tiebreak_names: tuple[str, ...]
    rows: tuple[TeamStandingView, ...]


def member_view(row: MemberRow) -> MemberView:
    return MemberView(row.user_id, row.name, row.position, row.substitute)


def event_view(t: TournamentRow, e: TeamEventRow) -> TeamEventView:
    return TeamEventView(t.id, t.name, e.system, e.boards, e.colour_model, e.primary_score,
                         e.wins_to_advance, e.losses_to_eliminate, e.decider_best_of,
                         e.other_best_of, e.version)


async def team_view(conn: Connection, t: TournamentRow, team: TeamRow) -> TeamView:
    members = [m for m in await team_repo.list_members(conn, t.id) if m.team_id == team.id]
    return TeamView(t.id, t.name, team.id, team.number, team.name, team.captain_user_id,
                    team.status, team.checked_in, team.version,
                    tuple(member_view(m) for m in members))


async def require_team_event(conn: Connection, t: TournamentRow) -> TeamEventRow:
    event = await team_repo.get_event(conn, t.id)
    if event is None:
        raise NotFoundError(lazy(
            "'{tournament}' is not a team event. An organiser makes it one with /team settings "
            "before the first round.", tournament=t.name))
    return event


async def refuse_team_event(conn: Connection, t: TournamentRow, doing: Message) -> None:
    """A command for individual events, on a team event: say which command to use."""
    if await team_repo.get_event(conn, t.id) is not None:
        raise ConflictError(lazy("'{tournament}' is a team event: {doing}.", tournament=t.name,
                                 doing=doing))


async def find_team(conn: Connection, t: TournamentRow, ref: TeamRef, user_id: int
                    ) -> TeamRow:
    """The team named ``ref`` (a name or ``#number``), or the team of ``user_id``."""
    teams = await team_repo.list_teams(conn, t.id)
    if ref is None:
        member = await team_repo.member_of_user(conn, t.id, user_id)
        for team in teams:
            if member is not None and team.id == member.team_id:
                return team
        raise NotFoundError(lazy("You are in no team of '{tournament}': name the team (team "
                                 "option) or create one with /team create.", tournament=t.name))
    text = ref.strip()
    for team in teams:
        if team.name.casefold() == text.casefold() or text == f"#{team.number}":
            return team
    raise NotFoundError(lazy("There is no team {team} in '{tournament}'. See /team show.",
                             team=echo(text), tournament=t.name))
