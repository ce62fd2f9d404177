"""A tournament's lifecycle: start (its first round paired, or the first one scheduled),
finish (the open round closed, the top cut seeded or the final standings posted) and
cancel. Creating, editing and listing tournaments are ``service.tournaments``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from i18n import lazy
from service.base import (
    Context,
    TournamentRef,
    audit,
    find_tournament,
    info_of,
    part,
    require_not_pairing,
)
from service.errors import (
    ConflictError,
    RegistrationClosedError,
    RoundChangedError,
    RoundNotCompleteError,
    TournamentNotRunningError,
)
from service.model import seeding_order, settings_of
from service.operation import operation
from service.permissions import require_organiser
from service.playoff_state import load_bracket
from service.present import current_standings, with_placings
from service.views import (
    Actor,
    RoundView,
    StandingsView,
    TournamentInfo,
    format_points,
)
from storage import journal
from storage import players as player_repo
from storage import rounds as round_repo
from storage import tournaments as tournament_repo
from storage.connection import Connection
from storage.tournaments import TournamentRow
from swiss.wording import plural, status_phrase

if TYPE_CHECKING:
    from service.announcer import Announcer
    from service.confirm import Confirm
    from service.course import Course
    from service.deferred import DeferredCompletion, DeferredPosts
    from service.lichess import LichessAccounts
    from service.pairing_runs import PairingRuns
    from service.playoffs import Playoffs



@part
class Lifecycle:
    ctx: Context
    announcer: Announcer
    deferred: DeferredPosts
    completion: DeferredCompletion
    confirm: Confirm
    course: Course
    runs: PairingRuns
    playoffs: Playoffs
    lichess_accounts: LichessAccounts

    @operation
    async def start_tournament(
        self, actor: Actor, tournament: TournamentRef = None
    ) -> RoundView:
        """Close registration, give pairing numbers (rating order, then registration order)
        and pair round 1, all in one transaction. With check-in, players who did not check in
        become no-shows. Two concurrent starts make one round 1."""
        require_organiser(actor, lazy("start tournaments"))
        # an event on Lichess seeds by the ratings of today (a Lichess call, before pairing)
        await self.lichess_accounts.refresh_lichess_ratings(actor.guild_id, tournament)

        async def check(conn: Connection, t: TournamentRow) -> None:
            if t.status != "registration":
                raise RegistrationClosedError(
                    f"'{t.name}' has already started (it is {status_phrase(t.status)})."
                )

        async def prepare(conn: Connection, t: TournamentRow) -> TournamentRow:
            return await self.open_play(conn, actor, t)

        # Round 1 is paired between two short transactions (service.pairing_runs); the start
        # itself is made in the second one, with the round, so a failed pairing leaves the
        # tournament in registration.
        return await self.runs.pair_in_two_steps(actor, tournament, force=False, check=check,
                                                 prepare=prepare)

    async def open_play(
        self, conn: Connection, actor: Actor, t: TournamentRow
    ) -> TournamentRow:
        """Close registration and give the pairing numbers; returns the row after it."""
        if t.status != "registration":
            raise RegistrationClosedError(
                f"'{t.name}' has already started (it is {status_phrase(t.status)})."
            )
        settings = settings_of(t)
        registered = [
            p for p in await player_repo.list_players(conn, t.id) if p.status == "registered"
        ]
        playing = [p for p in registered if p.checked_in or not settings.checkin]
        if len(playing) < 2:
            hint = " checked-in" if settings.checkin else ""
            raise ConflictError(
                f"'{t.name}' needs at least 2{hint} players to start; it has {len(playing)}."
            )
        if not await tournament_repo.set_status(
            conn, t.id, "running", expected=("registration",), now=self.ctx.now()
        ):
            raise RegistrationClosedError(f"'{t.name}' has already started.")
        playing = seeding_order(playing)
        for number, player in enumerate(playing, start=1):
            await player_repo.activate(conn, player.id, number)
        numbered = {player.id for player in playing}  # a list's `in` made this n² (seconds)
        for player in registered:
            if player.id not in numbered:
                await player_repo.mark_no_show(conn, player.id)
        t = await tournament_repo.get_tournament(conn, t.id) or t
        await audit(self.ctx, conn, actor, t, "tournament.start", None,
                    {"players": len(playing)})
        return t

    @operation
    async def finish_tournament(
        self,
        actor: Actor,
        tournament: TournamentRef = None,
        *,
        force: bool = False,
        round_number: int | None = None,
        version: int | None = None,
    ) -> StandingsView:
        """End the tournament early and announce the final standings (after the last round it
        finishes by itself). Refused while the current round has games without a final result,
        unless ``force``: reported results then stand, the other open games count as double
        forfeits.

        A forced finish closes the current round, so name it as for ``pair_next_round``:
        ``round_number`` must be the latest round, and ``version`` (a confirmation prompt's,
        :meth:`preview_action`) the current course version (else a round paired a moment ago
        would be forfeited)."""
        require_organiser(actor, lazy("finish tournaments"))
        cut_row: int | None = None  # a big event's top cut, seeded after the commit
        announced = 0
        async with self.ctx.db.transaction() as conn:
            # closed_ok: after the automatic finish "/tournament finish" should hear that the
            # tournament is finished, not that there is none
            t = await find_tournament(conn, actor.guild_id, tournament, closed_ok=True)
            await require_not_pairing(self.ctx, conn, t, "it was not finished")
            if t.status == "finished":
                standings = await current_standings(conn, t, final=True)
                raise TournamentNotRunningError(
                    f"'{t.name}' is already finished (after round {standings.after_round}). "
                    f"Final standings: {_podium(standings)}. The full table: /standings."
                )
            if t.status != "running":
                raise TournamentNotRunningError(
                    f"'{t.name}' is not running (it is "
                    f"{status_phrase(t.status)}): only a running tournament "
                    "can be finished; cancel it instead if it never started."
                )
            last = await round_repo.last_round(conn, t.id)
            latest = 0 if last is None else last.number
            if round_number is not None and round_number != latest:
                raise RoundChangedError(
                    f"'{t.name}' is at round {latest}, not {round_number}: it was not "
                    "finished. Check the pairings, then finish again."
                )
            await self.confirm.require_course(conn, t, version, "finish")
            if last is not None:
                unfinished = [
                    g for g in await round_repo.list_games(conn, t.id, last.number)
                    if g.state != "final"
                ]
                if unfinished and not force:
                    raise RoundNotCompleteError(
                        f"Round {last.number} of '{t.name}' still has "
                        f"{plural(len(unfinished), 'game')} without a final result: set "
                        f"{'it' if len(unfinished) == 1 else 'them'} first, or finish with force "
                        "(reported results then stand, the others count as double forfeits)."
                    )
                if unfinished:
                    await self.course.close_round(conn, actor, t, last.number, unfinished,
                                                  announce=False)
                # Finishing the Swiss early still plays the top cut: the bracket is seeded
                # from these standings and the tournament runs on (/round next pairs it).
                # A big event's is seeded after the commit, off the event loop (_cut).
                if await load_bracket(conn, t.id) is None and \
                        await self.playoffs.cut(conn, actor, t, last.number):
                    await audit(self.ctx, conn, actor, t, "tournament.finish_swiss", None,
                                {"force": force, "round": last.number})
                    cut_row = await journal.deferred_of(conn, t.id, "swiss_final")
                    if cut_row is None:
                        return await current_standings(conn, t, final=True)
            if cut_row is None:
                await tournament_repo.set_status(conn, t.id, "finished",
                                                 expected=("running",), now=self.ctx.now())
                # computed after the commit and off the event loop for a big event
                announced = await self.deferred.announce_standings(conn, t, "final_standings", {},
                                                                   final=True, placings=True)
                await audit(self.ctx, conn, actor, t, "tournament.finish", None,
                            {"force": force})
                if not self.ctx.pairing.offloads(await player_repo.count_entrants(conn, t.id)):
                    return await current_standings(conn, t, final=True)
        view = await self.completion.complete_announcement(
            announced if cut_row is None else cut_row)
        if view is None:  # completed by another process, or changed meanwhile: as it is now
            async with self.ctx.db.transaction(readonly=True) as conn:
                view = await current_standings(conn, t, final=True)
        elif cut_row is not None:  # the seeding table, with the bracket it seeded
            async with self.ctx.db.transaction(readonly=True) as conn:
                view = with_placings(view, await load_bracket(conn, t.id), None)
        return view

    @operation
    async def cancel_tournament(
        self, actor: Actor, tournament: TournamentRef = None, *, version: int | None = None
    ) -> TournamentInfo:
        """Cancel an open tournament (registration or running); its data is kept.
        ``version``: the course version of the confirmation prompt (:meth:`preview_action`),
        refused if the event changed course since."""
        require_organiser(actor, lazy("cancel tournaments"))
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            if t.status in ("registration", "running"):
                await self.confirm.require_course(conn, t, version, "cancel")
            if not await tournament_repo.set_status(
                conn, t.id, "cancelled", expected=("registration", "running"), now=self.ctx.now()
            ):
                raise TournamentNotRunningError(f"'{t.name}' is already {status_phrase(t.status)}.")
            await self.announcer.announce(conn, t, "tournament_cancelled",
                                          {"by": actor.display_name})
            await audit(self.ctx, conn, actor, t, "tournament.cancel", {"status": t.status},
                        {"status": "cancelled"})
            return await info_of(conn, t)


def _podium(view: StandingsView, top: int = 5) -> str:
    """The first places on one line (names cut so that the line stays short)."""
    places = [
        f"{row.rank}. {row.name[:32]} {format_points(row.points)}" for row in view.rows[:top]
    ]
    more = " …" if len(view.rows) > top else ""
    return (", ".join(places) or "no players") + more
