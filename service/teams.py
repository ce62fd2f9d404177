"""Team events: the settings, the teams and their rosters, lineups, check-in and drops.

A team event is an event with a team system (``fide-team`` or ``esports-swiss``, set with
:meth:`Teams.team_settings` before the first round). Its creator is a team's captain; the
captain (or an organiser, for any team) adds and removes members in board order, with
substitutes after the regulars, and sets each round's lineup until the round is paired: the
last lineup set stands. A member is in one team per event. Every refusal changes nothing.
The rounds, results and standings are :mod:`service.team_rounds`.
"""

from __future__ import annotations

from i18n import N_, Message, lazy, lazy_plural
from service.base import Context, TournamentRef, audit, find_tournament, part
from service.errors import (
    ConflictError,
    InvalidInputError,
    NotFoundError,
    PermissionDeniedError,
    RegistrationClosedError,
    RoundChangedError,
)
from service.operation import operation
from service.permissions import require_organiser
from service.team_views import (
    LineupView,
    TeamEventView,
    TeamRef,
    TeamView,
    event_view,
    find_team,
    member_view,
    require_team_event,
    team_view,
)
from service.validation import check_choice, check_range, clean_name, member_name
from service.views import Actor
from storage import players as player_repo
from storage import team_rounds as round_repo
from storage import teams as team_repo
from storage.connection import Connection, IntegrityError
from storage.teams import MemberRow, TeamEventRow, TeamRow
from storage.tournaments import TournamentRow

MAX_TEAM_NAME = 50  # as long as an event's name
MAX_TEAM_REF = MAX_TEAM_NAME + 10  # a name, or #number, with room for stray spaces
MAX_MEMBERS = 24  # boards plus substitutes: a 12-board event with as many substitutes
MAX_BOARDS = 12
MAX_WINS = 9  # e-sports: wins to advance, losses to be eliminated
MAX_MAPS = 5  # e-sports: maps of a best of five
SYSTEMS = ("fide-team", "esports-swiss")
COLOUR_MODELS = ("type-a", "type-b", "none")


def require_captain(actor: Actor, t: TournamentRow, team: TeamRow, doing: Message) -> None:
    """Only the team's captain, or an organiser (for any team), may ``doing``."""
    if actor.is_organiser or team.captain_user_id == actor.user_id:
        return
    raise PermissionDeniedError(lazy(
        "Only the captain of {team} (<@{captain}>) or an organiser can {doing} in "
        "'{tournament}'.", team=team.name, captain=team.captain_user_id, doing=doing,
        tournament=t.name))


def require_version(team: TeamRow, version: int | None) -> None:
    """A command that names the roster it saw is refused once the roster changed."""
    if version is not None and version != team.version:
        raise RoundChangedError(lazy(
            "{team} changed since (version {version}, now {now}): look at /team show and try "
            "again.", team=team.name, version=version, now=team.version))


async def rounds_paired(conn: Connection, t: TournamentRow) -> int:
    rounds = await round_repo.list_rounds(conn, t.id)
    return rounds[-1].number if rounds else 0


@part
class Teams:
    ctx: Context

    @operation
    async def team_settings(
        self, actor: Actor, system: str, *, boards: int, colour_model: str = "type-a",
        primary_score: str = "mp", wins_to_advance: int = 3, losses_to_eliminate: int = 3,
        decider_best_of: int = 3, other_best_of: int = 1, tournament: TournamentRef = None,
    ) -> TeamEventView:
        """Organiser: make the event a team event (or change its team settings) before its
        first round. ``boards``: players per match and team (chess boards, or the e-sports
        roster size)."""
        require_organiser(actor, lazy("choose the team settings"))
        system = check_choice(system, what="team system", choices=SYSTEMS)
        colour_model = check_choice(colour_model, what="colour model", choices=COLOUR_MODELS)
        primary_score = check_choice(primary_score, what="primary score", choices=("mp", "gp"))
        check_range(boards, what=N_("number of boards"), low=1, high=MAX_BOARDS)
        check_range(wins_to_advance, what=N_("wins to advance"), low=1, high=MAX_WINS)
        check_range(losses_to_eliminate, what=N_("losses to be eliminated"), low=1, high=MAX_WINS)
        for best_of, text in (
                (decider_best_of, N_("The deciding matches are best of 1, 3 or 5, not {best_of}.")),
                (other_best_of, N_("The other matches are best of 1, 3 or 5, not {best_of}."))):
            if best_of not in (1, 3, 5):
                raise InvalidInputError(lazy(text, best_of=best_of))
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            if await rounds_paired(conn, t) or t.status != "registration":
                raise RegistrationClosedError(lazy(
                    "'{tournament}' has started: its team settings stay as they are.",
                    tournament=t.name))
            players = await player_repo.count_entrants(conn, t.id)
            if players:
                raise ConflictError(lazy_plural(
                    "'{tournament}' has {n} player registered on their own: a team event takes "
                    "teams only (create a new event).",
                    "'{tournament}' has {n} players registered on their own: a team event takes "
                    "teams only (create a new event).", players, tournament=t.name))
            before = await team_repo.get_event(conn, t.id)
            await team_repo.save_event(conn, TeamEventRow(
                t.id, system, colour_model, primary_score, boards, wins_to_advance,
                losses_to_eliminate, decider_best_of, other_best_of, 0))
            event = await require_team_event(conn, t)
            await audit(self.ctx, conn, actor, t, "team.settings",
                        None if before is None else _settings(before), _settings(event))
            return event_view(t, event)

    @operation
    async def create_team(
        self, actor: Actor, name: str, *, captain_id: int | None = None,
        captain_name: str | None = None, tournament: TournamentRef = None,
    ) -> TeamView:
        """Create a team; its creator is its captain and its first member (board 1). An
        organiser may create one for another member (``captain_id``, ``captain_name``) and
        after the start."""
        clean = clean_name(name, what="team name", limit=MAX_TEAM_NAME)
        if clean.startswith("#"):
            raise InvalidInputError(lazy("A team name does not start with #: #3 means team "
                                         "number 3."))
        if captain_id is not None:
            require_organiser(actor, lazy("create a team for another member"))
        captain = actor.user_id if captain_id is None else captain_id
        shown = member_name(actor.display_name if captain_id is None
                            else captain_name or f"user {captain}", captain, limit=MAX_TEAM_NAME)
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            await require_team_event(conn, t)
            if t.status != "registration" and not actor.is_organiser:
                raise RegistrationClosedError(lazy(
                    "'{tournament}' has started: only an organiser can add a team now.",
                    tournament=t.name))
            await self._require_free(conn, t, captain)
            try:
                team_id = await team_repo.insert_team(conn, t.id, clean, captain, self.ctx.now())
            except IntegrityError:
                raise ConflictError(lazy(
                    "'{tournament}' already has a team called {name}: choose another name.",
                    tournament=t.name, name=repr(clean))) from None
            await team_repo.insert_member(conn, t.id, team_id, captain, shown, 1, False)
            team = await team_repo.get_team(conn, team_id)
            assert team is not None
            await audit(self.ctx, conn, actor, t, "team.create", None,
                        {"team": team.id, "name": clean, "captain": captain})
            return await team_view(conn, t, team)

    async def _require_free(self, conn: Connection, t: TournamentRow, user_id: int) -> None:
        """A member is in one team per event."""
        member = await team_repo.member_of_user(conn, t.id, user_id)
        if member is None:
            return
        team = await team_repo.get_team(conn, member.team_id)
        raise ConflictError(lazy(
            "<@{user}> is already in {team} in '{tournament}': a member plays for one team per "
            "event.", user=user_id, team=team.name if team else lazy("a team"),
            tournament=t.name))

    @operation
    async def add_member(
        self, actor: Actor, user_id: int, name: str, *, team: TeamRef = None,
        substitute: bool = False, board: int | None = None, version: int | None = None,
        tournament: TournamentRef = None,
    ) -> TeamView:
        """Captain (or organiser): add a member at board ``board`` (default: after the
        regulars, or last for a substitute); the members from there down move one place."""
        shown = member_name(name, user_id, limit=MAX_TEAM_NAME)
        async with self.ctx.db.transaction() as conn:
            t, _, row = await self._captains_team(conn, actor, tournament, team,
                                                  lazy("add members"), version)
            await self._require_free(conn, t, user_id)
            members = await self._members(conn, row)
            if len(members) >= MAX_MEMBERS:
                raise ConflictError(lazy("{team} has {members} members, the most a team can "
                                         "have.", team=row.name, members=len(members)))
            regulars = sum(1 for m in members if not m.substitute)
            place = (len(members) + 1 if substitute else regulars + 1) if board is None \
                else check_range(board, what=N_("board"), low=1, high=len(members) + 1)
            await team_repo.insert_member(conn, t.id, row.id, user_id, shown, place, substitute)
            await team_repo.update_team(conn, row)
            await audit(self.ctx, conn, actor, t, "team.add", None,
                        {"team": row.id, "user": user_id, "position": place,
                         "substitute": substitute})
            return await self._view(conn, t, row.id)

    @operation
    async def remove_member(
        self, actor: Actor, user_id: int, *, team: TeamRef = None, version: int | None = None,
        tournament: TournamentRef = None,
    ) -> TeamView:
        """Captain (or organiser): remove a member who has not played a board (one who has
        stays in the records: leave him out of the lineups). The captain stays."""
        async with self.ctx.db.transaction() as conn:
            t, _, row = await self._captains_team(conn, actor, tournament, team,
                                                  lazy("remove members"), version)
            member = next((m for m in await self._members(conn, row) if m.user_id == user_id),
                          None)
            if member is None:
                raise NotFoundError(lazy("<@{user}> is not a member of {team}.",
                                         user=user_id, team=row.name))
            if user_id == row.captain_user_id:
                raise ConflictError(lazy("<@{user}> is the captain of {team}: a team keeps its "
                                         "captain.", user=user_id, team=row.name))
            if await team_repo.member_has_boards(conn, member.id):
                raise ConflictError(lazy(
                    "{member} has played for {team}: he stays in the records. Leave him out of "
                    "the next lineups instead.", member=member.name, team=row.name))
            await team_repo.delete_member(conn, member)
            await team_repo.update_team(conn, row)
            await audit(self.ctx, conn, actor, t, "team.remove",
                        {"team": row.id, "user": user_id, "position": member.position}, None)
            return await self._view(conn, t, row.id)

    @operation
    async def set_lineup(
        self, actor: Actor, round_number: int, members: list[int], *, team: TeamRef = None,
        tournament: TournamentRef = None,
    ) -> LineupView:
        """Captain: the team's members (user ids) on boards 1, 2, ... for ``round_number``,
        until that round is paired; the last lineup set stands. Fewer members than boards
        forfeit the last boards. An organiser may also change a paired round's lineup for
        the boards of a match with no result yet (a late lineup)."""
        async with self.ctx.db.transaction() as conn:
            t, event, row = await self._captains_team(conn, actor, tournament, team,
                                                      lazy("set the lineup"))
            paired = await rounds_paired(conn, t)
            check_range(round_number, what=N_("round"), low=1, high=10_000)
            late = round_number <= paired
            if late and not actor.is_organiser:
                raise RegistrationClosedError(lazy(
                    "Round {round} of '{tournament}' is already paired: its lineups closed "
                    "then. Ask an organiser if a board must change.", round=round_number,
                    tournament=t.name))
            if round_number > paired + 1:
                raise InvalidInputError(lazy(
                    "Lineups are set one round ahead: round {round} is the next one of "
                    "'{tournament}'.", round=paired + 1, tournament=t.name))
            roster = {m.user_id: m for m in await self._members(conn, row)}
            boards = self._check_lineup(row, event, roster, members)
            version, _ = await team_repo.get_lineup(conn, row.id, round_number)
            if late:
                await replace_late_lineup(conn, t, row, round_number, boards)
            await team_repo.set_lineup(conn, row.id, round_number, boards, version + 1,
                                       actor.user_id, self.ctx.now())
            await audit(self.ctx, conn, actor, t, "team.lineup", None,
                        {"team": row.id, "round": round_number, "late": late,
                         "boards": {str(b): m for b, m in boards.items()}})
            by_id = {m.id: m for m in roster.values()}
            return LineupView(t.name, row.name, round_number, version + 1,
                              tuple(member_view(by_id[m]) for _, m in sorted(boards.items())),
                              late)

    @staticmethod
    def _check_lineup(team: TeamRow, event: TeamEventRow, roster: dict[int, MemberRow],
                      members: list[int]) -> dict[int, int]:
        if not members:
            raise InvalidInputError(lazy("A lineup names at least the player of board 1."))
        if len(members) > event.boards:
            raise InvalidInputError(lazy(
                "The lineup names {players} players but a match has {boards} boards.",
                players=len(members), boards=event.boards))
        if len(members) > len(roster):
            raise InvalidInputError(lazy(
                "The lineup names {players} players but {team} has {members} members.",
                players=len(members), team=team.name, members=len(roster)))
        seen: set[int] = set()
        for board, user in enumerate(members, start=1):
            if user not in roster:
                raise InvalidInputError(lazy(
                    "<@{user}> (board {board}) is not a member of {team}: add him with /team "
                    "add first.", user=user, board=board, team=team.name))
            if user in seen:
                raise InvalidInputError(lazy(
                    "<@{user}> is named twice in the lineup (board {board}): a player plays one "
                    "board.", user=user, board=board))
            seen.add(user)
        return {board: roster[user].id for board, user in enumerate(members, start=1)}

    @operation
    async def check_in_team(
        self, actor: Actor, *, team: TeamRef = None, tournament: TournamentRef = None,
    ) -> TeamView:
        """Captain (or organiser): the team is here. Checking in twice changes nothing."""
        async with self.ctx.db.transaction() as conn:
            t, _, row = await self._captains_team(conn, actor, tournament, team,
                                                  lazy("check the team in"))
            if not row.checked_in:
                await team_repo.update_team(conn, row, checked_in=1)
                await audit(self.ctx, conn, actor, t, "team.checkin", None, {"team": row.id})
            return await self._view(conn, t, row.id)

    @operation
    async def drop_team(
        self, actor: Actor, *, team: TeamRef = None, version: int | None = None,
        tournament: TournamentRef = None,
    ) -> TeamView:
        """Captain (or organiser): the team plays no more rounds (its played matches stay).
        A second drop is refused: the team was already withdrawn."""
        async with self.ctx.db.transaction() as conn:
            t, _, row = await self._captains_team(conn, actor, tournament, team,
                                                  lazy("withdraw the team"), version)
            after = await rounds_paired(conn, t)
            await team_repo.update_team(conn, row, status="withdrawn", withdrawn_round=after + 1)
            await audit(self.ctx, conn, actor, t, "team.drop", None,
                        {"team": row.id, "from_round": after + 1})
            return await self._view(conn, t, row.id)

    @operation
    async def list_teams(self, guild_id: int, tournament: TournamentRef = None
                         ) -> list[TeamView]:
        """Every team of the event with its members in board order."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, guild_id, tournament, closed_ok=True)
            await require_team_event(conn, t)
            return [await team_view(conn, t, row) for row in await team_repo.list_teams(conn, t.id)]

    @operation
    async def team_event(self, guild_id: int, tournament: TournamentRef = None
                         ) -> TeamEventView | None:
        """The event's team settings, or None for an event of individuals."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, guild_id, tournament, closed_ok=True)
            event = await team_repo.get_event(conn, t.id)
            return None if event is None else event_view(t, event)

    # -- helpers ------------------------------------------------------------------------------
    @staticmethod
    async def _captains_team(conn: Connection, actor: Actor, tournament: TournamentRef,
                             team: TeamRef, doing: Message, version: int | None = None
                             ) -> tuple[TournamentRow, TeamEventRow, TeamRow]:
        """The event and the team a roster command acts on, once the actor may ``doing``
        (its captain, or an organiser), the roster is the one he saw and the team still
        plays."""
        t = await find_tournament(conn, actor.guild_id, tournament)
        event = await require_team_event(conn, t)
        row = await find_team(conn, t, team, actor.user_id)
        require_captain(actor, t, row, doing)
        require_version(row, version)
        Teams._require_playing(t, row)
        return t, event, row

    @staticmethod
    def _require_playing(t: TournamentRow, team: TeamRow) -> None:
        if t.status in ("finished", "cancelled"):
            raise ConflictError(lazy("'{tournament}' is {status}.", tournament=t.name,
                                     status=t.status))
        if team.status == "withdrawn":
            raise ConflictError(lazy("{team} has withdrawn from '{tournament}'.",
                                     team=team.name, tournament=t.name))

    @staticmethod
    async def _members(conn: Connection, team: TeamRow) -> list[MemberRow]:
        return [m for m in await team_repo.list_members(conn, team.tournament_id)
                if m.team_id == team.id]

    @staticmethod
    async def _view(conn: Connection, t: TournamentRow, team_id: int) -> TeamView:
        team = await team_repo.get_team(conn, team_id)
        assert team is not None
        return await team_view(conn, t, team)


async def replace_late_lineup(conn: Connection, t: TournamentRow, team: TeamRow,
                              round_number: int, boards: dict[int, int]) -> None:
    """Put a paired round's new lineup on the team's side of its match's boards: only while
    no board of the match has a result (a board forfeited for want of a player is played
    after all when the late lineup fills it)."""
    match = next((m for m in await round_repo.list_matches(conn, t.id, round_number)
                  if team.id in (m.white_team_id, m.black_team_id)), None)
    if match is None or match.black_team_id is None:
        raise ConflictError(lazy("{team} has no match in round {round}: there is no lineup "
                                 "to change.", team=team.name, round=round_number))
    if match.state != "pending":
        raise ConflictError(lazy("The match of {team} in round {round} has a result: its "
                                 "lineup stays as it was played.", team=team.name,
                                 round=round_number))
    rows = [b for b in await round_repo.list_boards(conn, t.id, round_number)
            if b.match_id == match.id]
    if any(b.state != "pending" and b.result not in ("+-", "-+", "--") for b in rows):
        raise ConflictError(lazy("A board of {team}'s match in round {round} has a result: "
                                 "its lineup stays as it was played.", team=team.name,
                                 round=round_number))
    for row in rows:
        own_white = (team.id == match.white_team_id) == (row.board % 2 == 1)
        white = boards.get(row.board) if own_white else row.white_member_id
        black = row.black_member_id if own_white else boards.get(row.board)
        await round_repo.update_board(conn, match.id, row.board, white_member_id=white,
                                      black_member_id=black, result=board_start(white, black),
                                      state="pending" if white and black else "final")


def board_start(white: int | None, black: int | None) -> str:
    """A board's result when it is set up: to be played, or forfeited by the side without
    a player."""
    if white and black:
        return "*"
    return "+-" if white else "-+" if black else "--"


def _settings(event: TeamEventRow) -> dict[str, object]:
    return {"system": event.system, "boards": event.boards, "colours": event.colour_model,
            "primary": event.primary_score, "wins": event.wins_to_advance,
            "losses": event.losses_to_eliminate, "best_of": [event.decider_best_of,
                                                            event.other_best_of]}
