"""Players' requests: a player's own bye request waits (``pending``) until an organiser
approves it; a ``/leave`` after the start, confirmed by the player, waits for an organiser
too. Both are listed by :meth:`Requests.pending_requests` (with the waitlist); each decision
is audited and the player is told (a ``player_notice`` announcement that mentions him).
"""

from __future__ import annotations

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
    player_view,
    seat,
)
from service.errors import (
    ConflictError,
    NotRegisteredError,
    TournamentNotRunningError,
)
from service.operation import operation
from service.permissions import require_organiser
from service.views import (
    Actor,
    ByeRequestView,
    PlayerView,
    RequestsView,
    WaitingView,
)
from storage import players as player_repo
from storage import requests as request_repo
from storage import rounds as round_repo
from swiss.wording import status_phrase

if TYPE_CHECKING:
    from service.entry import Entry
    from service.players import Players


@part
class Requests:
    ctx: Context
    entry: Entry
    players: Players

    @operation
    async def pending_requests(self, actor: Actor,
                               tournament: TournamentRef = None) -> RequestsView:
        """Organisers: the players' bye and leave requests waiting for a decision, and the
        waitlist."""
        require_organiser(actor, lazy("see the requests"))
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            players = {p.id: p for p in await player_repo.list_players(conn, t.id)}
            last = await round_repo.last_round(conn, t.id)
            paired = 0 if last is None else last.number
            byes = tuple(
                ByeRequestView(player=seat(players[r.player_id]), round=r.round_number,
                               kind=r.kind, status="pending")  # type: ignore[arg-type]
                for r in await round_repo.list_bye_requests(conn, t.id)
                # a request for a round paired meanwhile can no longer be decided
                if r.status == "pending" and r.round_number > paired
            )
            leaves = tuple(seat(players[pid])
                           for pid in await request_repo.list_leave_requests(conn, t.id))
            waiting = tuple(
                WaitingView(t.id, t.name, w.user_id, w.name, i)
                for i, w in enumerate(await request_repo.list_waiting(conn, t.id), start=1)
            )
            return RequestsView(t.id, t.name, byes, leaves, waiting)

    @operation
    async def decide_bye_request(
        self, actor: Actor, player: PlayerRef, round_number: int, *, approve: bool,
        tournament: TournamentRef = None,
    ) -> ByeRequestView:
        """Organisers: approve (the bye reaches the pairing) or deny (the request is deleted)
        a player's pending bye request for ``round_number``, which must not be paired yet."""
        require_organiser(actor, lazy("decide bye requests"))
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            row = await find_player(conn, t, player)
            pending = [r for r in await round_repo.list_bye_requests(conn, t.id)
                       if r.player_id == row.id and r.round_number == round_number
                       and r.status == "pending"]
            if not pending:
                raise ConflictError(
                    f"{row.name} has no bye request for round {round_number} waiting for a "
                    "decision (already decided, or withdrawn)."
                )
            last = await round_repo.last_round(conn, t.id)
            if last is not None and round_number <= last.number:
                raise ConflictError(
                    f"Round {round_number} of '{t.name}' is already paired: the request came "
                    "too late."
                )
            kind = pending[0].kind
            if approve:
                await round_repo.approve_bye_request(conn, t.id, row.id, round_number)
            else:
                await round_repo.delete_bye_request(conn, t.id, row.id, round_number)
            verb = "approve" if approve else "deny"
            await audit(self.ctx, conn, actor, t, f"bye.{verb}", {"status": "pending"},
                        {"player": row.id, "round": round_number, "kind": kind})
            outcome = "approved" if approve else "denied"
            await self.entry.notify_member(conn, t, row.user_id,
                                           f"your {kind} bye request for round {round_number} of "
                               f"'{t.name}' was {outcome}.")
            return ByeRequestView(player=seat(row), round=round_number, kind=kind,  # type: ignore[arg-type]
                                  status="approved" if approve else "pending")

    @operation
    async def request_leave(self, actor: Actor, tournament: TournamentRef = None) -> PlayerView:
        """A player, after the start, asks to be dropped (he confirmed with the button); an
        organiser decides. Before the start /leave removes him at once (``leave``)."""
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            if t.status != "running":
                raise TournamentNotRunningError(
                    f"'{t.name}' is "
                    f"{status_phrase(t.status)}: " + ("use /leave, it removes you at once."
                                                     if t.status == "registration" else
                                                     "there is nothing to leave.")
                )
            row = await player_repo.find_member(conn, t.id, actor.user_id)
            if row is None:
                raise NotRegisteredError(f"You are not registered in '{t.name}'.")
            if row.status != "active":
                raise ConflictError(f"You are not playing in '{t.name}' any more.")
            if not await request_repo.add_leave_request(conn, t.id, row.id, self.ctx.now()):
                raise ConflictError(
                    f"You already asked to leave '{t.name}': an organiser will decide."
                )
            await audit(self.ctx, conn, actor, t, "leave.request", None, {"player": row.id})
            return player_view(row)

    @operation
    async def decide_leave_request(
        self, actor: Actor, player: PlayerRef, *, approve: bool,
        tournament: TournamentRef = None,
    ) -> PlayerView:
        """Organisers: approve (the player is dropped from the next round on) or deny."""
        require_organiser(actor, lazy("decide leave requests"))
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            row = await find_player(conn, t, player)
            if not await request_repo.delete_leave_request(conn, t.id, row.id):
                raise ConflictError(
                    f"{row.name} has no leave request waiting for a decision (already "
                    "decided)."
                )
            await audit(self.ctx, conn, actor, t, "leave.approve" if approve else "leave.deny",
                        None, {"player": row.id})
            if approve:
                view = await self.players.withdraw(conn, actor, t, row)
            else:
                view = player_view(row)
            outcome = "approved: you are withdrawn" if approve else "denied: you still play"
            await self.entry.notify_member(conn, t, row.user_id,
                                           f"your request to leave '{t.name}' was {outcome}.")
            return view
