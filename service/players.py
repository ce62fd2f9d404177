"""Players: join, leave, check-in, late join, drop, organiser add / remove / rating."""

from __future__ import annotations

from dataclasses import dataclass
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
    require_room,
)
from service.entry import check_entry_conditions, window_refusal
from service.errors import (
    AlreadyRegisteredError,
    ConflictError,
    InvalidInputError,
    NotRegisteredError,
    RegistrationClosedError,
    TournamentNotRunningError,
)
from service.model import seeding_order, settings_of
from service.operation import operation
from service.permissions import require_organiser
from service.team_views import refuse_team_event
from service.validation import (
    MAX_PLAYER_NAME,
    check_rating,
    clean_name,
    member_name,
    parse_player_ref,
)
from service.views import Actor, PlayerView, WaitingView
from storage import players as player_repo
from storage import requests as request_repo
from storage import rounds as round_repo
from storage.connection import Connection, IntegrityError
from storage.players import PlayerRow
from storage.tournaments import TournamentRow
from swiss.wording import status_phrase

if TYPE_CHECKING:
    from service.confirm import Confirm
    from service.entry import Entry
    from service.lichess import LichessAccounts



@part
class Players:
    ctx: Context
    entry: Entry
    confirm: Confirm
    lichess_accounts: LichessAccounts

    @operation
    async def join(
        self, actor: Actor, tournament: TournamentRef = None, *, rating: int | None = None
    ) -> PlayerView | WaitingView:
        """Register the acting member (optional self-declared rating). After the start this is a
        late join, allowed while the next round to pair is at most ``late_join_until``; the
        missed rounds score the configured late-join bye.

        Entry conditions (the registration window, a required role, a rating range) are
        checked; a full tournament (``capacity``) puts him on the waitlist instead (a
        :class:`WaitingView` is returned) before the start, and refuses him after it."""
        value = check_rating(rating)
        name = _member_name(actor)
        # an event on Lichess: his Lichess rating, asked before the transaction
        lichess = await self.lichess_accounts.lichess_entry(
            actor.guild_id, actor.user_id, tournament, rating)
        if lichess is not None:
            value = rating = lichess[0]
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            await refuse_team_event(conn, t, lazy("a captain creates a team with /team create "
                                                  "and adds his team-mates with /team add"))
            existing = await player_repo.find_member(conn, t.id, actor.user_id)
            if existing is not None:
                raise AlreadyRegisteredError(
                    lazy("You are already registered in '{tournament}' (you withdrew; an "
                         "organiser can re-admit you with /admin add-player).",
                         tournament=t.name)
                    if existing.status == "withdrawn" else
                    lazy("You are already registered in '{tournament}'.", tournament=t.name)
                )
            settings = settings_of(t)
            if rating is not None and settings.ratings != "players":
                raise InvalidInputError(
                    lazy("Ratings in '{tournament}' are set by the organisers: join without a "
                         "rating (an organiser sets yours with /admin rating).",
                         tournament=t.name)
                    if settings.ratings == "organisers" else
                    lazy("Ratings in '{tournament}' come from its rating source: join without "
                         "one.", tournament=t.name))
            if t.status in ("registration", "running"):
                check_entry_conditions(actor, t, settings, rating, self.ctx.now())
            if any(w.user_id == actor.user_id
                   for w in await request_repo.list_waiting(conn, t.id)):
                raise AlreadyRegisteredError(await self.entry.position_text(conn, t, actor.user_id))
            if t.status in ("registration", "running") and await self.entry.is_full(conn, t):
                if t.status == "running":
                    raise RegistrationClosedError(
                        f"'{t.name}' is full ({settings.capacity} players)."
                    )
                return await self.entry.join_waitlist(conn, actor, t, name, value)
            row = await self._register(conn, actor, t, user_id=actor.user_id, name=name,
                                       rating=value, organiser=False)
            if lichess is not None:
                await self.lichess_accounts.remember_lichess_rating(conn, t, row.id, lichess[1])
            return player_view(row)

    @operation
    async def add_player(
        self,
        actor: Actor,
        name: str,
        *,
        tournament: TournamentRef = None,
        user_id: int | None = None,
        rating: int | None = None,
    ) -> PlayerView:
        """Organiser: register a member (``user_id``) or a guest (``user_id=None``, known by
        ``name``). After the start this is a late join, allowed while rounds remain.

        A player who withdrew (dropped or left) is re-admitted instead: he is paired again
        from the next round, and each round he missed counts as an absence (a zero-point bye:
        no points, unplayed, and not the pairing-allocated bye, so he can still get that)."""
        require_organiser(actor, lazy("add players"))
        if user_id is not None:
            user_id = int(parse_player_ref(user_id).value)  # a clear refusal, not an overflow
        clean = clean_name(name, what="player name", limit=MAX_PLAYER_NAME)
        value = check_rating(rating)
        lichess = await self.lichess_accounts.lichess_entry(
            actor.guild_id, user_id, tournament, rating)
        if lichess is not None:
            value = lichess[0]
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            if user_id is not None:
                existing = await player_repo.find_member(conn, t.id, user_id)
                who = f"<@{user_id}>"
            else:
                guests = [p for p in await player_repo.find_by_name(conn, t.id, clean)
                          if p.user_id is None]
                existing = guests[0] if guests else None
                who = f"'{clean}'"
            if existing is not None:
                if existing.status == "withdrawn":
                    return await self._readmit(conn, actor, t, existing)
                raise AlreadyRegisteredError(f"{who} is already in '{t.name}' (to correct a "
                                             "rating: /admin rating).")
            row = await self._register(conn, actor, t, user_id=user_id, name=clean,
                                       rating=value, organiser=True)
            if lichess is not None:
                await self.lichess_accounts.remember_lichess_rating(conn, t, row.id, lichess[1])
            return player_view(row)

    async def _readmit(
        self, conn: Connection, actor: Actor, t: TournamentRow, row: PlayerRow
    ) -> PlayerView:
        if t.status != "running":
            raise RegistrationClosedError(
                f"'{t.name}' is {status_phrase(t.status)}: {row.name} cannot be re-admitted now."
            )
        settings = settings_of(t)
        rounds = await round_repo.list_rounds(conn, t.id)
        if len(rounds) >= settings.rounds:
            raise RegistrationClosedError(
                f"'{t.name}' has no round left to play: {row.name} cannot be re-admitted."
            )
        first_missed = row.withdrawn_round or len(rounds) + 1
        missed = [r for r in rounds if r.number >= first_missed]
        for rnd in missed:  # absences: zero points, unplayed (not a pairing-allocated bye)
            await round_repo.insert_bye(conn, tournament_id=t.id, round_id=rnd.id,
                                        player_id=row.id, kind="zero")
        if not await player_repo.readmit(conn, row.id):
            raise ConflictError(f"{row.name} was re-admitted a moment ago.")
        await audit(self.ctx, conn, actor, t, "player.readmit",
                    {"status": "withdrawn", "withdrawn_round": row.withdrawn_round},
                    {"status": "active", "player": row.id,
                     "absent_rounds": [r.number for r in missed],
                     "next_round": len(rounds) + 1})
        fresh = await player_repo.get_player(conn, row.id)
        assert fresh is not None
        return player_view(fresh)

    async def _register(
        self,
        conn: Connection,
        actor: Actor,
        t: TournamentRow,
        *,
        user_id: int | None,
        name: str,
        rating: int,
        organiser: bool,
    ) -> PlayerRow:
        settings = settings_of(t)
        now = self.ctx.now()
        await require_room(self.ctx, conn, t, 1, f"{name} was not registered")
        try:
            if t.status == "registration":
                pid = await player_repo.insert_player(
                    conn, tournament_id=t.id, user_id=user_id, name=name, rating=rating, now=now,
                    checked_in=organiser,  # an organiser adding someone vouches for him
                )
                await audit(self.ctx, conn, actor, t, "player.join", None,
                            {"player": pid, "name": name, "rating": rating})
            elif t.status == "running":
                pid = await self._late_join(conn, actor, t, user_id=user_id, name=name,
                                            rating=rating, organiser=organiser,
                                            late_until=settings.late_join_until,
                                            late_bye=settings.late_join_bye,
                                            total=settings.rounds)
            else:
                raise RegistrationClosedError(
                    f"Registration for '{t.name}' is closed: the tournament is "
                    f"{status_phrase(t.status)}."
                )
        except IntegrityError:
            raise AlreadyRegisteredError(
                f"A guest called '{name}' is already in '{t.name}': use another name."
            ) from None
        row = await player_repo.get_player(conn, pid)
        assert row is not None
        return row

    async def _late_join(
        self,
        conn: Connection,
        actor: Actor,
        t: TournamentRow,
        *,
        user_id: int | None,
        name: str,
        rating: int,
        organiser: bool,
        late_until: int,
        late_bye: str,
        total: int,
    ) -> int:
        rounds = await round_repo.list_rounds(conn, t.id)
        first_round = len(rounds) + 1  # the first round he can be paired in
        limit = total if organiser else late_until
        if first_round > limit:
            if late_until == 0 and not organiser:
                why = "late joining is not allowed in this tournament"
            else:
                why = f"late joining is possible only up to round {limit}"
            raise RegistrationClosedError(
                f"Registration for '{t.name}' is closed: {why} and round {first_round} is next."
                + ("" if organiser else " Ask an organiser.")
            )
        number = await player_repo.next_number(conn, t.id)
        pid = await player_repo.insert_player(
            conn, tournament_id=t.id, user_id=user_id, name=name, rating=rating,
            now=self.ctx.now(), status="active", number=number, joined_round=first_round,
            checked_in=True,
        )
        for rnd in rounds:  # the rounds he missed score the configured bye
            await round_repo.insert_bye(conn, tournament_id=t.id, round_id=rnd.id,
                                        player_id=pid, kind=late_bye)
        await audit(self.ctx, conn, actor, t, "player.late_join", None,
                    {"player": pid, "name": name, "number": number,
                     "first_round": first_round, "missed_rounds_bye": late_bye})
        return pid

    @operation
    async def leave(self, actor: Actor, tournament: TournamentRef = None) -> PlayerView:
        """The acting member leaves: before the start he is removed; after it he withdraws
        (kept in the standings, never paired again)."""
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            row = await player_repo.find_member(conn, t.id, actor.user_id)
            if row is None:
                raise NotRegisteredError(lazy("You are not registered in '{tournament}'.",
                                              tournament=t.name))
            if t.status == "registration":
                await player_repo.delete_player(conn, row.id)
                await audit(self.ctx, conn, actor, t, "player.leave", {"player": row.id,
                                                                       "name": row.name}, None)
                await self.entry.promote(conn, actor, t)  # his place goes to the first waiting
                return player_view(row)
            return await self.withdraw(conn, actor, t, row)

    @operation
    async def drop_player(
        self, actor: Actor, player: PlayerRef, tournament: TournamentRef = None, *,
        version: int | None = None,
    ) -> PlayerView:
        """Organiser: withdraw a player during the event (kept in the standings).
        ``version``: the course version of the confirmation prompt (:meth:`preview_action`),
        refused if the event changed course since (a round paired, another drop)."""
        require_organiser(actor, lazy("drop players"))
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            row = await find_player(conn, t, player)
            if t.status == "running" and row.status == "active":
                # (else _withdraw says precisely why not: "already withdrawn")
                await self.confirm.require_course(conn, t, version, "drop")
            return await self.withdraw(conn, actor, t, row)

    async def withdraw(
        self, conn: Connection, actor: Actor, t: TournamentRow, row: PlayerRow
    ) -> PlayerView:
        if t.status != "running":
            raise TournamentNotRunningError(
                f"'{t.name}' is not running (it is "
                f"{status_phrase(t.status)}): nobody can withdraw now."
                + (" Before the start, use /leave or /admin remove-player."
                   if t.status == "registration" else "")
            )
        if row.status == "no_show":
            raise ConflictError(f"{row.name} did not check in and is not playing in '{t.name}'.")
        if row.status != "active":
            raise ConflictError(f"{row.name} has already withdrawn from '{t.name}'.")
        last = await round_repo.last_round(conn, t.id)
        from_round = (0 if last is None else last.number) + 1
        await player_repo.withdraw(conn, row.id, from_round)
        await audit(self.ctx, conn, actor, t, "player.withdraw", {"status": row.status},
                    {"status": "withdrawn", "player": row.id, "from_round": from_round})
        fresh = await player_repo.get_player(conn, row.id)
        assert fresh is not None
        return player_view(fresh)

    @operation
    async def check_in(self, actor: Actor, tournament: TournamentRef = None) -> PlayerView:
        """The acting member confirms he will play (when the tournament uses check-in)."""
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            if not settings_of(t).checkin:
                raise ConflictError(f"'{t.name}' does not use check-in: /join is enough.")
            if t.status != "registration":
                raise RegistrationClosedError(
                    f"Check-in for '{t.name}' is closed: the tournament is "
                    f"{status_phrase(t.status)}."
                )
            settings = settings_of(t)
            why = window_refusal(settings.checkin_opens, settings.checkin_closes, self.ctx.now(),
                                 "check-in")
            if why:
                raise RegistrationClosedError(f"Check-in for '{t.name}' is closed: {why}.")
            row = await player_repo.find_member(conn, t.id, actor.user_id)
            if row is None:
                raise NotRegisteredError(
                    f"You are not registered in '{t.name}': /join first, then check in."
                )
            if row.checked_in:
                raise ConflictError(f"You are already checked in for '{t.name}'.")
            await player_repo.set_checked_in(conn, row.id, True)
            await audit(self.ctx, conn, actor, t, "player.checkin", None, {"player": row.id})
            fresh = await player_repo.get_player(conn, row.id)
            assert fresh is not None
            return player_view(fresh)

    @operation
    async def remove_player(
        self, actor: Actor, player: PlayerRef, tournament: TournamentRef = None
    ) -> PlayerView:
        """Organiser: delete a registration. After the start only a player who was never paired
        (no game, no pairing-allocated bye; e.g. a mistaken late join) can be removed; others
        must be dropped, their games stay."""
        require_organiser(actor, lazy("remove players"))
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            row = await find_player(conn, t, player)
            pairing_byes = [b for b in await round_repo.list_byes(conn, t.id)
                            if b.player_id == row.id and b.kind == "pairing"]
            played = await round_repo.count_games_of(conn, row.id) or pairing_byes
            if t.status != "registration" and played:
                raise ConflictError(
                    f"{row.name} has already played in '{t.name}': drop him with "
                    "/admin drop instead (his games stay in the standings)."
                )
            await round_repo.delete_byes_of(conn, row.id)
            await player_repo.delete_player(conn, row.id)
            await audit(self.ctx, conn, actor, t, "player.remove",
                        {"player": row.id, "name": row.name, "number": row.number}, None)
            await self.entry.promote(conn, actor, t)
            return player_view(row)

    @operation
    async def set_rating(
        self, actor: Actor, player: PlayerRef, rating: int, tournament: TournamentRef = None
    ) -> PlayerView:
        """Organiser: change a rating. Pairing numbers, once given at the start, stay."""
        return (await self._rate(actor, player, rating, tournament)).player

    @operation
    async def rate_player(
        self, actor: Actor, player: PlayerRef, rating: int, tournament: TournamentRef = None
    ) -> RatingChange:
        """Organiser: change a rating, before or after the start, and say what it did to
        the seeding: before the start, every player whose place in the seeding order moved;
        after it, nothing (pairing numbers and rounds already paired stay)."""
        return await self._rate(actor, player, rating, tournament)

    async def _rate(self, actor: Actor, player: PlayerRef, rating: int,
                    tournament: TournamentRef) -> RatingChange:
        require_organiser(actor, lazy("set ratings"))
        value = check_rating(rating)
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            await self.lichess_accounts.refuse_typed_rating(conn, t)
            if settings_of(t).ratings == "source":
                raise InvalidInputError(lazy(
                    "The ratings of '{tournament}' come from its rating source: they cannot be "
                    "typed (change the ratings setting in /tournament settings first).",
                    tournament=t.name))
            row = await find_player(conn, t, player)
            before = _seeds(await player_repo.list_players(conn, t.id))
            await player_repo.set_rating(conn, row.id, value)
            after = _seeds(await player_repo.list_players(conn, t.id))
            await audit(self.ctx, conn, actor, t, "player.rating", {"rating": row.rating},
                        {"rating": value, "player": row.id})
            fresh = await player_repo.get_player(conn, row.id)
            assert fresh is not None
            started = t.status != "registration"
            moved = [] if started else [
                SeedMove(name, before[pid][1], seed) for pid, (name, seed) in after.items()
                if before[pid][1] != seed]
            return RatingChange(player_view(fresh), row.rating, started,
                                before.get(row.id, ("", None))[1],
                                after.get(row.id, ("", None))[1],
                                sorted(moved, key=lambda m: m.after))

    @operation
    async def list_players(
        self, guild_id: int, tournament: TournamentRef = None
    ) -> list[PlayerView]:
        """Every player, by pairing number (then registration order before the start)."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, guild_id, tournament, closed_ok=True)
            return [player_view(p) for p in await player_repo.list_players(conn, t.id)]


@dataclass(frozen=True, slots=True)
class SeedMove:
    """A player whose place in the seeding order (the pairing number he would get if the
    event started now) changed."""

    name: str
    before: int
    after: int


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A rating changed by an organiser: the player, his rating before, whether the event
    had started (then the change moves nobody: pairing numbers stay), his seed before and
    after (``None`` when he is not in the seeding: withdrawn, or numbered already) and every
    player it moved, by new seed."""

    player: PlayerView
    before: int
    started: bool
    seed_before: int | None
    seed_after: int | None
    moved: list[SeedMove]


def _seeds(players: list[PlayerRow]) -> dict[int, tuple[str, int]]:
    """Each registered player's seed if the event started now: id -> (name, seed)."""
    waiting = seeding_order([p for p in players if p.status == "registered"])
    return {p.id: (p.name, seed) for seed, p in enumerate(waiting, start=1)}


def _member_name(actor: Actor) -> str:
    """A member's display name, made safe to store and show (no bidi overrides, zero-width
    characters or mention markup; emoji stay)."""
    return member_name(actor.display_name, actor.user_id, limit=MAX_PLAYER_NAME)
