"""A no-show in an event on Lichess (docs/lichess.md#no-shows): the player whose opponent
never came to their game on Lichess claims it, with what Lichess shows as the evidence.

Lichess makes the game of an open challenge only when both players opened their links, so
"the game was never started" is what the games export says of the board's challenge: no game
yet, or one that ended without a move (aborted, no start). Who waited is what Lichess's
real-time status says: the claimant must be online on Lichess when he claims. Then the claim
is the event's usual no-show claim (:meth:`service.timers.Timers.claim_no_show`): the opponent
is pinged and may object during the grace time; otherwise the game is a forfeit win for the
claimant. Organisers settle any dispute with ``/result set``, which always wins.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from i18n import lazy
from service.base import Context, TournamentRef, find_tournament, part
from service.errors import ConflictError, NotRegisteredError
from service.lichess_api import NOT_PLAYED, LichessError
from service.model import settings_of
from service.operation import operation
from service.views import Actor, NoShowView
from storage import lichess as link_repo
from storage import lichess_games as game_repo
from storage import players as player_repo
from storage import rounds as round_repo

if TYPE_CHECKING:
    from service.lichess import LichessAccounts
    from service.timers import Timers

#: Minutes from the pairing before a no-show can be claimed, and then to object, when the
#: event has no no-show setting of its own (/tournament settings noshow_grace_minutes).
LICHESS_NOSHOW_MINUTES = 10


@part
class LichessNoShows:
    ctx: Context
    accounts: LichessAccounts
    timers: Timers

    @operation
    async def lichess_claim_no_show(self, actor: Actor, tournament: TournamentRef = None, *,
                                    round_number: int | None = None) -> NoShowView:
        """The actor's opponent never came to their game on Lichess: claim it (see the
        module's docstring). Refused, changing nothing, when the game started on Lichess,
        when Lichess shows the claimant offline, or when Lichess cannot be reached. In an
        event not played on Lichess, the event's usual claim."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            on_lichess = await link_repo.get_event(conn, t.id) is not None
            me = await player_repo.find_member(conn, t.id, actor.user_id)
            if me is None:
                raise NotRegisteredError(lazy("You are not playing in '{tournament}'.",
                                              tournament=t.name))
            last = await round_repo.last_round(conn, t.id)
            game = None if last is None else await round_repo.game_of_player(
                conn, last.id, me.id)
            links = None if game is None else await game_repo.links_of_game(conn, game.id)
            other_id = None if game is None else (
                game.black_id if game.white_id == me.id else game.white_id)
            other = None if other_id is None else await player_repo.get_player(conn, other_id)
            mine = await link_repo.link_of_member(conn, actor.guild_id, actor.user_id)
            theirs = None if other is None or other.user_id is None else (
                await link_repo.link_of_member(conn, actor.guild_id, other.user_id))
        if not on_lichess:  # the event's own no-show rules
            return await self.timers.record_no_show_claim(actor, t.id, round_number=round_number)
        minutes = settings_of(t).noshow_grace_minutes or LICHESS_NOSHOW_MINUTES
        if game is None or other is None or last is None or (
                self.ctx.now() < last.paired_at + timedelta(minutes=minutes)):
            # no board this round (a bye, not paired), or too early: the usual claim says
            # so, without asking Lichess
            return await self.timers.record_no_show_claim(
                actor, t.id, round_number=round_number, grace_minutes=LICHESS_NOSHOW_MINUTES)
        if links is None or mine is None or theirs is None:
            raise ConflictError(lazy(
                "Board {board} has no game on Lichess yet: wait for its link, open it, and "
                "claim again if your opponent does not come.", board=game.board))
        api = self.accounts.api()
        try:
            found = await api.export_games([links.challenge_id])
            online = await api.users_status([mine.lichess_id, theirs.lichess_id])
        except LichessError as error:
            raise self.accounts.unreachable(error) from None
        status = found[0].status if found else None
        url = links.url_white if game.white_id == me.id else links.url_black
        if status is not None and status not in NOT_PLAYED:
            raise ConflictError(lazy(
                "Both of you joined your game on Lichess (it is {status}): it is played, and its "
                "result is read from Lichess. Ask an organiser if something is wrong.",
                status=status))
        if not online.get(mine.lichess_id, False):
            raise ConflictError(lazy(
                "Lichess shows {username} offline: open your game ({url}), stay on Lichess, and "
                "claim again. A no-show is claimed by the player who is there.",
                username=mine.username, url=url))
        facts: dict[str, Any] = {
            "game": links.challenge_id, "status": status or "not joined",
            "claimant": mine.username, "opponent": theirs.username,
            "opponent_online": bool(online.get(theirs.lichess_id, False))}
        # the undecorated claim: this operation retries as a whole (service.operation)
        return await self.timers.record_no_show_claim(
            actor, t.id, round_number=round_number, facts=facts,
            grace_minutes=LICHESS_NOSHOW_MINUTES)
