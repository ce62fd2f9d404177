"""The event's games as one PGN file (``/tournament export format:pgn``; docs/lichess.md#pgn).

Every board of every round, Swiss and playoff, with swissbot's tags: Event (the event's
name), Round (``round.board``), White, Black, Result (swissbot's, so an organiser's
``/result set`` wins over Lichess), Site (the game's page on Lichess). The moves, the date
and the time control come from Lichess for the finished games of an event played there
(``POST /api/games/export/_ids`` in PGN, 300 games a request, one request at a time through
the bot's client); a game not on Lichess, or whose moves Lichess could not give now, is its
tags and result alone, and the file's note says how many.

A finished game's moves never change: they are kept in memory once fetched, so a second
export of the event asks Lichess only for the games finished since.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from i18n import lazy, render
from service.base import Context, TournamentRef, find_tournament, part
from service.lichess_api import LichessError
from service.operation import operation
from service.present import round_view
from service.views import ExportFile
from storage import lichess_games as game_repo
from storage import rounds as round_repo
from swiss.pgn import BoardGame, PgnGame, event_pgn, read_games

if TYPE_CHECKING:
    from service.lichess import LichessAccounts

#: Games per request (Lichess's limit), and the finished games' moves kept in memory.
PGN_BATCH = 300
KEPT_GAMES = 50_000


@part
class LichessPgn:
    ctx: Context
    accounts: LichessAccounts

    def __post_init__(self) -> None:
        self._moves: dict[str, PgnGame] = {}

    @operation
    async def export_pgn(self, guild_id: int, tournament: TournamentRef = None) -> ExportFile:
        """Every game of the event as one PGN file (see the module's docstring)."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, guild_id, tournament, closed_ok=True)
            rounds = [await round_view(conn, t, r.number)
                      for r in await round_repo.list_rounds(conn, t.id)]
            urls = await game_repo.game_urls(conn, t.id)
        lichess_ids = {game_id: url.rsplit("/", 1)[-1] for game_id, url in urls.items()}
        finished = [lichess_ids[g.id] for r in rounds for g in r.games
                    if g.id in lichess_ids and g.state == "final"]
        missing = [i for i in finished if i not in self._moves]
        failed = await self._fetch(missing) if missing else 0
        games = [BoardGame(r.number, g.board, g.white.name, g.black.name, g.result,
                           site=urls.get(g.id),
                           moves=self._moves.get(lichess_ids.get(g.id, "")))
                 for r in rounds for g in r.games]
        # the note answers the member who exported: put into words in his language now
        note = render(lazy("The moves of {n} game(s) could not be read from Lichess now: they "
                           "have their result only. Export again later.", n=failed)) \
            if failed else ""
        slug = re.sub(r"[^a-z0-9]+", "-", t.name.lower()).strip("-") or "tournament"
        # tens of thousands of games are a noticeable moment of string work: a big event's
        # file is written off the event loop, as the other exports are
        players = 2 * max((len(r.games) for r in rounds), default=0)
        text = await self.ctx.pairing.off_loop(players, event_pgn, t.name, games)
        return ExportFile(f"{slug}.pgn", text, "application/x-chess-pgn", note=note)

    async def _fetch(self, ids: list[str]) -> int:
        """Read the games' PGN from Lichess into the memory; returns how many are missing
        (Lichess down: the export goes on with their results only)."""
        if self.accounts.lichess is None:
            return len(ids)
        got = 0
        for start in range(0, len(ids), PGN_BATCH):
            batch = ids[start:start + PGN_BATCH]
            try:
                text = await self.accounts.lichess.export_pgn(batch)
            except LichessError:
                break
            for game in read_games(text):
                game_id = game.tags.get("Site", "").rsplit("/", 1)[-1]
                if game_id in batch and game.tags.get("Result", "*") != "*":
                    self._keep(game_id, game)
                    got += 1
        return len(ids) - got

    def _keep(self, game_id: str, game: PgnGame) -> None:
        if len(self._moves) >= KEPT_GAMES:
            self._moves.pop(next(iter(self._moves)))  # the oldest first
        self._moves[game_id] = game
