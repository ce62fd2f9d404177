"""The Lichess game of each board of an event on Lichess (docs/lichess.md#games).

The bot's worker (``bot.lichess.games``) asks :meth:`lichess_boards_to_create`, makes each
board's open challenge on Lichess (one request at a time) and stores it with
:meth:`store_lichess_game` at once, before anything is posted: a board with a stored game is
never created again, so a restart goes on where the last one stopped. When every board of a
round has its game, the links are announced in the event's channel, once.
"""

from __future__ import annotations

from service.base import ServiceBase
from storage import lichess_games as game_repo
from storage import players as player_repo
from storage import rounds as round_repo
from storage import tournaments as tournament_repo
from storage.lichess_games import BoardToCreate, GameLinks
from storage.shards import ALL_SHARDS, Shards


class LichessGameOps(ServiceBase):
    async def lichess_boards_to_create(self, limit: int = 50, *,
                                       shards: Shards = ALL_SHARDS) -> list[BoardToCreate]:
        """Background: boards of running events on Lichess still without a Lichess game (of
        the guilds of this process's ``shards``: two processes never make the same board)."""
        async with self.db.transaction(readonly=True) as conn:
            return await game_repo.boards_to_create(conn, limit, shards)

    async def store_lichess_game(self, board: BoardToCreate, links: GameLinks) -> bool:
        """Background: keep the board's game (False: it had one, or its round was undone).
        The round's links are announced once all its boards have their games."""
        async with self.db.transaction() as conn:
            if not await game_repo.insert_game(conn, board.tournament_id, links, self.now()):
                return False
            made = await game_repo.games_of_round(conn, board.round_id)
            games = await round_repo.list_games(conn, board.tournament_id, board.round_number)
            if len(made) < len(games) or not await game_repo.mark_announced(
                    conn, board.round_id, self.now()):
                return True
            t = await tournament_repo.get_tournament(conn, board.tournament_id)
            assert t is not None
            players = {p.id: p for p in await player_repo.list_players(conn, t.id)}
            await self._announce(conn, t, "lichess_games", {
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

