"""The Lichess game of each board of an event on Lichess (docs/lichess.md#games), and its
result read from Lichess (docs/lichess.md#results).

The bot's worker (``bot.lichess.games``) asks :meth:`lichess_boards_to_create`, makes each
board's open challenge on Lichess (one request at a time) and stores it with
:meth:`store_lichess_game` at once, before anything is posted: a board with a stored game is
never created again, so a restart goes on where the last one stopped. When every board of a
round has its game, the links are announced in the event's channel, once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from service.base import Context, audit, part
from service.lichess_api import NOT_PLAYED, LichessGame, result_of
from service.operation import operation
from service.views import Actor
from storage import journal
from storage import lichess_games as game_repo
from storage import players as player_repo
from storage import rounds as round_repo
from storage import tournaments as tournament_repo
from storage.connection import Connection
from storage.lichess_games import BoardToCreate, GameLinks, GameToFollow
from storage.shards import ALL_SHARDS, Shards

if TYPE_CHECKING:
    from service.announcer import Announcer
    from service.course import Course
    from service.notify import Notify


@part
class LichessGames:
    ctx: Context
    announcer: Announcer
    course: Course
    notify: Notify

    @operation
    async def lichess_boards_to_create(self, limit: int = 50, *,
                                       shards: Shards = ALL_SHARDS) -> list[BoardToCreate]:
        """Background: boards of running events on Lichess still without a Lichess game (of
        the guilds of this process's ``shards``: two processes never make the same board)."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            return await game_repo.boards_to_create(conn, limit, shards)

    @operation
    async def store_lichess_game(self, board: BoardToCreate, links: GameLinks) -> bool:
        """Background: keep the board's game (False: it had one, or its round was undone).
        The round's links are announced once all its boards have their games."""
        async with self.ctx.db.transaction() as conn:
            if not await game_repo.insert_game(conn, board.tournament_id, links, self.ctx.now()):
                return False
            await self._tell_players(conn, board, links)
            made = await game_repo.games_of_round(conn, board.round_id)
            games = await round_repo.list_games(conn, board.tournament_id, board.round_number)
            if len(made) < len(games) or not await game_repo.mark_announced(
                    conn, board.round_id, self.ctx.now()):
                return True
            t = await tournament_repo.get_tournament(conn, board.tournament_id)
            assert t is not None
            players = {p.id: p for p in await player_repo.list_players(conn, t.id)}
            await self.announcer.announce(conn, t, "lichess_games", {
                "round": board.round_number,
                "boards": [{
                    "board": g.board,
                    "white": players[g.white_id].name, "black": players[g.black_id].name,
                    "white_id": players[g.white_id].user_id,
                    "black_id": players[g.black_id].user_id,
                    "url_white": made[g.id].url_white, "url_black": made[g.id].url_black,
                } for g in sorted(games, key=lambda g: g.board) if g.id in made],
            })
            return True


    async def _tell_players(self, conn: Connection, board: BoardToCreate,
                            links: GameLinks) -> None:
        """In the transaction that stores the game: each player's own colour's link by DM
        (those who opted in), and both links in the board's game thread (after the thread's
        own row in the same channel, so the thread exists when this is delivered)."""
        t = await tournament_repo.get_tournament(conn, board.tournament_id)
        game = await round_repo.get_game(conn, board.game_id)
        if t is None or game is None:
            return
        white = await player_repo.get_player(conn, game.white_id)
        black = await player_repo.get_player(conn, game.black_id)
        if white is None or black is None:
            return
        common = {"round": board.round_number, "board": board.board, "game_id": game.id,
                  "lichess": links.challenge_id}
        for me, other, colour, url in ((white, black, "white", links.url_white),
                                       (black, white, "black", links.url_black)):
            await self.notify.queue_lichess_dm(conn, t, me.user_id, {
                **common, "colour": colour, "opponent": other.name, "url": url})
        channel = await self.notify.thread_channel(conn, t)
        if channel is not None:
            await journal.enqueue(conn, guild_id=t.guild_id, channel_id=channel,
                                  tournament_id=t.id, kind="lichess_thread", payload={
                                      "tournament": {"id": t.id, "name": t.name},
                                      **common, "white": white.name, "black": black.name,
                                      "url_white": links.url_white,
                                      "url_black": links.url_black}, now=self.ctx.now())

    @operation
    async def lichess_games_to_follow(self, limit: int = 300, *,
                                      shards: Shards = ALL_SHARDS) -> list[GameToFollow]:
        """Background: boards whose game on Lichess may have ended (not final here yet)."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            return await game_repo.games_to_follow(conn, limit, shards)

    @operation
    async def record_lichess_game(self, board: GameToFollow, game: LichessGame) -> str:
        """Background: what Lichess says of the board's game. A finished game between the two
        linked accounts, with the paired colours and the event's clock, started after the
        pairing, is the board's final result, recorded as a confirmed report is (audited as
        ``result.lichess``); anything else is told to the organisers once, with the facts,
        and the board waits (``/report``, ``/result set`` still work). Returns what was done:
        ``"recorded"``, ``"waiting"``, ``"told"`` or ``"final"`` (a result was there first:
        an organiser's ``/result set`` always wins)."""
        problem = check_game(board, game)
        result = result_of(game)
        async with self.ctx.db.transaction() as conn:
            t = await tournament_repo.get_tournament(conn, board.tournament_id)
            row = await round_repo.get_game(conn, board.game_id)
            if t is None or row is None or row.state == "final" or t.status != "running":
                return "final"
            if problem is None and result is None:
                return "waiting"  # being played, or not started yet
            if problem is not None:
                if await game_repo.set_problem(conn, board.game_id, problem):
                    await self.announcer.announce(conn, t, "lichess_problem", {
                        "round": row.round_number, "board": row.board,
                        "url": f"https://lichess.org/{game.id}", "problem": problem})
                return "told"
            lichess = Actor(user_id=0, guild_id=t.guild_id, display_name="Lichess")
            await round_repo.set_final_result(conn, row.id, result=result, white_games=None,
                                              black_games=None, user_id=0, now=self.ctx.now())
            await audit(self.ctx, conn, lichess, t, "result.lichess", {"state": row.state},
                        {"game": row.id, "round": row.round_number, "result": result,
                         "lichess": game.id})
            await self.course.after_final(conn, t, row.round_number)  # type: ignore[attr-defined]
            return "recorded"

    @operation
    async def lichess_outage(self, problem: str | None, *,
                             shards: Shards = ALL_SHARDS) -> int:
        """Background: Lichess has not answered the worker for a while (``problem``), or
        answers again (None). The organisers of each running event on Lichess are told once
        when it starts and once when it ends; nothing waits on it but the games and results,
        which the worker catches up. Returns the events told."""
        told = 0
        async with self.ctx.db.transaction() as conn:
            if problem is None:
                ids = await game_repo.close_outages(conn, shards)
            else:
                ids = [tid for tid in await game_repo.running_events(conn, shards)
                       if await game_repo.open_outage(conn, tid, problem, self.ctx.now())]
            for tournament_id in ids:
                t = await tournament_repo.get_tournament(conn, tournament_id)
                if t is not None:
                    await self.announcer.announce(conn, t, "lichess_outage",
                                                  {"problem": problem, "back": problem is None})
                    told += 1
        return told


def check_game(board: GameToFollow, game: LichessGame) -> str | None:
    """Why the game cannot count as the board's (for the organisers), or None."""
    players = {board.white, board.black}
    if game.white_id == board.black and game.black_id == board.white:
        return "the colours are swapped: the paired black played white"
    if {game.white_id, game.black_id} != players:
        return (f"played between {game.white_id or 'anonymous'} and "
                f"{game.black_id or 'anonymous'}, not {board.white} and {board.black}")
    if (game.clock_initial, game.clock_increment) != (board.clock_limit, board.clock_increment):
        return (f"the clock was {game.clock_initial}+{game.clock_increment} s, not "
                f"{board.clock_limit}+{board.clock_increment} s")
    if game.created_at_ms and game.created_at_ms < board.created_at.timestamp() * 1000 - 1000:
        return "the game started before the round was paired"
    if game.status in NOT_PLAYED:
        return ("the game was aborted" if game.status == "aborted"
                else "the game was never started (no first move)")
    return None
