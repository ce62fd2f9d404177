"""The worker that makes each board's Lichess game and reads its result
(service.lichess_games). For the games, it asks the
service for the boards without one, creates their open challenges one request at a time and
stores each at once. It runs every few seconds in the bot; after a restart it simply finds the
boards still without a game. A failure (Lichess down, a 429) stops the pass: the next pass,
a few seconds later, goes on from the same board. For the results, it asks Lichess for the
games of the boards not final yet (300 a request) and hands each to the service, which
records a result or tells the organisers why it does not count."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from service.lichess_api import LichessError
from storage.lichess_games import BoardToCreate, GameLinks

log = logging.getLogger(__name__)

#: Extra rules of the games: a rematch would be a game outside the event.
RULES = ("noRematch",)
#: How long a shutdown waits for the game being made to be stored (a call's budget and more).
STOP_SECONDS = 3.0  # (alongside the outbox's own stop: bot.client.SwissBot.close)
#: Seconds of Lichess not answering before the organisers are told (once).
OUTAGE_NOTICE_SECONDS = 120.0
#: Games asked of Lichess per request (its limit), and followed per pass.
BATCH = 300
FOLLOWED = 10_000


class LichessGames:
    def __init__(self, service: Any, client: Any, *, interval: float = 2.0,
                 shards: Any = None) -> None:
        self.service = service
        self.client = client
        self.interval = interval
        self.shards = shards  # this process's Discord shards (None: every guild)
        self._task: asyncio.Task[None] | None = None
        self._failing: str | None = None  # the problem being logged, once
        self._down_since: float | None = None  # monotonic time of the first failure
        self._told = False
        self.notice_after = OUTAGE_NOTICE_SECONDS
        self._stopping = False

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="lichess-games")

    async def stop(self) -> None:
        """Let the board being made be stored (a call lasts at most the client's budget),
        then stop: a shutdown never leaves a game made on Lichess but not stored here."""
        task, self._task = self._task, None
        self._stopping = True
        if task is not None:
            with contextlib.suppress(TimeoutError, asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(task), STOP_SECONDS)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def run_once(self) -> int:
        """One pass: the games made and stored."""
        made = 0
        while True:
            boards = await (self.service.lichess_boards_to_create(50) if self.shards is None
                            else self.service.lichess_boards_to_create(50, shards=self.shards))
            if not boards:
                return made
            for board in boards:
                if self._stopping:
                    return made
                try:
                    challenge = await self.client.open_challenge(**_challenge_of(board))
                except LichessError as error:
                    await self._down(str(error))
                    return made
                await self._up()
                await self.service.store_lichess_game(board, GameLinks(
                    game_id=board.game_id, challenge_id=challenge.id,
                    url_white=challenge.url_white, url_black=challenge.url_black))
                made += 1

    async def follow_once(self) -> int:
        """One pass over the games being played: the results recorded."""
        recorded = 0
        boards = await (self.service.lichess_games_to_follow(FOLLOWED) if self.shards is None
                        else self.service.lichess_games_to_follow(FOLLOWED, shards=self.shards))
        for start in range(0, len(boards), BATCH):
            if self._stopping:
                return recorded
            batch = boards[start:start + BATCH]
            try:
                games = {g.id: g for g in await self.client.export_games(
                    [b.challenge_id for b in batch])}
            except LichessError as error:
                await self._down(str(error))
                return recorded
            await self._up()
            for board in batch:
                game = games.get(board.challenge_id)
                if game is not None and await self.service.record_lichess_game(
                        board, game) == "recorded":
                    recorded += 1
        return recorded

    async def _down(self, problem: str) -> None:
        if self._failing != problem:
            log.warning("Lichess games and results wait: %s", problem)
            self._failing = problem
        now = time.monotonic()
        if self._down_since is None:
            self._down_since = now
        if not self._told and now - self._down_since >= self.notice_after:
            await self._outage(problem)
            self._told = True

    async def _up(self) -> None:
        self._failing = None
        self._down_since = None
        if self._told:
            await self._outage(None)
            self._told = False

    async def _outage(self, problem: str | None) -> None:
        if self.shards is None:
            await self.service.lichess_outage(problem)
        else:
            await self.service.lichess_outage(problem, shards=self.shards)

    async def _run(self) -> None:
        while not self._stopping:
            try:
                await self.run_once()
                if not self._stopping:
                    await self.follow_once()
            except Exception:  # a database hiccup: the next pass tries again
                log.exception("the Lichess games pass failed")
            if not self._stopping:
                await asyncio.sleep(self.interval)


def _challenge_of(board: BoardToCreate) -> dict[str, Any]:
    return {
        "white": board.white, "black": board.black, "limit": board.clock_limit,
        "increment": board.clock_increment, "rated": board.rated,
        "name": f"{board.tournament_name[:20]} R{board.round_number} B{board.board}",
        "expires_at_ms": None if board.deadline is None
        else int(board.deadline.timestamp() * 1000),
        "rules": RULES,
    }
