"""Team events: pairing a round, its results (per board or per match) and the standings.

A round is paired by the event's system (:mod:`service.team_state`): the teams' histories
are read in one transaction, paired outside any transaction (in a thread for big events:
400 teams take most of a second), and stored in a second one that names the round: a double
click, a retry or a second organiser pairs it once. Chess boards are reported by one of the
board's players and confirmed by the other; e-sports matches by one captain (maps won) and
confirmed by the other. An organiser sets any board or match, or gives a match as forfeited.
A match's game points and match points are derived from its boards (or maps) and stored;
each change is audited, and the round's standings are posted when its last match is final.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from i18n import lazy, lazy_plural
from service.base import Context, TournamentRef, audit, find_tournament, part, post_announcement
from service.errors import (
    AlreadyFinalError,
    ConflictError,
    InvalidInputError,
    NotPairedError,
    PairingFailedError,
    PermissionDeniedError,
    RoundChangedError,
    RoundNotCompleteError,
)
from service.model import settings_of
from service.operation import operation
from service.permissions import require_organiser
from service.team_state import (
    EventState,
    board_scores,
    chess_match_points,
    pair_round,
    stage_over,
    standings,
)
from service.team_views import (
    BoardView,
    MatchView,
    TeamRoundView,
    TeamStandingsView,
    find_team,
    member_view,
    require_team_event,
)
from service.teams import board_start
from service.views import Actor
from storage import team_rounds as round_repo
from storage import teams as team_repo
from storage import tournaments as tournament_repo
from storage.connection import Connection
from storage.team_rounds import BoardRow, MatchRow
from storage.teams import MemberRow, TeamRow
from storage.tournaments import TournamentRow
from swiss.pairing.types import PairingError
from swiss.teams.esports import StagePairing

# What a player reports, seen from his side, as the board's result seen from White.
_REPORTS = {"win": ("1-0", "0-1"), "loss": ("0-1", "1-0"), "draw": ("1/2", "1/2")}
# An organiser's board result, as typed (White's point first).
BOARD_RESULTS = ("1-0", "0-1", "1/2", "+-", "-+", "--")


@dataclass(frozen=True, slots=True)
class _Loaded:
    state: EventState
    members: dict[int, MemberRow]


async def load_state(conn: Connection, t: TournamentRow) -> _Loaded:
    event = await require_team_event(conn, t)
    rounds = await round_repo.list_rounds(conn, t.id)
    state = EventState(event, tuple(await team_repo.list_teams(conn, t.id)),
                       tuple(await round_repo.list_matches(conn, t.id)),
                       tuple(await round_repo.list_boards(conn, t.id)),
                       rounds[-1].number if rounds else 0)
    return _Loaded(state, {m.id: m for m in await team_repo.list_members(conn, t.id)})


@part
class TeamRounds:
    ctx: Context

    # -- pairing --------------------------------------------------------------------------
    @operation
    async def pair_team_round(self, actor: Actor, round_number: int,
                              tournament: TournamentRef = None) -> TeamRoundView:
        """Organiser: pair ``round_number`` (the next round; the previous one complete).
        Round 1 starts the event; with check-in on, the teams not checked in are withdrawn."""
        require_organiser(actor, lazy("pair a round"))
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            loaded = await load_state(conn, t)
            self._require_next(t, loaded.state, round_number)
            absent = self._absent(t, loaded.state, round_number)
        total = settings_of(t).rounds
        size = len(loaded.state.teams) * loaded.state.event.boards
        try:
            pairing = await self.ctx.pairing.off_loop(size, pair_round, loaded.state,
                                                      round_number, total, absent)
        except (PairingError, ValueError) as error:
            raise PairingFailedError(lazy(
                "Round {round} of '{tournament}' could not be paired: {error}",
                round=round_number, tournament=t.name, error=str(error))) from None
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, t.id)
            fresh = await load_state(conn, t)
            if fresh.state.rounds_paired != loaded.state.rounds_paired or \
                    fresh.state.teams != loaded.state.teams:
                raise RoundChangedError(lazy(
                    "Round {round} of '{tournament}' was paired or its teams changed "
                    "meanwhile: see /team pairings.", round=round_number, tournament=t.name))
            await self._store(conn, actor, t, fresh, round_number, pairing, absent)
            view = await round_view(conn, t, round_number)
            await post_announcement(self.ctx, conn, t, "team_pairings",
                                    {"round": view_payload(view)})
            await audit(self.ctx, conn, actor, t, "team.pair", None,
                        {"round": round_number, "matches": len(view.matches)})
            return view

    @staticmethod
    def _require_next(t: TournamentRow, state: EventState, round_number: int) -> None:
        if t.status in ("finished", "cancelled"):
            raise ConflictError(lazy("'{tournament}' is {status}.", tournament=t.name,
                                     status=t.status))
        expected = state.rounds_paired + 1
        if round_number != expected:
            raise RoundChangedError(lazy(
                "The next round of '{tournament}' is round {expected}, not {round}: it was "
                "paired already, or is not next.", tournament=t.name, expected=expected,
                round=round_number))
        if any(m.state != "final" for m in state.matches):
            raise RoundNotCompleteError(lazy(
                "Round {round} of '{tournament}' still has matches without a final result.",
                round=state.rounds_paired, tournament=t.name))
        if state.event.system == "fide-team" and round_number > settings_of(t).rounds:
            raise ConflictError(lazy_plural(
                "'{tournament}' has {n} round.", "'{tournament}' has {n} rounds.",
                settings_of(t).rounds, tournament=t.name))
        if state.event.system == "esports-swiss" and state.rounds_paired and stage_over(state):
            raise ConflictError(lazy("The stage of '{tournament}' is over: every team has "
                                     "advanced or been eliminated.", tournament=t.name))

    @staticmethod
    def _absent(t: TournamentRow, state: EventState, round_number: int) -> frozenset[int]:
        """Teams not paired: withdrawn ones (fide-team: an e-sports team that withdrew
        forfeits its matches instead), and at round 1 with check-in on, those not checked in."""
        checkin = round_number == 1 and settings_of(t).checkin
        return frozenset(team.number for team in state.teams
                         if (team.status == "withdrawn" and state.event.system == "fide-team")
                         or (checkin and not team.checked_in))

    async def _store(self, conn: Connection, actor: Actor, t: TournamentRow, loaded: _Loaded,
                     round_number: int, pairing: Any, absent: frozenset[int]) -> None:
        state = loaded.state
        event = state.event
        now = self.ctx.now()
        if round_number == 1:
            await tournament_repo.set_status(conn, t.id, "running", expected=("registration",),
                                             now=now)
            for team in state.teams:
                if team.number in absent and team.status == "active":
                    await team_repo.update_team(conn, team, status="withdrawn",
                                                withdrawn_round=1)
        by_number = {team.number: team for team in state.teams}
        round_id = await round_repo.insert_round(conn, t.id, round_number, actor.user_id, now)
        if isinstance(pairing, StagePairing):
            pairs = [(a, b, best_of) for a, b, best_of in pairing.matches]
        else:
            pairs = [(p.white, p.black, 1) for p in pairing.pairs]
        if pairing.bye is not None:
            pairs.append((pairing.bye, 0, 1))
        for number, (white, black, best_of) in enumerate(pairs, start=1):
            first = by_number[white]
            second = by_number.get(black)
            match_id = await round_repo.insert_match(conn, t.id, round_id, number, first.id,
                                                     None if second is None else second.id,
                                                     best_of)
            if second is None:  # the bye: a drawn match (chess), a win (e-sports)
                chess = event.system == "fide-team"
                await round_repo.finish_match(
                    conn, match_id, white_score=2 * event.boards if chess else 0, black_score=0,
                    white_mp=1, black_mp=0, forfeit=None, by=actor.user_id, now=now)
                continue
            if event.system == "fide-team":
                await self._set_boards(conn, match_id, first, second, round_number, loaded)
            if "withdrawn" in (first.status, second.status):  # e-sports: the match is forfeit
                await self._forfeit(conn, match_id, first, second, actor.user_id)
        if event.system == "fide-team":
            await self._finish_forfeited_boards(conn, t, round_number, actor.user_id)

    async def _set_boards(self, conn: Connection, match_id: int, first: TeamRow,
                          second: TeamRow, round_number: int, loaded: _Loaded) -> None:
        boards = loaded.state.event.boards
        lineups = [await self._lineup(conn, team, round_number, boards, loaded)
                   for team in (first, second)]
        rows = []
        for board in range(1, boards + 1):
            a, b = lineups[0].get(board), lineups[1].get(board)
            white, black = (a, b) if board % 2 else (b, a)
            rows.append((board, white, black, board_start(white, black)))
        await round_repo.insert_boards(conn, match_id, rows)

    @staticmethod
    async def _lineup(conn: Connection, team: TeamRow, round_number: int, boards: int,
                      loaded: _Loaded) -> dict[int, int]:
        """The lineup set for the round, else the regulars in board order."""
        _, lineup = await team_repo.get_lineup(conn, team.id, round_number)
        if lineup:
            return lineup
        regulars = [m for m in loaded.members.values()
                    if m.team_id == team.id and not m.substitute]
        regulars.sort(key=lambda m: m.position)
        return {board: m.id for board, m in enumerate(regulars[:boards], start=1)}

    async def _forfeit(self, conn: Connection, match_id: int, first: TeamRow, second: TeamRow,
                       by: int) -> None:
        lost = {first.status == "withdrawn", second.status == "withdrawn"}
        forfeit = "both" if lost == {True} else "white" if first.status == "withdrawn" \
            else "black"
        white_mp = 1 if forfeit == "black" else 0
        black_mp = 1 if forfeit == "white" else 0
        await round_repo.finish_match(conn, match_id, white_score=0, black_score=0,
                                      white_mp=white_mp, black_mp=black_mp, forfeit=forfeit,
                                      by=by, now=self.ctx.now())

    async def _finish_forfeited_boards(self, conn: Connection, t: TournamentRow,
                                       round_number: int, by: int) -> None:
        """Matches whose every board was decided at the pairing (no player on one side)."""
        for match in await round_repo.list_matches(conn, t.id, round_number):
            if match.state == "pending":
                await self._settle_match(conn, t, match, by)

    # -- reading --------------------------------------------------------------------------
    @operation
    async def team_pairings(self, guild_id: int, round_number: int | None = None,
                            tournament: TournamentRef = None) -> TeamRoundView:
        """A round's matches with their lineups and results (default: the latest)."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, guild_id, tournament, closed_ok=True)
            rounds = await round_repo.list_rounds(conn, t.id)
            number = round_number if round_number is not None else \
                (rounds[-1].number if rounds else 0)
            if not any(r.number == number for r in rounds):
                raise NotPairedError(lazy("Round {round} of '{tournament}' is not paired.",
                                          round=number, tournament=t.name))
            return await round_view(conn, t, number)

    @operation
    async def team_standings(self, guild_id: int, tournament: TournamentRef = None
                             ) -> TeamStandingsView:
        """The teams ranked: match points then the C.07 team tie-breaks (fide-team), or
        wins, losses and difficulty (e-sports)."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, guild_id, tournament, closed_ok=True)
            loaded = await load_state(conn, t)
        size = len(loaded.state.teams) * loaded.state.event.boards
        names, rows = await self.ctx.pairing.off_loop(size, standings, loaded.state,
                                                      settings_of(t).rounds)
        return TeamStandingsView(t.id, t.name, loaded.state.event.system,
                                 loaded.state.rounds_paired, names, tuple(rows))

    # -- results --------------------------------------------------------------------------
    @operation
    async def report_board(self, actor: Actor, round_number: int, result: str,
                           tournament: TournamentRef = None) -> BoardView:
        """A board's player: his result (win, draw, loss). The opponent's matching report or
        his confirmation makes it final; a contradicting one is refused (an organiser
        decides)."""
        if result not in _REPORTS:
            raise InvalidInputError(lazy("Report win, draw or loss, not {result}.",
                                         result=repr(result)))
        async with self.ctx.db.transaction() as conn:
            t, match, row, member = await self._my_board(conn, actor, round_number, tournament)
            white = row.white_member_id == member.id
            seen = _REPORTS[result][0 if white else 1]
            if row.state == "final":
                raise AlreadyFinalError(lazy("Board {board} of round {round} is final: "
                                             "{result}.", board=row.board, round=round_number,
                                             result=row.result))
            if row.reported_by is not None and row.reported_by != member.id:
                if row.reported_result != seen:
                    raise ConflictError(lazy(
                        "Your opponent reported {result} for board {board}; you disagree, so "
                        "an organiser decides (/team result).", result=row.reported_result,
                        board=row.board))
                await self._final_board(conn, t, match, row, seen, actor)
            else:
                await round_repo.update_board(conn, match.id, row.board, state="reported",
                                              reported_result=seen, reported_by=member.id)
                await audit(self.ctx, conn, actor, t, "team.board_report", None,
                            {"match": match.id, "board": row.board, "result": seen})
            return await board_view(conn, t, round_number, match.id, row.board)

    @operation
    async def confirm_board(self, actor: Actor, round_number: int,
                            tournament: TournamentRef = None) -> BoardView:
        """The opponent of the player who reported: confirm his result. Confirming a final
        board changes nothing."""
        async with self.ctx.db.transaction() as conn:
            t, match, row, member = await self._my_board(conn, actor, round_number, tournament)
            if row.state != "final":
                if row.reported_by is None or row.reported_by == member.id:
                    raise ConflictError(lazy("Nothing to confirm on board {board}: your "
                                             "opponent has not reported.", board=row.board))
                await self._final_board(conn, t, match, row, row.reported_result or "*", actor)
            return await board_view(conn, t, round_number, match.id, row.board)

    async def _my_board(self, conn: Connection, actor: Actor, round_number: int,
                        tournament: TournamentRef) -> tuple[TournamentRow, MatchRow, BoardRow,
                                                            MemberRow]:
        t = await find_tournament(conn, actor.guild_id, tournament)
        await require_team_event(conn, t)
        member = await team_repo.member_of_user(conn, t.id, actor.user_id)
        rows = [] if member is None else [
            b for b in await round_repo.list_boards(conn, t.id, round_number)
            if member.id in (b.white_member_id, b.black_member_id)]
        if member is None or not rows:
            raise NotPairedError(lazy("You play no board in round {round} of '{tournament}'.",
                                      round=round_number, tournament=t.name))
        match = next(m for m in await round_repo.list_matches(conn, t.id, round_number)
                     if m.id == rows[0].match_id)
        return t, match, rows[0], member

    async def _final_board(self, conn: Connection, t: TournamentRow, match: MatchRow,
                           row: BoardRow, result: str, actor: Actor) -> None:
        await round_repo.update_board(conn, match.id, row.board, result=result, state="final")
        await audit(self.ctx, conn, actor, t, "team.board_final",
                    {"result": row.result}, {"match": match.id, "board": row.board,
                                             "result": result})
        await self._settle_match(conn, t, match, actor.user_id)

    async def _settle_match(self, conn: Connection, t: TournamentRow, match: MatchRow,
                            by: int) -> None:
        """Once every board is final: the match's game and match points, then the round."""
        rows = [b for b in await round_repo.list_boards(conn, t.id, match.round_number)
                if b.match_id == match.id]
        if any(b.state != "final" for b in rows):
            return
        first, second = board_scores(match, rows)
        mp = chess_match_points(first, second)
        # every board forfeited and someone came: the match is a forfeit for the other team
        forfeit = None
        if all(b.result in ("+-", "-+", "--") for b in rows):
            forfeit = "both" if first == second == 0 else "black" if first > second else \
                "white" if second > first else None
        await round_repo.finish_match(conn, match.id, white_score=int(2 * first),
                                      black_score=int(2 * second), white_mp=mp[0],
                                      black_mp=mp[1], forfeit=forfeit, by=by, now=self.ctx.now())
        await self._settle_round(conn, t, match.round_number)

    async def _settle_round(self, conn: Connection, t: TournamentRow, round_number: int) -> None:
        matches = await round_repo.list_matches(conn, t.id, round_number)
        if any(m.state != "final" for m in matches):
            return
        rounds = {r.number: r for r in await round_repo.list_rounds(conn, t.id)}
        if not await round_repo.complete_round(conn, rounds[round_number].id):
            return
        loaded = await load_state(conn, t)
        names, rows = standings(loaded.state, settings_of(t).rounds)
        last = (stage_over(loaded.state) if loaded.state.event.system == "esports-swiss"
                else round_number >= settings_of(t).rounds)
        if last:
            await tournament_repo.set_status(conn, t.id, "finished", expected=("running",),
                                             now=self.ctx.now())
        await post_announcement(self.ctx, conn, t, "team_standings", {
            "round": round_number, "final": last, "system": loaded.state.event.system,
            "tiebreaks": list(names),
            "rows": [{"rank": r.rank, "number": r.number, "name": r.name,
                      "mp": str(r.match_points), "gp": str(r.game_points),
                      "tiebreaks": [str(v) for v in r.tiebreaks], "status": r.status}
                     for r in rows]})

    @operation
    async def report_match(self, actor: Actor, round_number: int, my_score: int,
                           their_score: int, tournament: TournamentRef = None) -> MatchView:
        """E-sports captain: the maps his team won and lost. The other captain's matching
        report or confirmation makes it final; a contradicting one is refused."""
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            event = await require_team_event(conn, t)
            if event.system != "esports-swiss":
                raise ConflictError(lazy("In '{tournament}' each board's players report their "
                                         "game (/team report result:win|draw|loss).",
                                         tournament=t.name))
            team, match = await self._captains_match(conn, actor, t, round_number)
            first = team.id == match.white_team_id
            white, black = (my_score, their_score) if first else (their_score, my_score)
            _check_maps(match.best_of, white, black)
            if match.state == "final":
                raise AlreadyFinalError(lazy("The match of round {round} is final.",
                                             round=round_number))
            if match.reported_by_team not in (None, team.id):
                if (match.reported_white, match.reported_black) != (white, black):
                    raise ConflictError(lazy(
                        "The other captain reported {white}-{black}; you disagree, so an "
                        "organiser decides.", white=match.reported_white,
                        black=match.reported_black))
                await self._final_maps(conn, actor, t, match, white, black)
            else:
                await round_repo.report_match(conn, match.id, team.id, white, black)
                await audit(self.ctx, conn, actor, t, "team.match_report", None,
                            {"match": match.id, "score": [white, black]})
            return await match_view(conn, t, round_number, match.id)

    @operation
    async def confirm_match(self, actor: Actor, round_number: int,
                            tournament: TournamentRef = None) -> MatchView:
        """The other captain: confirm the reported score."""
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            await require_team_event(conn, t)
            team, match = await self._captains_match(conn, actor, t, round_number)
            if match.state != "final":
                if match.reported_by_team in (None, team.id):
                    raise ConflictError(lazy("Nothing to confirm: the other captain has not "
                                             "reported the score."))
                await self._final_maps(conn, actor, t, match, match.reported_white or 0,
                                       match.reported_black or 0)
            return await match_view(conn, t, round_number, match.id)

    async def _captains_match(self, conn: Connection, actor: Actor, t: TournamentRow,
                              round_number: int) -> tuple[TeamRow, MatchRow]:
        team = await find_team(conn, t, None, actor.user_id)
        if team.captain_user_id != actor.user_id:
            raise PermissionDeniedError(lazy("Only the captain of {team} reports its matches.",
                                             team=team.name))
        match = next((m for m in await round_repo.list_matches(conn, t.id, round_number)
                      if team.id in (m.white_team_id, m.black_team_id)), None)
        if match is None or match.black_team_id is None:
            raise NotPairedError(lazy("{team} has no match to report in round {round}.",
                                      team=team.name, round=round_number))
        return team, match

    async def _final_maps(self, conn: Connection, actor: Actor, t: TournamentRow,
                          match: MatchRow, white: int, black: int,
                          forfeit: str | None = None) -> None:
        await round_repo.finish_match(conn, match.id, white_score=white, black_score=black,
                                      white_mp=int(white > black), black_mp=int(black > white),
                                      forfeit=forfeit, by=actor.user_id, now=self.ctx.now())
        await audit(self.ctx, conn, actor, t, "team.match_final",
                    {"state": match.state}, {"match": match.id, "score": [white, black],
                                             "forfeit": forfeit})
        await self._settle_round(conn, t, match.round_number)

    @operation
    async def set_team_result(
        self, actor: Actor, round_number: int, team: str, *, board: int | None = None,
        result: str | None = None, my_score: int | None = None, their_score: int | None = None,
        forfeit: bool = False, tournament: TournamentRef = None,
    ) -> MatchView:
        """Organiser: set the result of ``team``'s match in the round: one board (chess,
        ``result`` from White's side: 1-0, 0-1, 1/2, +-, -+, --), the maps (e-sports,
        ``my_score``/``their_score`` seen from ``team``) or ``forfeit``: ``team`` did not
        come (every board lost by forfeit / the match lost)."""
        require_organiser(actor, lazy("set a team result"))
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            event = await require_team_event(conn, t)
            row = await find_team(conn, t, team, actor.user_id)
            match = next((m for m in await round_repo.list_matches(conn, t.id, round_number)
                          if row.id in (m.white_team_id, m.black_team_id)), None)
            if match is None or match.black_team_id is None:
                raise NotPairedError(lazy("{team} has no match in round {round}.",
                                          team=row.name, round=round_number))
            first = row.id == match.white_team_id
            if forfeit:
                await self._organiser_forfeit(conn, actor, t, match, first, event.system)
            elif event.system == "esports-swiss":
                if my_score is None or their_score is None:
                    raise InvalidInputError(lazy("Give both scores (my_score, their_score) or "
                                                 "forfeit."))
                white, black = (my_score, their_score) if first else (their_score, my_score)
                _check_maps(match.best_of, white, black)
                await self._final_maps(conn, actor, t, match, white, black)
            else:
                await self._organiser_board(conn, actor, t, match, board, result)
            return await match_view(conn, t, round_number, match.id)

    async def _organiser_forfeit(self, conn: Connection, actor: Actor, t: TournamentRow,
                                 match: MatchRow, first: bool, system: str) -> None:
        side = "white" if first else "black"
        if system == "esports-swiss":
            win = match.best_of // 2 + 1
            white, black = (0, win) if first else (win, 0)
            await self._final_maps(conn, actor, t, match, white, black, forfeit=side)
            return
        rows = [b for b in await round_repo.list_boards(conn, t.id, match.round_number)
                if b.match_id == match.id]
        for b in rows:  # the absent team loses every board by forfeit
            absent_white = (b.board % 2 == 1) == first
            await round_repo.update_board(conn, match.id, b.board,
                                          result="-+" if absent_white else "+-", state="final")
        await audit(self.ctx, conn, actor, t, "team.forfeit", {"state": match.state},
                    {"match": match.id, "absent": side})
        fresh = next(m for m in await round_repo.list_matches(conn, t.id, match.round_number)
                     if m.id == match.id)
        await self._settle_match(conn, t, fresh, actor.user_id)

    async def _organiser_board(self, conn: Connection, actor: Actor, t: TournamentRow,
                               match: MatchRow, board: int | None, result: str | None) -> None:
        rows = {b.board: b for b in await round_repo.list_boards(conn, t.id, match.round_number)
                if b.match_id == match.id}
        if board not in rows or result not in BOARD_RESULTS:
            raise InvalidInputError(lazy(
                "Give a board from 1 to {boards} and a result from White's side: {results}.",
                boards=len(rows), results=", ".join(BOARD_RESULTS)))
        if match.state == "final":  # a correction: the match and round are settled again
            await round_repo.finish_match(conn, match.id, white_score=0, black_score=0,
                                          white_mp=0, black_mp=0, forfeit=None, by=actor.user_id,
                                          now=self.ctx.now())
        await self._final_board(conn, t, match, rows[board], result, actor)


def _check_maps(best_of: int, white: int, black: int) -> None:
    need = best_of // 2 + 1
    if not (min(white, black) >= 0 and max(white, black) == need and min(white, black) < need):
        raise InvalidInputError(lazy_plural(
            "This match is best of {best_of}: the winner has {n} map, the loser fewer "
            "(e.g. {n}-0).",
            "This match is best of {best_of}: the winner has {n} maps, the loser fewer "
            "(e.g. {n}-0).", need, best_of=best_of))


async def round_view(conn: Connection, t: TournamentRow, round_number: int) -> TeamRoundView:
    event = await require_team_event(conn, t)
    rounds = {r.number: r for r in await round_repo.list_rounds(conn, t.id)}
    matches = [await match_view(conn, t, round_number, m.id)
               for m in await round_repo.list_matches(conn, t.id, round_number)]
    return TeamRoundView(t.id, t.name, event.system, round_number,
                         rounds[round_number].state, tuple(matches))


async def match_view(conn: Connection, t: TournamentRow, round_number: int, match_id: int
                     ) -> MatchView:
    event = await require_team_event(conn, t)
    match = next(m for m in await round_repo.list_matches(conn, t.id, round_number)
                 if m.id == match_id)
    teams = {team.id: team for team in await team_repo.list_teams(conn, t.id)}
    members = {m.id: m for m in await team_repo.list_members(conn, t.id)}
    rows = [b for b in await round_repo.list_boards(conn, t.id, round_number)
            if b.match_id == match_id]
    first = teams[match.white_team_id].name
    second = None if match.black_team_id is None else teams[match.black_team_id].name
    boards = tuple(BoardView(
        b.board, _member(members, b.white_member_id), _member(members, b.black_member_id),
        first if b.board % 2 else second or "", second or "" if b.board % 2 else first,
        b.result, b.state) for b in rows)
    lineups: list[tuple[Any, ...]] = [(), ()]
    for side, team_id in enumerate((match.white_team_id, match.black_team_id)):
        if team_id is not None:
            _, lineup = await team_repo.get_lineup(conn, team_id, round_number)
            lineups[side] = tuple(member_view(members[m]) for _, m in sorted(lineup.items()))
    halves = event.system == "fide-team"
    def score(value: int | None) -> Fraction | None:
        return None if value is None else Fraction(value, 2) if halves else Fraction(value)
    reported = None if match.reported_by_team is None else teams[match.reported_by_team].name
    return MatchView(round_number, match.number, first, second, match.best_of, match.state,
                     score(match.white_score), score(match.black_score), match.white_mp,
                     match.black_mp, match.forfeit, reported, boards, lineups[0], lineups[1])


async def board_view(conn: Connection, t: TournamentRow, round_number: int, match_id: int,
                     board: int) -> BoardView:
    view = await match_view(conn, t, round_number, match_id)
    return next(b for b in view.boards if b.board == board)


def _member(members: dict[int, MemberRow], member_id: int | None) -> Any:
    return None if member_id is None else member_view(members[member_id])


def view_payload(view: TeamRoundView) -> dict[str, Any]:
    """A round as JSON for its announcement."""
    def member(m: Any) -> dict[str, Any] | None:
        return None if m is None else {"user_id": m.user_id, "name": m.name}
    return {"number": view.round_number, "system": view.system, "matches": [
        {"number": m.number, "white": m.white_team, "black": m.black_team,
         "best_of": m.best_of, "state": m.state,
         "score": None if m.white_score is None else [str(m.white_score), str(m.black_score)],
         "forfeit": m.forfeit,
         "boards": [{"board": b.board, "white": member(b.white), "black": member(b.black),
                     "result": b.result} for b in m.boards],
         "lineups": [[member(x) for x in m.white_lineup], [member(x) for x in m.black_lineup]]}
        for m in view.matches]}
