"""Results: a player reports, the opponent confirms or disputes, an organiser sets or corrects;
standings are computed by the pure core from what is stored."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from i18n import lazy
from service.base import (
    Context,
    PlayerRef,
    TournamentRef,
    audit,
    find_player,
    find_tournament,
    part,
    require_not_pairing,
)
from service.course import require_round_of
from service.errors import (
    AlreadyFinalError,
    AlreadyReportedError,
    ConflictError,
    InvalidInputError,
    NotPairedError,
    NotRegisteredError,
    NotYourGameError,
    TournamentNotRunningError,
    UnknownGameError,
    UnknownRoundError,
)
from service.limits import MAX_GAMES_IN_MATCH, MIN_GAMES_IN_MATCH
from service.model import SnapshotRows, build_snapshot, read_snapshot
from service.operation import operation
from service.permissions import require_organiser
from service.playoff_state import load_bracket
from service.playoffs import check_knockout_result
from service.present import (
    standings_view,
    stored_game_view,
    with_placings,
)
from service.validation import check_choice, check_range
from service.views import (
    Actor,
    GameView,
    ReportOutcome,
    StandingsView,
)
from storage import notify as notify_repo
from storage import players as player_repo
from storage import rounds as round_repo
from storage import tournaments as tournament_repo
from storage.connection import Connection
from storage.players import PlayerRow
from storage.rounds import GameRow
from storage.tournaments import TournamentRow
from swiss.model import Result
from swiss.wording import plural, status_phrase

if TYPE_CHECKING:
    from service.announcer import Announcer
    from service.course import Course
    from service.deferred import DeferredPosts
    from service.notify import Notify

PLAYER_CHOICES = ("win", "draw", "loss", "forfeit_win", "forfeit_loss")
ORGANISER_CHOICES = (*PLAYER_CHOICES, "double_forfeit")

_AS_WHITE = {
    "win": Result.WHITE_WINS,
    "loss": Result.BLACK_WINS,
    "draw": Result.DRAW,
    "forfeit_win": Result.WHITE_FORFEIT_WIN,
    "forfeit_loss": Result.BLACK_FORFEIT_WIN,
    "double_forfeit": Result.DOUBLE_FORFEIT,
}
_MIRROR = {
    Result.WHITE_WINS: Result.BLACK_WINS,
    Result.BLACK_WINS: Result.WHITE_WINS,
    Result.DRAW: Result.DRAW,
    Result.WHITE_FORFEIT_WIN: Result.BLACK_FORFEIT_WIN,
    Result.BLACK_FORFEIT_WIN: Result.WHITE_FORFEIT_WIN,
    Result.DOUBLE_FORFEIT: Result.DOUBLE_FORFEIT,
}


def result_for(
    choice: str,
    *,
    as_white: bool,
    my_games: int | None,
    their_games: int | None,
    choices: tuple[str, ...] = PLAYER_CHOICES,
) -> tuple[Result, int | None, int | None]:

    """Turn "win/draw/loss..." seen by one side (and its game score) into the result seen from
    white, with white's and black's game wins."""
    key = check_choice(choice, what="result", choices=choices)
    if (my_games is None) != (their_games is None):
        raise InvalidInputError("Give both game scores (yours and your opponent's) or neither.")
    if my_games is not None and their_games is not None:
        check_range(my_games, what="number of games you won", low=MIN_GAMES_IN_MATCH,
                    high=MAX_GAMES_IN_MATCH)
        check_range(their_games, what="number of games your opponent won",
                    low=MIN_GAMES_IN_MATCH,
                    high=MAX_GAMES_IN_MATCH)
        if key in ("forfeit_win", "forfeit_loss", "double_forfeit"):
            raise InvalidInputError("A forfeit has no game score: leave the game scores out.")
        expected = {"win": my_games > their_games, "loss": my_games < their_games,
                    "draw": my_games == their_games}[key]
        if not expected:
            raise InvalidInputError(
                f"The game score {my_games}-{their_games} does not match a {key}: check it."
            )
    result = _AS_WHITE[key] if as_white else _MIRROR[_AS_WHITE[key]]
    if as_white:
        return result, my_games, their_games
    return result, their_games, my_games


@part
class Results:
    """Reports, confirmations, disputes, organiser results and standings."""

    ctx: Context
    announcer: Announcer
    deferred: DeferredPosts
    course: Course
    notify: Notify


    @operation
    async def report_result(
        self,
        actor: Actor,
        result: str,
        *,
        tournament: TournamentRef = None,
        my_games: int | None = None,
        their_games: int | None = None,
        round_number: int | None = None,
    ) -> ReportOutcome:
        """A player reports his own game of the current round (win / draw / loss, or a forfeit,
        with the game score when matches count games).

        The first report waits for the opponent (``awaiting_confirmation``); the opponent's
        matching report makes it final, a contradicting one makes it ``disputed`` and queues a
        ``dispute`` announcement for the organisers.

        ``round_number`` (the round the report is for, e.g. a button on a game's message):
        refused if the player's current game is of another round, since the report was meant
        for the game he had then, not for the current round's.
        """
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            _require_playing(t)
            await require_not_pairing(self.ctx, conn, t, "your report was not recorded")
            me = await _me(conn, t, actor)
            game = await self.current_game_of(conn, t, me)
            require_round_of(
                t, game.round_number, round_number, refused="your report was not recorded",
                hint="If it is for the current round, report again; if it was for the round "
                "before, ask an organiser to set it with /result set.",
            )
            as_white = game.white_id == me.id
            value, white_games, black_games = result_for(
                result, as_white=as_white, my_games=my_games, their_games=their_games
            )
            await _check_knockout(conn, t, game, value, white_games, black_games)
            now = self.ctx.now()
            if game.state == "final":
                raise AlreadyFinalError(
                    f"The result of board {game.board} is already final "
                    f"({_text(game.result)}): ask an organiser to correct it."
                )
            if game.state == "disputed":
                raise AlreadyReportedError(
                    f"The result of board {game.board} is disputed: an organiser will decide."
                )
            if game.state == "pending":
                if not await round_repo.record_report(
                    conn, game.id, result=value.value, white_games=white_games,
                    black_games=black_games, reporter=me.id, now=now,
                ):
                    raise AlreadyReportedError("Your opponent reported at the same moment: "
                                               "check the report and confirm or dispute it.")
                await audit(self.ctx, conn, actor, t, "result.report", None,
                            {"game": game.id, "result": value.value, "by": me.id})
                return await self._outcome(conn, t, game.id, me.id, "awaiting_confirmation")
            # state == "reported"
            same = (
                game.reported_result == value.value
                and (white_games is None or (game.reported_white_games, game.reported_black_games)
                     == (white_games, black_games))
            )
            if game.reported_by == me.id:
                if same:
                    # The same report again: nothing changes, and the reporter gets the
                    # Confirm / Dispute prompt again. Mostly the first answer never arrived
                    # (the bot was restarted between recording the report and posting the
                    # prompt): without it the opponent would have no buttons to click.
                    fresh = await stored_game_view(conn, t, game.id)
                    return _outcome_of(fresh, me.id, "awaiting_confirmation", False, False)
                raise AlreadyReportedError(
                    f"You already reported {_text(game.reported_result)} for board {game.board}: "
                    "wait for your opponent to confirm, or ask an organiser to change it."
                )
            if same:
                return await self._confirm(conn, actor, t, game, me)
            await round_repo.record_dispute(conn, game.id, disputer=me.id, result=value.value,
                                            now=now)
            return await self._disputed(conn, actor, t, game, me, value.value)

    @operation
    async def confirm_result(self, actor: Actor, game_id: int) -> ReportOutcome:
        """The opponent of the reporter confirms (the Confirm button: ``game_id``), or an
        organiser does for him (recorded as an organiser action). A double click or two
        concurrent clicks record the result once; the second is refused."""
        async with self.ctx.db.transaction() as conn:
            t, game, me = await self._answerable(conn, actor, game_id)
            return await self._confirm(conn, actor, t, game, me)

    @operation
    async def dispute_result(self, actor: Actor, game_id: int) -> ReportOutcome:
        """The opponent of the reporter disputes (the Dispute button), or an organiser does
        (recorded as an organiser action): the organisers decide with ``set_result``."""
        async with self.ctx.db.transaction() as conn:
            t, game, me = await self._answerable(conn, actor, game_id)
            if not await round_repo.record_dispute(
                conn, game.id, disputer=None if me is None else me.id, result=None,
                now=self.ctx.now(),
            ):
                raise AlreadyFinalError("This result was settled a moment ago.")
            return await self._disputed(conn, actor, t, game, me, None)

    @operation
    async def set_result(
        self,
        actor: Actor,
        round_number: int,
        player: PlayerRef,
        result: str,
        *,
        tournament: TournamentRef = None,
        my_games: int | None = None,
        their_games: int | None = None,
    ) -> ReportOutcome:
        """Organiser: set or correct the result of ``player``'s game in any round (``result``
        seen by ``player``). It is final at once; standings follow. A correction in a
        complete round queues ``result_corrected`` with the new standings."""
        require_organiser(actor, lazy("set results"))
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament, closed_ok=True)
            if t.status not in ("running", "finished"):
                raise TournamentNotRunningError(
                    f"'{t.name}' is {status_phrase(t.status)}: its results cannot change."
                )
            await require_not_pairing(self.ctx, conn, t, "the result was not set")
            row = await find_player(conn, t, player)
            rnd = await round_repo.get_round(conn, t.id, round_number)
            if rnd is None:
                raise UnknownRoundError(f"'{t.name}' has no round {round_number}.")
            game = await round_repo.game_of_player(conn, rnd.id, row.id)
            if game is None:
                raise NotPairedError(
                    f"{row.name} has no game in round {rnd.number} of '{t.name}' (a bye or "
                    "absent): there is no result to set."
                )
            value, white_games, black_games = result_for(
                result, as_white=game.white_id == row.id, my_games=my_games,
                their_games=their_games, choices=ORGANISER_CHOICES,
            )
            await _check_knockout(conn, t, game, value, white_games, black_games)
            before = {"result": game.result, "state": game.state,
                      "games": [game.white_games, game.black_games]}
            await round_repo.set_final_result(conn, game.id, result=value.value,
                                              white_games=white_games, black_games=black_games,
                                              user_id=actor.user_id, now=self.ctx.now())
            await audit(self.ctx, conn, actor, t, "result.set", before,
                        {"game": game.id, "round": rnd.number, "result": value.value,
                         "games": [white_games, black_games]})
            changed = (game.result, game.white_games, game.black_games) != (
                value.value, white_games, black_games)
            # reported or disputed, or a final result changed: the players hear it (a second
            # click setting the same result again tells nobody twice)
            if game.state in ("reported", "disputed") or (game.state == "final" and changed):
                await self._tell_players(conn, t, game, actor)
            if rnd.state == "complete":
                fresh = await stored_game_view(conn, t, game.id)
                if changed:  # the standings: after the commit for a big event
                    await self.deferred.announce_standings(conn, t, "result_corrected", {
                        "round": rnd.number, "game": _game_payload(fresh),
                        "previous_result": game.result, "by": actor.display_name,
                    }, final=t.status == "finished", placings=True, key="standings")
                return _outcome_of(fresh, row.id, "final", False, False)
            completed, finished = await self.course.after_final(conn, t, rnd.number)
            fresh = await stored_game_view(conn, t, game.id)
            return _outcome_of(fresh, row.id, "final", completed, finished)

    async def _tell_players(self, conn: Connection, t: TournamentRow, game: GameRow,
                            actor: Actor) -> None:
        """An organiser decided a game its players had reported (or disputed): a public note
        in the game's thread (the event's channel without one) pings both and says who set
        what, through the outbox like every post (once, and after a restart)."""
        fresh = await stored_game_view(conn, t, game.id)
        thread = await notify_repo.get_thread(conn, game.id)
        place = thread.thread_id if thread is not None and not thread.archived else None
        await self.announcer.announce(conn, t, "result_settled", {
            "game": _game_payload(fresh), "was": game.state, "by": actor.display_name,
            "reported_result": game.reported_result, "reported_by": game.reported_by,
            "disputed_result": game.disputed_result, "previous_result": game.result,
        }, channel_id=place)

    @operation
    async def get_game(self, guild_id: int, game_id: int) -> GameView:
        """One game (for the Confirm / Dispute buttons), only inside its own guild."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            game = await round_repo.get_game(conn, game_id)
            t = None if game is None else await tournament_repo.get_tournament(
                conn, game.tournament_id)
            if game is None or t is None or t.guild_id != guild_id:
                raise UnknownGameError("This game does not exist in this server.")
            return await stored_game_view(conn, t, game_id)

    @operation
    async def standings(
        self, guild_id: int, tournament: TournamentRef = None, round_number: int | None = None
    ) -> StandingsView:
        """Standings after ``round_number`` (default: every round so far), with the
        tournament's tiebreaks, computed by swiss.standings."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, guild_id, tournament, closed_ok=True)
            last = await round_repo.last_round(conn, t.id)
            played = 0 if last is None else last.number
            state = await load_bracket(conn, t.id)
            if state is not None:  # the standings are the Swiss's; the bracket has placings
                played = min(played, state.playoffs.swiss_rounds)
            if round_number is not None and not 0 <= round_number <= played:
                raise InvalidInputError(
                    f"'{t.name}' has {plural(played, 'round')}: choose a round from 0 to "
                    f"{played}."
                )
            final = t.status == "finished" and round_number in (None, played)
            in_play = (last is not None and last.state != "complete" and not final
                       and round_number in (None, last.number) and last.number == played)
            rows = await read_snapshot(conn, t)
        # computed after the read transaction, off the event loop for a big event (the
        # model built from the rows there too: 3,000 players' rows are ~50 ms of Python)
        view = await self.ctx.pairing.off_loop(len(rows.players), _standings_of, t, rows,
                                               round_number, final)
        if in_play:
            view = replace(view, in_play=True)
        return with_placings(view, state, round_number)

    # -- helpers ---------------------------------------------------------------------------------
    async def current_game_of(
        self, conn: Connection, t: TournamentRow, me: PlayerRow
    ) -> GameRow:
        last = await round_repo.last_round(conn, t.id)
        if last is None:
            raise NotPairedError(lazy("'{tournament}' has not paired a round yet.",
                                      tournament=t.name))
        game = await round_repo.game_of_player(conn, last.id, me.id)
        if game is None:
            byes = [b for b in await round_repo.list_byes(conn, t.id, last.number)
                    if b.player_id == me.id]
            if byes:
                raise NotPairedError(lazy(
                    "You have a bye in round {round}: there is nothing to report.",
                    round=last.number))
            raise NotPairedError(lazy("You are not paired in round {round} of '{tournament}'.",
                                      round=last.number, tournament=t.name))
        return game

    async def _answerable(
        self, conn: Connection, actor: Actor, game_id: int
    ) -> tuple[TournamentRow, GameRow, PlayerRow | None]:
        """The game a Confirm / Dispute click answers, and who answers: the reporter's opponent
        (his player row), or ``None`` for an organiser answering for him (an organiser who
        is not the opponent, a guest's game, or an organiser who reported it himself)."""
        game = await round_repo.get_game(conn, game_id)
        t = None if game is None else await tournament_repo.get_tournament(
            conn, game.tournament_id)
        if game is not None and t is not None:
            # read again now that the tournament is ours (PostgreSQL locks it in
            # get_tournament): a concurrent click may have answered in between
            game = await round_repo.get_game(conn, game_id)
        if game is None or t is None or t.guild_id != actor.guild_id:
            # a prompt's game disappears when its round is undone: say so, not "unknown"
            raise UnknownGameError("This game does not exist in this server (any more: its "
                                   "round may have been undone); there is nothing to answer.")
        _require_playing(t)
        await require_not_pairing(self.ctx, conn, t, "this answer was not recorded")
        me = await player_repo.find_member(conn, t.id, actor.user_id)
        if me is not None and me.id not in (game.white_id, game.black_id):
            me = None
        if me is None and not actor.is_organiser:
            raise NotYourGameError(
                "This is not your game: only the opponent of the reporter or an organiser "
                "can answer."
            )
        if game.state == "final":
            raise AlreadyFinalError(
                f"The result of board {game.board} is already final ({_text(game.result)})."
            )
        if game.state == "pending":
            raise ConflictError(
                f"Nothing to answer yet: no result has been reported for board {game.board}."
            )
        if game.state == "disputed":
            raise AlreadyReportedError(
                f"The result of board {game.board} is disputed: an organiser will decide."
            )
        if me is not None and game.reported_by == me.id:
            if not actor.is_organiser:
                raise NotYourGameError(
                    "You reported this result yourself: your opponent (or an organiser) must "
                    "confirm it."
                )
            me = None  # an organiser's own game: he answers as an organiser, on the record
        return t, game, me

    async def _confirm(
        self, conn: Connection, actor: Actor, t: TournamentRow, game: GameRow,
        me: PlayerRow | None,
    ) -> ReportOutcome:
        """``me``: the confirming opponent, or None for an organiser."""
        organiser = None if me is not None else actor.user_id
        if not await round_repo.confirm_report(
            conn, game.id, confirmer=None if me is None else me.id, now=self.ctx.now(),
            organiser_user=organiser,
        ):
            raise AlreadyFinalError(
                f"The result of board {game.board} was already recorded a moment ago."
            )
        if me is None:
            await audit(self.ctx, conn, actor, t, "result.confirm_by_organiser",
                        {"state": "reported"},
                              {"game": game.id, "result": game.reported_result,
                               "organiser": actor.user_id})
        else:
            await audit(self.ctx, conn, actor, t, "result.confirm", {"state": "reported"},
                        {"game": game.id, "result": game.reported_result, "by": me.id})
        completed, finished = await self.course.after_final(conn, t, game.round_number)
        fresh = await stored_game_view(conn, t, game.id)
        reporter = game.reported_by
        if reporter is None:  # a report always names its reporter; keep a sane fallback
            reporter = game.white_id if me is None else me.id
        return _outcome_of(fresh, reporter, "final", completed, finished)

    async def _disputed(
        self, conn: Connection, actor: Actor, t: TournamentRow, game: GameRow,
        me: PlayerRow | None, claimed: str | None,
    ) -> ReportOutcome:
        """``me``: the disputing player, or None for an organiser (Dispute button)."""
        fresh = await stored_game_view(conn, t, game.id)
        if me is None:
            by = {"player_id": None, "name": actor.display_name, "user_id": actor.user_id,
                  "organiser": True}
        else:
            by = {"player_id": me.id, "name": me.name, "user_id": me.user_id}
        await self.announcer.announce(conn, t, "dispute", {
            "round": game.round_number, "game": _game_payload(fresh),
            "reported_result": game.reported_result, "disputed_result": claimed,
            "disputed_by": by,
            "hint": "An organiser decides with /result set.",
        })
        if me is None:
            await audit(self.ctx, conn, actor, t, "result.dispute_by_organiser",
                        {"result": game.reported_result},
                        {"game": game.id, "claimed": claimed, "organiser": actor.user_id})
        else:
            await audit(self.ctx, conn, actor, t, "result.dispute",
                        {"result": game.reported_result},
                              {"game": game.id, "claimed": claimed, "by": me.id})
        reporter = game.reported_by if game.reported_by is not None else game.white_id
        # seen from the side that answered: the reporter's opponent
        answering = me.id if me is not None else (
            game.black_id if reporter == game.white_id else game.white_id)
        return _outcome_of(fresh, answering, "disputed", False, False)

    async def _outcome(
        self, conn: Connection, t: TournamentRow, game_id: int, reporter: int,
        status: str,
    ) -> ReportOutcome:
        """What a first report answers; the opponent's Confirm / Dispute DM goes with it."""
        fresh = await stored_game_view(conn, t, game_id)
        outcome = _outcome_of(fresh, reporter, status, False, False)
        await self.notify.reported(conn, t, outcome, status)
        return outcome



def _outcome_of(
    game: GameView, reporter: int, status: str, completed: bool, finished: bool
) -> ReportOutcome:
    mine, other = (game.white, game.black) if game.white.player_id == reporter else (
        game.black, game.white)
    return ReportOutcome(game=game, status=status, reporter=mine, opponent=other,  # type: ignore[arg-type]
                         round_complete=completed, tournament_finished=finished)


async def _check_knockout(
    conn: Connection, t: TournamentRow, game: GameRow, value: Result,
    white_games: int | None, black_games: int | None,
) -> None:
    """A playoff match needs a winner with a match-ending score; and once the next playoff
    round is paired, a correction may not change who went through (undo that round first)."""
    state = await load_bracket(conn, t.id)
    if state is None or game.round_number <= state.playoffs.swiss_rounds:
        return
    check_knockout_result(state, value, white_games, black_games)
    last = await round_repo.last_round(conn, t.id)
    if game.state == "final" and last is not None and last.number > game.round_number:
        white_won = game.result in (Result.WHITE_WINS.value, Result.WHITE_FORFEIT_WIN.value)
        now_white = value in (Result.WHITE_WINS, Result.WHITE_FORFEIT_WIN)
        if white_won != now_white:
            raise ConflictError(
                f"Round {last.number} of '{t.name}' is already paired with the winner of this "
                f"match: undo round {last.number} first (/round undo), then change the result."
            )


async def _me(conn: Connection, t: TournamentRow, actor: Actor) -> PlayerRow:
    me = await player_repo.find_member(conn, t.id, actor.user_id)
    if me is None or me.status == "no_show":
        raise NotRegisteredError(lazy("You are not playing in '{tournament}'.",
                                      tournament=t.name))
    return me


def _require_playing(t: TournamentRow) -> None:
    if t.status != "running":
        raise TournamentNotRunningError(
            f"'{t.name}' is not running (it is "
            f"{status_phrase(t.status)}): results cannot be reported now."
            + (" Ask an organiser for a correction." if t.status == "finished" else "")
        )


def _text(result: str | None) -> str:
    return {"1/2-1/2": "½-½", None: "nothing"}.get(result, result or "")  # type: ignore[arg-type]


def _game_payload(game: GameView) -> dict[str, object]:
    from service.present import to_jsonable

    body = to_jsonable(game)
    body["result_text"] = game.result_text
    return body


def _standings_of(t: TournamentRow, rows: SnapshotRows, after_round: int | None,
                  final: bool) -> StandingsView:
    return standings_view(t, build_snapshot(t, rows), after_round=after_round, final=final)
