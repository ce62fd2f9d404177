"""Pair a round in two short transactions, with the engine in between.

1. **Look** (one write transaction, milliseconds): the checks of the command, then, inside a
   savepoint that is rolled back, the changes that come before the pairing (a forced close of
   the current round, the start of the tournament) and the snapshot the engine pairs from.
   The round is marked as being paired (``pairing_runs``, seen by every process) and, for a
   big event, a progress line is queued ("Pairing round 4 for 1,000 players...").
2. **Compute**, in no transaction: inline for small events, in a worker process otherwise
   (``service.pairing_pool``), so the event loop keeps serving every guild.
3. **Store** (one write transaction): the marker must still be ours; the changes of step 1
   are made for real and the snapshot is read again; if it differs from the one paired (a
   player joined, a setting changed) nothing is stored and the command is refused. Otherwise
   the round is stored, the marker removed, and the pairings announcement *replaces* the
   progress line (the delivery edits that message).

A failure of step 2 (no valid pairing, the worker died or ran past its time limit, the task
was cancelled) removes the marker, records ``round.pairing_failed`` in the audit log, turns
the progress line into the reason, and refuses the command: the tournament is unchanged.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import uuid
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from i18n import lazy
from service.base import Context, TournamentRef, audit, find_tournament, part, require_not_pairing
from service.course import no_pairing, players_to_pair
from service.errors import (
    PairingBusyError,
    PairingFailedError,
    PairingInProgressError,
    RoundChangedError,
    ServiceError,
)
from service.explain import pair_and_explain
from service.model import (
    Snapshot,
    build_snapshot,
    load_snapshot,
    pairing_config,
    read_snapshot,
    settings_of,
)
from service.operation import operation
from service.pairing_pool import PairingBusy, PairingWorkerFailed
from service.playoff_state import load_bracket
from service.stored_round import Seating, StoredRound, stored_round
from service.team_views import refuse_team_event
from service.views import Actor, DeferredReply, InterruptedPairing, RoundView
from storage import pairing_runs as run_repo
from storage import players as player_repo
from storage import tournaments as tournament_repo
from storage.connection import Connection
from storage.tournaments import TournamentRow
from swiss.pairing import PairingError
from swiss.wording import plural

if TYPE_CHECKING:
    from service.announcer import Announcer
    from service.course import Course


Check = Callable[[Connection, TournamentRow], Awaitable[None]]
Prepare = Callable[[Connection, TournamentRow], Awaitable[TournamentRow]]

#: A marker outlives the pool's time limit by this much before anyone may treat it as dead.
MARKER_GRACE = timedelta(seconds=30)


def process_owner() -> str:
    """Who holds a marker: this host and process (start-up cleanup frees a dead one's)."""
    return f"{socket.gethostname()}:{os.getpid()}"


@part
class PairingRuns:
    ctx: Context
    announcer: Announcer
    course: Course

    async def pair_in_two_steps(
        self,
        actor: Actor,
        tournament: TournamentRef | int,
        *,
        force: bool,
        check: Check,
        prepare: Prepare | None,
    ) -> RoundView:
        """Pair the next round of ``tournament`` as described in the module docstring.
        ``check`` refuses the command (step 1 only); ``prepare`` makes the changes that come
        before the pairing and returns the tournament row after them (both steps); None when
        there are none (``/round next``, auto-advance)."""
        token = uuid.uuid4().hex
        slot = None
        # A big event's snapshot is read first, on the reading connection: its 50-70 ms at
        # 3,000 players then hold no write lock (every other guild's /report needs it).
        early = None if prepare is not None else await self._early_snapshot(actor, tournament)
        try:
            async with self.ctx.db.transaction() as conn:
                t = await find_tournament(conn, actor.guild_id, tournament)
                await refuse_team_event(conn, t, lazy("its rounds are paired with /team pair"))
                await require_not_pairing(self.ctx, conn, t, "it was not paired again")
                await check(conn, t)
                if await load_bracket(conn, t.id) is not None:
                    # the top cut's knockout: a handful of players, paired in this transaction
                    ready = t if prepare is None else await prepare(conn, t)
                    return await self.course.pair(conn, actor, ready,  # type: ignore[attr-defined]
                                                  force=force)
                # Read before this transaction's own (rolled back) changes: step 3 compares it.
                revision = await tournament_repo.revision(conn, t.id)
                await conn.execute("SAVEPOINT pairing_look")
                try:
                    prepared = t if prepare is None else await prepare(conn, t)
                    number = await self.course.round_to_pair(  # type: ignore[attr-defined]
                        conn, actor, prepared, force=force)
                    # Nothing to do before the pairing (no start, no timer to claim, no
                    # forced close, which would bump the revision): the committed event is
                    # what is paired, and step 3 need not redo anything.
                    as_is = (prepare is None
                             and await tournament_repo.revision(conn, t.id) == revision)
                    if as_is and early is not None and early[0] == t and early[1] == revision:
                        snapshot = early[2]
                    else:
                        snapshot = await load_snapshot(conn, prepared)
                    config = pairing_config(prepared)
                    players = players_to_pair(prepared, snapshot, number)
                finally:
                    await conn.execute("ROLLBACK TO pairing_look")
                    await conn.execute("RELEASE pairing_look")
                seating = _seating(prepared, number, snapshot)
                if self.ctx.pairing.offloads(players):
                    try:
                        slot = self.ctx.pairing.reserve()
                    except PairingBusy as busy:
                        raise PairingBusyError(
                            "The bot is pairing "
                            f"{plural(busy.active, 'other big event')} right now and "
                            f"pairs at most {self.ctx.pairing.limits.max_concurrent} at once: "
                            "round "
                            f"{number} of '{t.name}' was not paired. Try again in a minute."
                        ) from None
                await self._mark_run(conn, t, token, number, players, progress=slot is not None,
                                     reply=actor.reply)
        except BaseException:  # refused or not committed: the slot is free again
            self.ctx.pairing.release(slot)
            raise
        if slot is not None and self.ctx.on_announced is not None:
            self.ctx.on_announced()  # post the progress line now, not after the pairing
        try:
            stored = await self.ctx.pairing.run_then(
                slot, pair_and_explain, snapshot.tournament, config, stored_round, seating)
        except PairingError as exc:
            refusal = no_pairing(t, number, exc)
            await self._pairing_failed(t, token, number, refusal.message, actor)
            raise refusal from None
        except PairingWorkerFailed as exc:
            if exc.interrupted:  # the bot is stopping: its organiser is answered before it goes
                message = interrupted_text(t, number)
            else:
                message = (f"Round {number} of '{t.name}' was not paired: {exc.reason}. "
                           "Nothing changed; run /round next again, and if it fails again the "
                           "event may be too big for this bot's limits.")
            await self._pairing_failed(t, token, number, message, actor)
            raise PairingFailedError(message) from None
        except BaseException:  # cancelled (shutdown): leave no marker behind
            with contextlib.suppress(Exception):
                await asyncio.shield(self._pairing_failed(
                    t, token, number, f"the pairing of round {number} was interrupted", actor))
            raise
        finally:
            self.ctx.pairing.release(slot)
        numbers = {row.id: n for n, row in snapshot.by_number.items()}
        return await self._store_pairing(actor, t, token, number, revision, numbers, stored,
                                         force=force, as_is=as_is, prepare=prepare)

    async def _early_snapshot(
        self, actor: Actor, tournament: TournamentRef | int
    ) -> tuple[TournamentRow, int, Snapshot] | None:
        """For a big event: (tournament row, revision, snapshot) read in one read
        transaction, which step 1 uses when its own reading of the row and the revision is
        the same (else it reads the snapshot itself, as for a small event). None for a
        small event, or when the event cannot be resolved (step 1 says why)."""
        try:
            async with self.ctx.db.transaction(readonly=True) as conn:
                t = await find_tournament(conn, actor.guild_id, tournament)
                players = await player_repo.count_entrants(conn, t.id)
                if not self.ctx.pairing.offloads(players):
                    return None
                revision = await tournament_repo.revision(conn, t.id)
                rows = await read_snapshot(conn, t)
        except ServiceError:
            return None
        # its thousands of rows are turned into the model in a thread, not in the loop
        return t, revision, await self.ctx.pairing.off_loop(players, build_snapshot, t, rows)

    async def _mark_run(
        self, conn: Connection, t: TournamentRow, token: str, number: int,
        players: int, *, progress: bool, reply: DeferredReply | None = None,
    ) -> None:
        now = self.ctx.now()
        limit = timedelta(seconds=self.ctx.pairing.limits.time_limit) + MARKER_GRACE
        # An expired marker is a dead process's leftover: it gives way to this run.
        stale = await run_repo.get_run(conn, t.id)
        if stale is not None and stale.expires_at <= now:
            await run_repo.end_run(conn, t.id, stale.token)
        if not await run_repo.claim_run(conn, tournament_id=t.id, round_number=number,
                                        players=players, token=token, owner=process_owner(),
                                        now=now, expires_at=now + limit,
                                        reply=_reply_columns(reply, now)):
            raise PairingInProgressError(f"Round {number} of '{t.name}' is being paired.")
        if progress:
            progress_id = await self.announcer.announce(conn, t, "pairing_progress",
                                                        {"round": number, "players": players})
            await run_repo.set_progress(conn, t.id, token, progress_id)

    async def _store_pairing(
        self, actor: Actor, t: TournamentRow, token: str, number: int, revision: int,
        numbers: dict[int, int], stored: StoredRound, *, force: bool, as_is: bool,
        prepare: Prepare | None,
    ) -> RoundView:
        """Step 3: store the round if the tournament is still what was paired: the same
        revision (no write to its players, rounds, results, byes, requests or forbidden pairs
        since step 1), the same settings, and, after the changes of step 1 are made for
        real, the same round to pair and the same pairing numbers. Nothing of the event is
        read again: the rows and the announcement come from the worker (``stored``).
        ``as_is``: step 1 changed nothing (nothing to prepare, no forced close), so the
        same revision and settings already mean the same round and numbers (the 3,000
        numbers and the last round's games are not read again under the write lock)."""
        stale: str | None = None
        view_of: Callable[[], Awaitable[RoundView]] | None = None
        changed_text = (f"'{t.name}' changed while round {number} was being paired (a "
                        "player, a bye, a forbidden pair or a setting), so that pairing was "
                        "not stored: nothing changed. Run /round next again.")
        async with self.ctx.db.transaction() as conn:
            run = await run_repo.get_run(conn, t.id)
            if run is None or run.token != token:
                stale = (f"Round {number} of '{t.name}' was not stored: its pairing was given "
                         "up meanwhile (it ran past its time limit, or the bot restarted). Run "
                         "/round next again.")
            else:
                fresh = await tournament_repo.get_tournament(conn, t.id) or t
                changed: str | None = None
                if (await tournament_repo.revision(conn, t.id) != revision
                        or _terms(fresh) != _terms(t)):
                    changed = changed_text
                elif as_is:
                    prepared = fresh
                else:
                    await conn.execute("SAVEPOINT pairing_store")
                    try:
                        prepared = fresh if prepare is None else await prepare(conn, fresh)
                        now_number = await self.course.round_to_pair(  # type: ignore[attr-defined]
                            conn, actor, prepared, force=force)
                    except ServiceError as exc:  # it can no longer be paired at all
                        changed = exc.message
                    else:
                        if now_number != number or await player_repo.pairing_numbers(
                                conn, t.id) != numbers:
                            changed = changed_text
                    if changed is not None:
                        await conn.execute("ROLLBACK TO pairing_store")
                    await conn.execute("RELEASE pairing_store")
                if changed is not None:
                    stale = changed
                    await self._end_run(conn, t, run, number, stale, actor)
                else:
                    await run_repo.end_run(conn, t.id, token)
                    view_of = await self.course.insert_round_later(  # type: ignore[attr-defined]
                        conn, actor, prepared, number, stored.games, stored.byes, force=force,
                        explanation=stored.explanation, replaces=run.progress_id,
                        stored=stored)
        if view_of is not None:
            # built from ``stored`` after the commit (the database is free), in pieces
            return await view_of()
        assert stale is not None
        raise RoundChangedError(stale)

    async def _pairing_failed(
        self, t: TournamentRow, token: str, number: int, reason: str, actor: Actor
    ) -> None:
        async with self.ctx.db.transaction() as conn:
            run = await run_repo.get_run(conn, t.id)
            if run is not None and run.token == token:
                await self._end_run(conn, t, run, number, reason, actor)

    async def _end_run(
        self, conn: Connection, t: TournamentRow, run: run_repo.PairingRunRow,
        number: int, reason: str, actor: Actor, *, announce: bool = False,
    ) -> None:
        """Remove ``run``'s marker, tell the channel (the progress line becomes the reason;
        without one, a new post says it when ``announce``) and record it in the audit log."""
        await run_repo.end_run(conn, t.id, run.token)
        await audit(self.ctx, conn, actor, t, "round.pairing_failed", None,
                    {"round": number, "players": run.players, "reason": reason})
        if run.progress_id is not None or announce:
            payload: dict[str, Any] = {"round": number, "players": run.players, "error": reason}
            if run.progress_id is not None:
                payload["replaces"] = run.progress_id
            await self.announcer.announce(conn, t, "pairing_failed", payload)

    @operation
    async def recover_pairings(
        self, tell: Callable[[InterruptedPairing], Awaitable[bool]] | None = None
    ) -> list[int]:
        """At start-up: remove the markers nobody will ever finish (expired, or held by a
        process of this host that no longer exists), each with its audit entry. ``tell``
        (the bot's) answers the command that started the run, if it still can (True when it
        did); the channel is told otherwise, and always when a progress line was posted
        there (it becomes the reason). Returns the tournament ids."""
        freed: list[int] = []
        for run in await self._interrupted_pairings():
            told = run.reply is not None and tell is not None and await tell(run)
            if await self._end_interrupted_pairing(run, told=told):
                freed.append(run.tournament_id)
        return freed

    @operation
    async def interrupted_pairings(self) -> list[InterruptedPairing]:
        """The pairing runs a process that no longer runs left behind (expired, or held by a
        process of this host that has ended): what :meth:`recover_pairings` ends."""
        return await self._interrupted_pairings()

    async def _interrupted_pairings(self) -> list[InterruptedPairing]:
        found: list[InterruptedPairing] = []
        async with self.ctx.db.transaction(readonly=True) as conn:
            for run in await run_repo.list_runs(conn):
                if run.expires_at > self.ctx.now() and _alive(run.owner):
                    continue
                t = await tournament_repo.get_tournament(conn, run.tournament_id)
                if t is None:
                    continue
                found.append(InterruptedPairing(
                    tournament_id=t.id, guild_id=t.guild_id, tournament_name=t.name,
                    round_number=run.round_number, text=interrupted_text(t, run.round_number),
                    token=run.token, reply=_reply_of(run)))
        return found

    @operation
    async def end_interrupted_pairing(self, run: InterruptedPairing, *, told: bool) -> bool:
        """Remove ``run``'s marker (if it is still that run's) with its audit entry; tell the
        channel unless ``told`` (its command was answered) and no progress line is there.
        False when the marker was gone already (another process ended it)."""
        return await self._end_interrupted_pairing(run, told=told)

    async def _end_interrupted_pairing(self, run: InterruptedPairing, *, told: bool) -> bool:
        async with self.ctx.db.transaction() as conn:
            row = await run_repo.get_run(conn, run.tournament_id)
            t = await tournament_repo.get_tournament(conn, run.tournament_id)
            if row is None or row.token != run.token or t is None:
                return False
            system = Actor(user_id=0, guild_id=t.guild_id, display_name="swissbot",
                           is_organiser=True)
            await self._end_run(conn, t, row, row.round_number, run.text, system,
                                announce=not told)
        return True

    @operation
    async def needs_pairing_workers(self) -> bool:
        """Whether an open event is big enough to be paired in a worker (the bot then starts
        the workers at start-up rather than on the first big /round next)."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            largest = await run_repo.largest_open_event(conn)
        return self.ctx.pairing.offloads(largest)

    @operation
    async def pairing_state(self, guild_id: int, tournament: TournamentRef = None) -> str | None:
        """"Round 4 is being paired (1,000 players)" while it is, else None."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, guild_id, tournament, closed_ok=True)
            run = await run_repo.get_run(conn, t.id)
        if run is None or run.expires_at <= self.ctx.now():
            return None
        return f"Round {run.round_number} is being paired ({run.players:,} players)"


def _alive(owner: str) -> bool:
    """False when ``owner`` is a process of this host that has ended (its marker can go)."""
    host, _, pid = owner.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return True  # another host's process: only its expiry tells
    if int(pid) == os.getpid():
        return False  # called at start-up: nothing of this process is pairing yet
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _reply_columns(
    reply: DeferredReply | None, now: datetime
) -> tuple[int, str, datetime] | None:
    """What a run stores of its command's reply: nothing once it can no longer be used."""
    if reply is None or reply.until <= now:
        return None
    return reply.application_id, reply.token, reply.until


def _reply_of(run: run_repo.PairingRunRow) -> DeferredReply | None:
    if run.reply_application_id is None or run.reply_token is None or run.reply_until is None:
        return None
    return DeferredReply(application_id=run.reply_application_id, token=run.reply_token,
                         until=run.reply_until)


def interrupted_text(t: TournamentRow, number: int) -> str:
    """What the organiser is told of a pairing that a stop or a crash of the bot cut short
    (the tournament row as it is without that pairing: still in registration for round 1)."""
    again = "/tournament start" if t.status == "registration" else "/round next"
    return (f"Pairing round {number} of '{t.name}' was interrupted by a restart of the bot; "
            f"nothing was changed: run {again} again.")


def _terms(row: TournamentRow) -> tuple[Any, ...]:
    """What of the tournament row a pairing and its announcement depend on (its settings
    are not under the revision: the row is compared instead)."""
    settings = settings_of(row)
    return (row.status, row.name, row.seed, settings.rounds, settings.scoring,
            settings.colours, pairing_config(row))


def _seating(t: TournamentRow, number: int, snapshot: Snapshot) -> Seating:
    settings = settings_of(t)
    return Seating(
        tournament_id=t.id, tournament_name=t.name, round_number=number,
        total_rounds=settings.rounds, use_colours=settings.colours, scoring=settings.scoring,
        seats={n: (row.id, row.name, row.user_id) for n, row in snapshot.by_number.items()},
    )
