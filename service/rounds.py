"""Rounds: pair the next one, undo the current one, show pairings, requested byes, forbidden
pairs, round completion and auto-advance."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

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
    require_not_pairing,
    seat,
)
from service.course import require_running, system_actor
from service.errors import (
    ConflictError,
    InvalidInputError,
    NotRegisteredError,
    PairingBusyError,
    RoundChangedError,
    ServiceError,
    TournamentNotRunningError,
)
from service.model import settings_of
from service.operation import operation
from service.permissions import require_organiser
from service.playoff_state import load_bracket
from service.present import round_payload, round_view
from service.schedule import arm_schedule
from service.validation import check_choice
from service.views import Actor, ByeRequestView, PlayerView, RoundView
from storage import players as player_repo
from storage import playoffs as playoff_repo
from storage import rounds as round_repo
from storage import tournaments as tournament_repo
from storage.connection import Connection
from storage.journal import EncodedJSON, encode_audit
from storage.players import PlayerRow
from storage.rounds import RoundRow
from storage.shards import ALL_SHARDS, Shards
from storage.tournaments import TournamentRow
from swiss.wording import plural, status_phrase

if TYPE_CHECKING:
    from service.announcer import Announcer
    from service.confirm import Confirm
    from service.course import Course
    from service.pairing_runs import PairingRuns


@part
class Rounds:
    ctx: Context
    announcer: Announcer
    confirm: Confirm
    course: Course
    runs: PairingRuns

    @operation
    async def pair_next_round(
        self,
        actor: Actor,
        tournament: TournamentRef = None,
        *,
        force: bool = False,
        round_number: int | None = None,
        version: int | None = None,
    ) -> RoundView:
        """Pair the next round with the tournament's system and seed and queue the
        ``pairings`` announcement.

        Refused while the current round has games without a final result, unless ``force``:
        then a waiting report stands as if confirmed and the other open games count as double
        forfeits (organisers can correct them later).

        Name the round meant, so that a repeated or concurrent call pairs one round, not two
        (a forced second call would close the round the first one just paired):
        ``round_number`` is the round to pair (refused if it is not the next one), and
        ``version`` the course version of the confirmation prompt it comes from
        (:meth:`preview_action`; refused if a round was paired or undone since).

        The engine runs between two short transactions, outside the event loop for big
        events (``service.pairing_runs``): while it runs the round is marked as being paired
        and the commands that would change what it is computed from are refused.
        """
        require_organiser(actor, lazy("pair rounds"))

        async def check(conn: Connection, t: TournamentRow) -> None:
            require_running(t)
            last = await round_repo.last_round(conn, t.id)
            expected = 1 if last is None else last.number + 1
            if round_number is not None and round_number != expected:
                if round_number < expected:
                    raise RoundChangedError(
                        f"Round {round_number} of '{t.name}' is already paired: the next "
                        f"round to pair is {expected}."
                    )
                raise RoundChangedError(
                    f"Round {expected} of '{t.name}' comes first: the next round to pair is "
                    f"{expected}."
                )
            await self.confirm.require_course(conn, t, version, "next")

        return await self.runs.pair_in_two_steps(actor, tournament, force=force, check=check,
                                                 prepare=None)

    @operation
    async def undo_round(
        self,
        actor: Actor,
        tournament: TournamentRef = None,
        *,
        force: bool = False,
        round_number: int | None = None,
        version: int | None = None,
    ) -> RoundView:
        """Delete the latest round (its games and byes). Refused once a result of it is final,
        unless ``force`` (those results are lost). Returns the round as it was.

        Name the round meant, as for :meth:`pair_next_round`: ``round_number`` must be the
        latest round, and ``version`` (a confirmation prompt's) the current course version,
        so that two clicks undo one round, not two.
        """
        require_organiser(actor, lazy("undo rounds"))
        early = await self._undo_read_early(actor, tournament)
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            require_running(t)
            await require_not_pairing(self.ctx, conn, t, "no round was undone")
            last = await round_repo.last_round(conn, t.id)
            if round_number is not None and (last is None or round_number != last.number):
                raise await _not_the_latest(conn, t, round_number, last)
            if last is None:
                raise ConflictError(f"'{t.name}' has no round to undo.")
            await self.confirm.require_course(conn, t, version, "undo")
            finals = await round_repo.count_final(conn, last.id)
            if finals and not force:
                raise ConflictError(
                    f"Round {last.number} of '{t.name}' already has "
                    f"{plural(finals, 'final result')}: "
                    "undo it anyway with force (those results are lost)."
                )
            before: Any
            if (early is not None and early[0] == t and early[2].number == last.number
                    and await tournament_repo.revision(conn, t.id) == early[1]):
                # nothing changed since the early read: its view and audit JSON are this one's
                view, before = early[2], early[3]
            else:
                view = await round_view(conn, t, last.number)
                before = round_payload(view)
            state = await load_bracket(conn, t.id)
            if state is not None and last.number <= state.playoffs.swiss_rounds:
                # The cut was made from this round's standings: it goes with the round.
                await playoff_repo.delete_playoffs(conn, t.id)
                await audit(self.ctx, conn, actor, t, "playoffs.uncut",
                            {"seeds": list(state.playoffs.seeds)}, None)
            await round_repo.delete_round(conn, last.id)
            # Who dropped during this round was not going to play it again either.
            await player_repo.cap_withdrawals(conn, t.id, last.number)
            await tournament_repo.set_auto_advance_due(conn, t.id, None)
            await self.course.record_round_event(conn, actor, t, last.number, "undone")
            # The schedule starts the undone round again only at its own time, if still to come.
            await arm_schedule(conn, t, settings_of(t), last.number, self.ctx.now(),
                               future_only=True)
            await self.announcer.announce(conn, t, "round_undone", {"round": last.number,
                                                                    "by": actor.display_name})
            await audit(self.ctx, conn, actor, t, "round.undo", before, {"forced": force})
            return view

    async def _undo_read_early(
        self, actor: Actor, tournament: TournamentRef
    ) -> tuple[TournamentRow, int, RoundView, EncodedJSON | None] | None:
        """For a big event: (tournament row, revision, the last round's view, its audit JSON)
        read in a read transaction and encoded in a thread before the undo's write
        transaction, which uses them when the row and the revision are still the same.
        Encoding 1,500 boards' audit JSON took 87-127 ms of the event loop inside the write
        transaction. None for a small event or when there is nothing to undo
        (the write transaction says why)."""
        try:
            async with self.ctx.db.transaction(readonly=True) as conn:
                t = await find_tournament(conn, actor.guild_id, tournament)
                players = await player_repo.count_entrants(conn, t.id)
                if not self.ctx.pairing.offloads(players):
                    return None
                last = await round_repo.last_round(conn, t.id)
                if last is None:
                    return None
                revision = await tournament_repo.revision(conn, t.id)
                view = await round_view(conn, t, last.number)
        except ServiceError:
            return None
        before = await self.ctx.pairing.off_loop(players, _audit_json, view)
        return t, revision, view, before

    @operation
    async def pairings(
        self, guild_id: int, tournament: TournamentRef = None, round_number: int | None = None
    ) -> RoundView:
        """The pairings and results of a round (default: the latest)."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, guild_id, tournament, closed_ok=True)
            return await round_view(conn, t, round_number)

    @operation
    async def request_bye(
        self,
        actor: Actor,
        round_number: int | None = None,
        *,
        kind: str = "half",
        player: PlayerRef | None = None,
        tournament: TournamentRef = None,
    ) -> ByeRequestView:
        """Ask for a bye in a coming round (default: the next one to pair). A player asks for
        himself (the kinds the ``player_byes`` setting allows: half, zero, both or none) and
        his request waits for an organiser (``status="pending"``, see decide_bye_request);
        an organiser may assign any kind to anyone, approved at once."""
        async with self.ctx.db.transaction() as conn:
            t, row, number, kind = await self._bye_target(
                conn, actor, round_number, kind, player, tournament
            )
            status = "approved" if actor.is_organiser else "pending"
            if not actor.is_organiser:
                allowed = {"half": ("half",), "zero": ("zero",), "both": ("half", "zero"),
                           "none": ()}[settings_of(t).player_byes]
                if kind not in allowed:
                    raise InvalidInputError(
                        f"'{t.name}' does not let players ask for a {kind} bye"
                        + (f" (allowed: {', '.join(allowed)})." if allowed else
                           ": ask an organiser.")
                    )
            await round_repo.upsert_bye_request(
                conn, tournament_id=t.id, player_id=row.id, round_number=number, kind=kind,
                requested_by=actor.user_id, now=self.ctx.now(), status=status,
            )
            await audit(self.ctx, conn, actor, t, "bye.request", None,
                        {"player": row.id, "round": number, "kind": kind,
                         "status": status})
            return ByeRequestView(player=seat(row), round=number, kind=kind,  # type: ignore[arg-type]
                                  status=status)  # type: ignore[arg-type]

    @operation
    async def cancel_bye_request(
        self,
        actor: Actor,
        round_number: int | None = None,
        *,
        player: PlayerRef | None = None,
        tournament: TournamentRef = None,
    ) -> ByeRequestView:
        """Withdraw a bye request for a round not paired yet."""
        async with self.ctx.db.transaction() as conn:
            t, row, number, _ = await self._bye_target(
                conn, actor, round_number, "zero", player, tournament
            )
            kinds = [r.kind for r in await round_repo.list_bye_requests(conn, t.id)
                     if r.player_id == row.id and r.round_number == number]
            if not kinds or not await round_repo.delete_bye_request(conn, t.id, row.id, number):
                raise ConflictError(f"{row.name} has no bye request for round {number}.")
            await audit(self.ctx, conn, actor, t, "bye.cancel",
                        {"player": row.id, "round": number, "kind": kinds[0]}, None)
            return ByeRequestView(player=seat(row), round=number, kind=kinds[0])  # type: ignore[arg-type]

    async def _bye_target(
        self,
        conn: Connection,
        actor: Actor,
        round_number: int | None,
        kind: str,
        player: PlayerRef | None,
        tournament: TournamentRef,
    ) -> tuple[TournamentRow, PlayerRow, int, str]:
        t = await find_tournament(conn, actor.guild_id, tournament)
        if t.status not in ("registration", "running"):
            raise TournamentNotRunningError(f"'{t.name}' is "
                                            f"{status_phrase(t.status)}: no more byes.")
        if player is None:
            row = await player_repo.find_member(conn, t.id, actor.user_id)
            if row is None:
                raise NotRegisteredError(f"You are not registered in '{t.name}'.")
        else:
            row = await find_player(conn, t, player)
            if row.user_id != actor.user_id:
                require_organiser(actor, lazy("assign byes to other players"))
        kinds = ("half", "full", "zero") if actor.is_organiser else ("half", "zero")
        kind = check_choice(kind, what="bye kind", choices=kinds)
        if row.status == "withdrawn":
            raise ConflictError(f"{row.name} has withdrawn from '{t.name}'.")
        settings = settings_of(t)
        last = await round_repo.last_round(conn, t.id)
        next_round = (0 if last is None else last.number) + 1
        number = next_round if round_number is None else round_number
        if not next_round <= number <= settings.rounds:
            if next_round > settings.rounds:
                raise ConflictError(f"Every round of '{t.name}' has been paired.")
            raise InvalidInputError(
                f"Byes can be requested only for a round not paired yet: choose a round from "
                f"{next_round} to {settings.rounds}."
            )
        return t, row, number, kind

    @operation
    async def forbid_pair(
        self, actor: Actor, first: PlayerRef, second: PlayerRef,
        tournament: TournamentRef = None,
    ) -> tuple[PlayerView, PlayerView]:
        """Organiser: these two must never be paired (team-mates, family)."""
        require_organiser(actor, lazy("forbid pairings"))
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            a = await find_player(conn, t, first)
            b = await find_player(conn, t, second)
            if a.id == b.id:
                raise InvalidInputError("Name two different players to forbid a pairing.")
            if not await round_repo.insert_forbidden_pair(conn, t.id, a.id, b.id, self.ctx.now()):
                raise ConflictError(f"{a.name} and {b.name} are already kept apart.")
            await audit(self.ctx, conn, actor, t, "pair.forbid", None, {"players": [a.id, b.id]})
            return player_view(a), player_view(b)

    # -- completion and auto-advance ---------------------------------------------------------
    @operation
    async def due_auto_advances(self, now: datetime | None = None, *,
                                shards: Shards = ALL_SHARDS) -> list[int]:
        """Ids of the running tournaments (of guilds on ``shards``) whose next round is due
        to be paired automatically."""
        return await self._due_auto_advances(now, shards=shards)

    async def _due_auto_advances(self, now: datetime | None, *, shards: Shards) -> list[int]:
        async with self.ctx.db.transaction(readonly=True) as conn:
            rows = await tournament_repo.due_auto_advances(conn, now or self.ctx.now(), shards)
        return [t.id for t in rows]

    @operation
    async def run_auto_advances(self, now: datetime | None = None, *,
                                shards: Shards = ALL_SHARDS) -> list[RoundView]:
        """Pair every due round (the bot's background task calls this every few seconds; the
        service never sleeps). Each tournament is claimed exactly once; a pairing failure is
        announced to the organisers instead of retried forever."""
        paired: list[RoundView] = []
        for tid in await self._due_auto_advances(now, shards=shards):
            async with self.ctx.db.transaction() as conn:
                t = await tournament_repo.get_tournament(conn, tid)
                if t is None or not await tournament_repo.claim_auto_advance(conn, tid):
                    continue  # another worker took it
            # Claimed (committed): paired like /round next, between two short transactions.
            try:
                paired.append(await self.runs.pair_in_two_steps(
                    system_actor(t), t.id, force=False, check=_no_check, prepare=None))
            except PairingBusyError:
                async with self.ctx.db.transaction() as conn:  # try again in a minute
                    await tournament_repo.set_auto_advance_due(
                        conn, t.id, self.ctx.now() + timedelta(minutes=1))
            except ServiceError as exc:
                async with self.ctx.db.transaction() as conn:
                    await self.announcer.announce(conn, t, "auto_advance_failed",
                                                  {"error": exc.stored()})
        return paired


async def _no_check(conn: Connection, t: TournamentRow) -> None:
    require_running(t)


async def _not_the_latest(
    conn: Connection, t: TournamentRow, number: int, last: RoundRow | None
) -> RoundChangedError:
    """Why round ``number`` cannot be undone: only the latest round can."""
    latest = "it has no round" if last is None else f"its latest round is {last.number}"
    if last is not None and number < last.number:
        return RoundChangedError(
            f"Round {number} of '{t.name}' is not the latest round ({latest}): only the "
            "latest round can be undone."
        )
    event = await round_repo.last_round_event(conn, t.id, number)
    if event is not None and event.event == "undone":
        return RoundChangedError(f"Round {number} of '{t.name}' was already undone: {latest}.")
    return RoundChangedError(f"Round {number} of '{t.name}' is not paired: {latest}.")


def _audit_json(view: RoundView) -> EncodedJSON | None:
    """The undo's audit record of ``view`` as JSON (in a thread for a big event)."""
    return encode_audit(round_payload(view))
