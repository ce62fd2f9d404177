"""Read operations for the pictures and the live web page (issue 16, items 4 and 5).

``crosstable`` is the who-played-whom table; ``web_link`` gives (creating it once) the random
token of an event's read-only web page; ``live_event`` is what that page shows, found by token
only: the web server never resolves a guild or an event id, so nothing can be enumerated.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, replace

from service.base import Context, TournamentRef, audit, find_tournament, info_of, part
from service.errors import ConflictError
from service.model import Snapshot, load_snapshot, settings_of
from service.operation import operation
from service.present import round_view, standings_view
from service.views import (
    Actor,
    CrosstableRowView,
    CrosstableView,
    RoundView,
    StandingsView,
    TournamentInfo,
    format_points,
)
from storage import lichess_games as lichess_game_repo
from storage import rounds as round_repo
from storage import tournaments as tournament_repo
from storage import web as web_repo
from storage.tournaments import TournamentRow
from swiss.model import ByeKind, Result, Scoring

#: Characters of a page token (secrets.token_urlsafe(16): 128 random bits, 22 characters).
TOKEN_BYTES = 16
MAX_TOKEN_LENGTH = 64

# What a cell shows, seen from the player of the row.
_SCORE = {
    (Result.WHITE_WINS, True): "1", (Result.WHITE_WINS, False): "0",
    (Result.BLACK_WINS, True): "0", (Result.BLACK_WINS, False): "1",
    (Result.DRAW, True): "½", (Result.DRAW, False): "½",
    (Result.WHITE_FORFEIT_WIN, True): "+", (Result.WHITE_FORFEIT_WIN, False): "-",
    (Result.BLACK_FORFEIT_WIN, True): "-", (Result.BLACK_FORFEIT_WIN, False): "+",
    (Result.DOUBLE_FORFEIT, True): "-", (Result.DOUBLE_FORFEIT, False): "-",
    (Result.PENDING, True): "…", (Result.PENDING, False): "…",
}


@dataclass(frozen=True, slots=True)
class LiveEventView:
    """Everything the live page shows of one event."""

    info: TournamentInfo
    rounds: tuple[RoundView, ...]
    standings: StandingsView | None
    crosstable: CrosstableView | None
    #: The game's page on Lichess of each board that has one (events on Lichess).
    game_urls: dict[int, str] = field(default_factory=dict)


def crosstable_view(t: TournamentRow, snapshot: Snapshot, standings: StandingsView
                    ) -> CrosstableView:
    """Rows in standings order; each cell names the opponent by start (pairing) number, then
    colour and score (``3w1``: beat start number 3 with white), ``B½`` a bye, ``·`` no game.
    Not by rank: tied players share a rank, a start number is one player's."""
    model = snapshot.tournament
    settings = settings_of(t)
    scoring = Scoring.preset(settings.scoring)
    cells: dict[int, list[str]] = {row.number: ["·"] * standings.after_round
                                   for row in standings.rows}
    for rnd in model.rounds[: standings.after_round]:
        index = rnd.number - 1
        for game in rnd.games:
            for me, other, white in ((game.white, game.black, True),
                                     (game.black, game.white, False)):
                if me not in cells:
                    continue
                colour = ("w" if white else "b") if settings.colours else ""
                score = _SCORE[(game.result, white)]
                cells[me][index] = f"{other}{colour}{score}"
        for bye in rnd.byes:
            if bye.player in cells:
                cells[bye.player][index] = "B" + format_points(scoring.for_bye(ByeKind(bye.kind)))
    return CrosstableView(
        tournament_id=t.id,
        tournament_name=t.name,
        after_round=standings.after_round,
        total_rounds=standings.total_rounds,
        rows=tuple(
            CrosstableRowView(rank=row.rank, number=row.number, name=row.name,
                              user_id=row.user_id, points=row.points,
                              cells=tuple(cells[row.number]), withdrawn=row.withdrawn)
            for row in standings.rows
        ),
        legend=crosstable_legend(colours=settings.colours),
    )


def crosstable_legend(*, colours: bool) -> str:
    """What the cells of :func:`crosstable_view` mean, for the reader of the table."""
    colour = ", colour (w = white, b = black)" if colours else ""
    return (f"#N before a name = start number. Cell = the opponent's start number{colour} "
            "and the score: 1 win, ½ draw, 0 loss, + / - forfeit won / lost, … not final. "
            "B = bye (its points), · = no game.")


def _standings_and_crosstable(
    t: TournamentRow, snapshot: Snapshot
) -> tuple[StandingsView, CrosstableView]:
    """The CPU work of the live page and /crosstable (off the event loop for a big event)."""
    standings = standings_view(t, snapshot, final=t.status == "finished")
    return standings, crosstable_view(t, snapshot, standings)


@part
class Live:
    ctx: Context

    @operation
    async def crosstable(
        self, guild_id: int, tournament: TournamentRef = None
    ) -> CrosstableView:
        """Who played whom in every round so far, with the results, in standings order."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, guild_id, tournament, closed_ok=True)
            snapshot = await load_snapshot(conn, t)
        if not snapshot.tournament.players:
            raise ConflictError(f"'{t.name}' has not started: there is no crosstable yet.")
        return (await self.ctx.pairing.off_loop(len(snapshot.tournament.players),
                                                _standings_and_crosstable, t, snapshot))[1]

    @operation
    async def web_link(self, actor: Actor, tournament: TournamentRef = None) -> str:
        """The token of the event's live page, created (and audited) the first time.

        Anyone of the guild may ask: the page shows what /pairings and /standings already
        show. A token is never reused nor derived from ids (``secrets.token_urlsafe``)."""
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament, closed_ok=True)
            token = await web_repo.get_token(conn, t.id)
            if token is None:
                token = secrets.token_urlsafe(TOKEN_BYTES)
                await web_repo.insert_token(conn, t.id, t.guild_id, token, self.ctx.now())
                await audit(self.ctx, conn, actor, t, "web_page_created")
            return token

    @operation
    async def live_event(self, token: str) -> LiveEventView | None:
        """What the live page of ``token`` shows, or None for an unknown token (the page
        answers 404 and says nothing more). One short read transaction."""
        if not token or len(token) > MAX_TOKEN_LENGTH:
            return None
        async with self.ctx.db.transaction(readonly=True) as conn:
            found = await web_repo.find_by_token(conn, token)
            if found is None:
                return None
            guild_id, tournament_id = found
            t = await tournament_repo.get_tournament(conn, tournament_id)
            if t is None or t.guild_id != guild_id:
                return None
            info = await info_of(conn, t)
            rounds = tuple([await round_view(conn, t, r.number)
                            for r in await round_repo.list_rounds(conn, t.id)])
            snapshot = await load_snapshot(conn, t)
            urls = await lichess_game_repo.game_urls(conn, t.id)
        standings = crosstable = None
        if snapshot.tournament.players:
            standings, crosstable = await self.ctx.pairing.off_loop(
                len(snapshot.tournament.players), _standings_and_crosstable, t, snapshot)
            latest = rounds[-1] if rounds else None
            if (latest is not None and latest.state != "complete" and not standings.final
                    and latest.number == standings.after_round):
                standings = replace(standings, in_play=True)
        return LiveEventView(info=info, rounds=rounds, standings=standings,
                             crosstable=crosstable, game_urls=urls)
