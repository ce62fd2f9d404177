"""Entry: capacity with a waitlist, a required Discord role, a rating range, registration and
check-in windows, the check-in reminder. The capacity check, the waitlist insert and the
promotion that follows a leave all run inside one ``BEGIN IMMEDIATE`` transaction each, so
concurrent joins and leaves are serialised by SQLite: the capacity is never exceeded.
Players' requests (a bye, a leave after the start) are ``service.requests``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from service.base import (
    Context,
    TournamentRef,
    audit,
    find_tournament,
    part,
)
from service.course import system_actor
from service.errors import (
    ConflictError,
    InvalidInputError,
    NotRegisteredError,
    PermissionDeniedError,
    RegistrationClosedError,
)
from service.model import settings_of
from service.operation import operation
from service.views import (
    Actor,
    TournamentSettings,
    WaitingView,
)
from storage import players as player_repo
from storage import requests as request_repo
from storage import tournaments as tournament_repo
from storage.connection import Connection
from storage.shards import ALL_SHARDS, Shards
from storage.tournaments import TournamentRow

if TYPE_CHECKING:
    from service.announcer import Announcer



def _window_time(value: str) -> datetime:
    moment = datetime.fromisoformat(value)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def window_refusal(opens: str | None, closes: str | None, now: datetime,
                   what: str) -> str | None:
    """Why ``now`` is outside the window (None: inside)."""
    if opens is not None and now < _window_time(opens):
        return f"{what} opens at <t:{int(_window_time(opens).timestamp())}:F>"
    if closes is not None and now >= _window_time(closes):
        return f"{what} closed at <t:{int(_window_time(closes).timestamp())}:F>"
    return None


def check_entry_conditions(actor: Actor, t: TournamentRow, settings: TournamentSettings,
                           rating: int | None, now: datetime) -> None:
    """A member's own join: the registration window, the required role, the rating range.
    Organisers adding someone vouch for him and skip these."""
    if t.status == "registration":
        why = window_refusal(settings.registration_opens, settings.registration_closes, now,
                             "registration")
        if why:
            raise RegistrationClosedError(f"Registration for '{t.name}' is closed: {why}.")
    if settings.required_role_id is not None and settings.required_role_id not in actor.roles:
        raise PermissionDeniedError(
            f"Joining '{t.name}' needs the <@&{settings.required_role_id}> role. Ask an "
            "organiser."
        )
    low, high = settings.min_rating, settings.max_rating
    if low is not None or high is not None:
        if rating is None:
            raise InvalidInputError(
                f"'{t.name}' is for ratings {low if low is not None else 0} to "
                f"{high if high is not None else 'any'}: give your rating with the rating "
                "option."
            )
        if (low is not None and rating < low) or (high is not None and rating > high):
            raise PermissionDeniedError(
                f"'{t.name}' is for ratings {low if low is not None else 0} to "
                f"{high if high is not None else 'any'}; yours is {rating}."
            )


@part
class Entry:
    ctx: Context
    announcer: Announcer

    async def _admitted(self, conn: Connection, t: TournamentRow) -> int:
        return sum(1 for p in await player_repo.list_players(conn, t.id)
                   if p.status in ("registered", "active"))

    async def is_full(self, conn: Connection, t: TournamentRow) -> bool:
        capacity = settings_of(t).capacity
        return capacity is not None and await self._admitted(conn, t) >= capacity

    async def join_waitlist(self, conn: Connection, actor: Actor, t: TournamentRow,
                             name: str, rating: int) -> WaitingView:
        if not await request_repo.add_waiting(conn, tournament_id=t.id, user_id=actor.user_id,
                                              name=name, rating=rating, now=self.ctx.now()):
            raise ConflictError(await self.position_text(conn, t, actor.user_id))
        position = await self._position(conn, t, actor.user_id)
        await audit(self.ctx, conn, actor, t, "waitlist.join", None,
                    {"user": actor.user_id, "name": name, "position": position})
        return WaitingView(tournament_id=t.id, tournament_name=t.name, user_id=actor.user_id,
                           name=name, position=position)

    async def _position(self, conn: Connection, t: TournamentRow, user_id: int) -> int:
        waiting = await request_repo.list_waiting(conn, t.id)
        return next(i for i, w in enumerate(waiting, start=1) if w.user_id == user_id)

    async def position_text(self, conn: Connection, t: TournamentRow,
                             user_id: int) -> str:
        return (f"You are already on the waitlist of '{t.name}' (position "
                f"{await self._position(conn, t, user_id)}).")

    async def promote(self, conn: Connection, actor: Actor, t: TournamentRow) -> None:
        """Fill free places from the waitlist, first come first served (before the start).
        Runs in the transaction that freed the place, so a join racing it sees the place
        taken: the capacity is never exceeded."""
        if t.status != "registration":
            return
        while not await self.is_full(conn, t):
            waiting = await request_repo.list_waiting(conn, t.id)
            if not waiting:
                return
            first = waiting[0]
            await request_repo.remove_waiting(conn, t.id, first.user_id)
            pid = await player_repo.insert_player(
                conn, tournament_id=t.id, user_id=first.user_id, name=first.name,
                rating=first.rating, now=self.ctx.now(), checked_in=False,
            )
            await audit(self.ctx, conn, actor, t, "waitlist.promote", None,
                        {"player": pid, "user": first.user_id, "name": first.name})
            await self.notify_member(conn, t, first.user_id,
                                     f"a place is free in '{t.name}': you are in (from the "
                                     "waitlist).")

    async def notify_member(self, conn: Connection, t: TournamentRow, user_id: int | None,
                            text: str) -> None:
        """Tell one player something in the tournament channel (mentioning him only)."""
        if user_id is None:
            return
        await self.announcer.announce(conn, t, "player_notice", {"user_id": user_id, "text": text})

    @operation
    async def leave_waitlist(self, actor: Actor, tournament: TournamentRef = None) -> WaitingView:
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            position = None
            for i, w in enumerate(await request_repo.list_waiting(conn, t.id), start=1):
                if w.user_id == actor.user_id:
                    position = (i, w)
            if position is None:
                raise NotRegisteredError(f"You are not on the waitlist of '{t.name}'.")
            await request_repo.remove_waiting(conn, t.id, actor.user_id)
            await audit(self.ctx, conn, actor, t, "waitlist.leave", {"user": actor.user_id}, None)
            return WaitingView(t.id, t.name, actor.user_id, position[1].name, position[0])

    # -- check-in reminder --------------------------------------------------------------------
    @operation
    async def run_checkin_reminders(self, now: datetime | None = None, *,
                                    shards: Shards = ALL_SHARDS) -> list[int]:
        """Ping the registered players who have not checked in, once per tournament, when its
        check-in window opens (the bot's background pass calls this; the claim row makes it
        fire once across restarts). Returns the tournament ids reminded."""
        moment = now or self.ctx.now()
        sent: list[int] = []
        async with self.ctx.db.transaction(readonly=True) as conn:
            ids = await request_repo.registration_tournament_ids(conn, shards)
        for tid in ids:
            async with self.ctx.db.transaction() as conn:
                t = await tournament_repo.get_tournament(conn, tid)
                if t is None or t.status != "registration":
                    continue
                settings = settings_of(t)
                if not settings.checkin or settings.checkin_opens is None or \
                        moment < _window_time(settings.checkin_opens):
                    continue
                if not await request_repo.claim_checkin_reminder(conn, t.id, moment):
                    continue
                users = [p.user_id for p in await player_repo.list_players(conn, t.id)
                         if p.status == "registered" and not p.checked_in
                         and p.user_id is not None]
                closes = settings.checkin_closes
                until = None if closes is None else int(_window_time(closes).timestamp())
                await self.announcer.announce(conn, t, "checkin_open",
                                              {"users": users, "until": until})
                await audit(self.ctx, conn, system_actor(t), t, "checkin.reminder", None,
                            {"players": len(users)})
                sent.append(t.id)
        return sent
