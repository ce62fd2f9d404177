"""Timers that act: round reminders, the deadline action, no-show claims and scheduled rounds.

Every timer is a stored row (``storage.timers``), armed in the transaction of the change that
calls for it (a round paired, a claim made, a schedule set). The bot's background task calls
:meth:`Timers.run_timers` every few seconds; the service never sleeps and reads the time from
its clock, so the tests drive time with a fake one. Each due timer is handled in its own
``BEGIN IMMEDIATE`` transaction that first marks it fired (``WHERE fired_at IS NULL``): the
action happens together with that mark or not at all, so a timer fires exactly once across
restarts and two concurrent ticks, and a timer that fell due while the bot was down fires at
the next tick.

A scheduled round is the exception: it is paired like ``/round next``, between two short
transactions with the engine in between (``service.pairing_runs``), and its timer is marked
fired in the second one, together with the round. Refused for the moment (busy, being paired,
changed meanwhile), it stays pending and is tried again a minute later.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from service.base import Context, TournamentRef, audit, find_tournament, part, seat
from service.course import SYSTEM_USER_ID, require_round_of, system_actor
from service.errors import (
    AlreadyFinalError,
    ConflictError,
    NotPairedError,
    NotYourGameError,
    PairingBusyError,
    PairingInProgressError,
    RoundChangedError,
    ServiceError,
    UnknownGameError,
)
from service.model import settings_of
from service.operation import operation
from service.present import stored_game_view, to_jsonable
from service.results import _me, _require_playing
from service.views import Actor, GameView, NoShowView, TimerRun
from storage import players as player_repo
from storage import rounds as round_repo
from storage import timers as timer_repo
from storage import tournaments as tournament_repo
from storage.connection import Connection
from storage.rounds import GameRow, RoundRow
from storage.shards import ALL_SHARDS, Shards
from storage.timers import NoShowClaimRow, TimerRow
from storage.tournaments import TournamentRow
from swiss.model import Result

if TYPE_CHECKING:
    from service.announcer import Announcer
    from service.course import Course
    from service.lifecycle import Lifecycle
    from service.pairing_runs import PairingRuns
    from service.results import Results


log = logging.getLogger(__name__)

# How long a scheduled start waits before looking again when the round before it has neither
# finished nor a deadline that would close it.
SCHEDULE_RECHECK = timedelta(minutes=1)


@part
class Timers:
    """The background tick for stored timers, and the no-show claim / objection."""

    ctx: Context
    announcer: Announcer
    course: Course
    runs: PairingRuns
    results: Results
    lifecycle: Lifecycle


    # -- the tick --------------------------------------------------------------------------------
    @operation
    async def run_timers(self, now: datetime | None = None, *, shards: Shards = ALL_SHARDS
                         ) -> TimerRun:
        """Carry out every timer due at ``now`` (default: the clock), each once, oldest first.
        ``shards``: only the guilds this process serves (Discord sharding); the
        claim inside each timer's transaction keeps it exactly once even if two processes
        both look at one.

        A timer whose action is refused (say, a scheduled round that cannot be paired) is
        marked failed and announced to the organisers, never retried forever."""
        moment = now or self.ctx.now()
        async with self.ctx.db.transaction(readonly=True) as conn:
            due = await timer_repo.due_timers(conn, moment, shards)
        fired: list[str] = []
        skipped = failed = 0
        for timer in due:
            outcome = await self._run_one(timer.id, moment)
            if outcome == "fired":
                fired.append(f"tournament {timer.tournament_id} round {timer.round_number}: "
                             f"{timer.kind}")
            elif outcome == "failed":
                failed += 1
            elif outcome is not None:
                skipped += 1
        return TimerRun(fired=tuple(fired), skipped=skipped, failed=failed)

    async def _run_one(self, timer_id: int, now: datetime) -> str | None:
        """One timer in one transaction; returns its outcome (None: another tick had it, or
        it was put off)."""
        async with self.ctx.db.transaction() as conn:
            timer = await timer_repo.get_timer(conn, timer_id)
            if timer is None or timer.fired_at is not None or timer.due_at > now:
                return None  # another tick (or process) fired it, or it was moved
            t = await tournament_repo.get_tournament(conn, timer.tournament_id)
            # read again now that the tournament is ours (PostgreSQL locks it in
            # get_tournament): another process may have fired or moved it in between
            timer = await timer_repo.get_timer(conn, timer_id)
            if timer is None or timer.fired_at is not None or timer.due_at > now:
                return None
            if t is None or t.status not in ("registration", "running"):
                await timer_repo.claim_timer(conn, timer.id, now, "skipped")
                return "skipped"
            if timer.kind != "round_start":
                return await self._fire(conn, t, timer, now)
            # Decided before the claim: a start that must wait is put off, not fired.
            wait = await self._start_waits(conn, t, timer, now)
            if wait is not None:
                await timer_repo.postpone(conn, timer.id, wait)
                return None
            force = await self._start_plan(conn, t, timer)
            if force is None:
                claimed = await timer_repo.claim_timer(conn, timer.id, now, "skipped")
                return "skipped" if claimed else None
        # Paired like /round next, between two short transactions: no transaction is held
        # while the engine computes (service.pairing_runs).
        return await self._scheduled_start(t, timer, now, force=force)

    async def _fire(
        self, conn: Connection, t: TournamentRow, timer: TimerRow, now: datetime
    ) -> str | None:
        """Claim ``timer`` and act, both in the caller's transaction."""
        if not await timer_repo.claim_timer(conn, timer.id, now):
            return None
        await conn.execute("SAVEPOINT timer")
        try:
            outcome = await self._act(conn, t, timer, now)
        except ServiceError as exc:
            await conn.execute("ROLLBACK TO timer")
            outcome = "failed"
            await self.announcer.announce(conn, t, "timer_failed", {
                "kind": timer.kind, "round": timer.round_number, "error": exc.stored(),
            })
        except Exception as exc:
            # A bug must not make the timer fire again at every tick: record and go on.
            await conn.execute("ROLLBACK TO timer")
            log.exception("timer %s (%s) failed", timer.id, timer.kind)
            outcome = "failed"
            await self.announcer.announce(conn, t, "timer_failed", {
                "kind": timer.kind, "round": timer.round_number,
                "error": f"internal error ({type(exc).__name__})",
            })
        await conn.execute("RELEASE timer")
        await timer_repo.set_outcome(conn, timer.id, outcome)
        if outcome == "failed":
            await audit(self.ctx, conn, system_actor(t), t, "timer.failed", None,
                        {"timer": timer.id, "kind": timer.kind,
                         "round": timer.round_number})
        return outcome

    async def _act(
        self, conn: Connection, t: TournamentRow, timer: TimerRow, now: datetime
    ) -> str:
        if timer.kind == "reminder":
            return await self._remind(conn, t, timer, now)
        if timer.kind == "deadline":
            return await self._deadline(conn, t, timer, now)
        return await self._noshow_expired(conn, t, timer, now)

    # -- reminders and the deadline ------------------------------------------------------------
    async def _timer_round(
        self, conn: Connection, t: TournamentRow, timer: TimerRow
    ) -> RoundRow | None:
        rnd = await round_repo.get_round(conn, t.id, timer.round_number)
        return rnd if rnd is not None and rnd.id == timer.round_id else None

    async def _remind(
        self, conn: Connection, t: TournamentRow, timer: TimerRow, now: datetime
    ) -> str:
        """Ping the players of the round's open games (only them); the players who opted in
        to DMs and still have to act also get one by DM (``Notify.announced``), queued in
        this transaction, so exactly once like the timer. A reminder that comes after the
        deadline (the bot was down) says nothing: the deadline has acted."""
        rnd = await self._timer_round(conn, t, timer)
        if rnd is None or rnd.state == "complete" or rnd.deadline is None or now >= rnd.deadline:
            return "skipped"
        open_games = [g for g in await round_repo.list_games(conn, t.id, rnd.number)
                      if g.state != "final"]
        if not open_games:
            return "skipped"
        games = await self._games_payload(conn, t, open_games)
        for game, row in zip(games, open_games, strict=True):
            # who still has something to do (the DM reminders go to them only): both players
            # of an unreported game, the opponent of a report; a dispute is the organisers'
            game["to_act"] = _to_act(row, game)
            game["state"] = row.state
        await self.announcer.announce(conn, t, "deadline_reminder", {
            "round": rnd.number, "deadline": rnd.deadline.isoformat(),
            "deadline_unix": int(rnd.deadline.timestamp()),
            "minutes_left": max(1, int((rnd.deadline - now).total_seconds() // 60)),
            "games": games,
            "mention_user_ids": _players_of(games),
        })
        await audit(self.ctx, conn, system_actor(t), t, "timer.reminder", None,
                    {"round": rnd.number, "minutes": timer.subject,
                     "games": [g.id for g in open_games]})
        return "fired"

    async def _deadline(
        self, conn: Connection, t: TournamentRow, timer: TimerRow, now: datetime
    ) -> str:
        """The round's deadline: the configured action on each open game (read now, so a
        setting changed during the round applies)."""
        rnd = await self._timer_round(conn, t, timer)
        settings = settings_of(t)
        if rnd is None or rnd.state == "complete" or settings.deadline_action == "none":
            return "skipped"
        open_games = [g for g in await round_repo.list_games(conn, t.id, rnd.number)
                      if g.state != "final"]
        if not open_games:
            return "skipped"
        decided: list[tuple[GameRow, str, str]] = []  # game, result, why
        waiting: list[GameRow] = []
        for game in open_games:
            action = settings.deadline_action
            if action == "reporter-wins":
                if game.state == "reported" and game.reported_result is not None:
                    decided.append((game, game.reported_result, "reporter-wins"))
                    continue
                action = settings.deadline_fallback
            if action == "draw":
                decided.append((game, Result.DRAW.value, "draw"))
            elif action == "double-loss":
                decided.append((game, Result.DOUBLE_FORFEIT.value, "double-loss"))
            else:
                waiting.append(game)
        system = system_actor(t)
        for game, result, why in decided:
            stands = why == "reporter-wins"
            await round_repo.set_final_result(
                conn, game.id, result=result,
                white_games=game.reported_white_games if stands else None,
                black_games=game.reported_black_games if stands else None,
                user_id=SYSTEM_USER_ID, now=now,
            )
            await audit(self.ctx, conn, system, t, "result.deadline",
                        {"result": game.result, "state": game.state},
                        {"game": game.id, "round": rnd.number, "result": result,
                         "action": why})
        players = {p.id: p for p in await player_repo.list_players(conn, t.id)}
        guild = await tournament_repo.get_guild_settings(conn, t.guild_id)
        await self.announcer.announce(conn, t, "deadline_passed", {
            "round": rnd.number,
            "action": settings.deadline_action,
            "decided": [
                {**_pair_payload(g, players), "result": r, "why": why} for g, r, why in decided
            ],
            "waiting": [_pair_payload(g, players) for g in waiting],
            "organiser_role_id": guild.organiser_role_id,
        })
        await audit(self.ctx, conn, system, t, "timer.deadline", None, {
            "round": rnd.number, "action": settings.deadline_action,
            "decided": [g.id for g, _, _ in decided], "waiting": [g.id for g in waiting],
        })
        if decided:
            await self.course.after_final(conn, t, rnd.number)
        return "fired"

    async def _games_payload(
        self, conn: Connection, t: TournamentRow, games: list[GameRow]
    ) -> list[dict[str, Any]]:
        players = {p.id: p for p in await player_repo.list_players(conn, t.id)}
        return [_pair_payload(g, players) for g in games]

    # -- scheduled rounds ------------------------------------------------------------------------
    async def _start_waits(
        self, conn: Connection, t: TournamentRow, timer: TimerRow, now: datetime
    ) -> datetime | None:
        """When a due scheduled start must wait: the round before is still being played and
        its deadline (if any) has not passed. Returns when to look again, else None."""
        if timer.round_number == 1 or t.status != "running":
            return None
        last = await round_repo.last_round(conn, t.id)
        if last is None or last.number != timer.round_number - 1 or last.state == "complete":
            return None
        if last.deadline is not None and now >= last.deadline:
            return None
        if last.deadline is not None:
            return last.deadline
        return now + SCHEDULE_RECHECK

    async def _start_plan(
        self, conn: Connection, t: TournamentRow, timer: TimerRow
    ) -> bool | None:
        """Whether the scheduled round is paired, with the same round check as ``/round next
        round:N`` (if an organiser paired or undid a round meanwhile, the schedule does
        nothing): None to skip it, else the ``force`` of its pairing."""
        if settings_of(t).first_round_at is None:
            return None
        if timer.round_number == 1:
            return False if t.status == "registration" else None
        last = await round_repo.last_round(conn, t.id)
        if t.status != "running" or last is None or last.number != timer.round_number - 1:
            return None
        # Its deadline has passed (else we would have waited): open games close like a forced
        # /round next (a waiting report stands, the others are double forfeits).
        return last.state != "complete"

    async def _scheduled_start(
        self, t: TournamentRow, timer: TimerRow, now: datetime, *, force: bool
    ) -> str | None:
        """Pair the scheduled round through the two-step path. The timer is marked fired in
        ``prepare``, so in the transaction that stores the round (both or neither): exactly
        once across processes. A refusal for the moment (the concurrency limit, the round
        being paired elsewhere, a change while the engine ran) leaves it pending and looks
        again a minute later; a pairing that cannot be made marks it failed."""
        system = system_actor(t)

        async def check(conn: Connection, fresh: TournamentRow) -> None:
            current = await timer_repo.get_timer(conn, timer.id)
            # (not its due time: a concurrent pass that found the round being paired put it
            # off by a minute, and this pass must still store the round it paired)
            if current is None or current.fired_at is not None:
                raise _TimerGone("another tick fired the scheduled start")
            if await self._start_plan(conn, fresh, current) is None:
                raise _TimerSkipped("the round moved on")

        async def prepare(conn: Connection, fresh: TournamentRow) -> TournamentRow:
            await check(conn, fresh)  # again in the store step: still pending, still next
            if not await timer_repo.claim_timer(conn, timer.id, now):
                raise _TimerGone("another tick fired the scheduled start")
            details: dict[str, Any] = {"round": timer.round_number}
            if timer.round_number == 1:
                fresh = await self.lifecycle.open_play(conn, system, fresh)  # type: ignore[attr-defined]
            else:
                details["forced"] = force
            await audit(self.ctx, conn, system, fresh, "timer.round_start", None, details)
            return fresh

        try:
            await self.runs.pair_in_two_steps(  # type: ignore[attr-defined]
                system, t.id, force=force, check=check, prepare=prepare)
        except _TimerGone:
            return None
        except _TimerSkipped:
            async with self.ctx.db.transaction() as conn:
                claimed = await timer_repo.claim_timer(conn, timer.id, now, "skipped")
            return "skipped" if claimed else None
        except (PairingBusyError, PairingInProgressError, RoundChangedError):
            # Busy, being paired elsewhere, or changed between look and store (the store step
            # turns a fired or moved timer into this too): pending, tried again in a minute.
            async with self.ctx.db.transaction() as conn:
                await timer_repo.postpone(conn, timer.id, self.ctx.now() + SCHEDULE_RECHECK)
            return None
        except ServiceError as exc:
            return await self._start_failed(t, timer, now, exc.message)
        except Exception as exc:
            # A bug must not make the timer fire again at every tick: record and go on.
            log.exception("timer %s (%s) failed", timer.id, timer.kind)
            return await self._start_failed(t, timer, now,
                                            f"internal error ({type(exc).__name__})")
        return "fired"

    async def _start_failed(
        self, t: TournamentRow, timer: TimerRow, now: datetime, error: str
    ) -> str | None:
        """Mark the scheduled start failed (once) and tell the organisers."""
        async with self.ctx.db.transaction() as conn:
            if not await timer_repo.claim_timer(conn, timer.id, now, "failed"):
                return None
            await self.announcer.announce(conn, t, "timer_failed", {
                "kind": timer.kind, "round": timer.round_number, "error": error,
            })
            await audit(self.ctx, conn, system_actor(t), t, "timer.failed", None,
                        {"timer": timer.id, "kind": timer.kind,
                         "round": timer.round_number})
        return "failed"

    # -- no-shows --------------------------------------------------------------------------------
    @operation
    async def claim_no_show(
        self,
        actor: Actor,
        tournament: TournamentRef = None,
        *,
        round_number: int | None = None,
    ) -> NoShowView:
        """A player says the opponent of the current round did not show up. Allowed from
        ``noshow_grace_minutes`` after the round was paired, while nobody reported the game;
        the opponent is pinged and may object for ``noshow_grace_minutes``; then the game is
        a forfeit win for the claimant (a stored timer). ``round_number`` as for
        report_result."""
        return await self.record_no_show_claim(actor, tournament, round_number=round_number)

    async def record_no_show_claim(
        self, actor: Actor, tournament: TournamentRef, *, round_number: int | None,
        facts: dict[str, Any] | None = None, grace_minutes: int | None = None,
    ) -> NoShowView:
        """The claim of :meth:`claim_no_show`; ``facts`` (what Lichess showed, for an event
        played there) go into its announcement and its audit entry, and ``grace_minutes``
        stands for the event's setting when it has none."""
        async with self.ctx.db.transaction() as conn:
            t = await find_tournament(conn, actor.guild_id, tournament)
            _require_playing(t)
            settings = settings_of(t)
            minutes = settings.noshow_grace_minutes or grace_minutes
            if minutes is None:
                raise ConflictError(
                    f"'{t.name}' does not use no-show claims: ask an organiser to set the "
                    "result with /result set."
                )
            me = await _me(conn, t, actor)
            game = await self.results.current_game_of(conn, t, me)
            require_round_of(
                t, game.round_number, round_number, refused="your no-show claim was not "
                "recorded", hint="Claim again if your opponent of the new round is missing.")
            rnd = await round_repo.get_round(conn, t.id, game.round_number)
            assert rnd is not None
            now = self.ctx.now()
            grace = timedelta(minutes=minutes)
            opens = rnd.paired_at + grace
            if now < opens:
                raise ConflictError(
                    f"Your opponent still has time to show up: you can claim a no-show from "
                    f"<t:{int(opens.timestamp())}:t> (<t:{int(opens.timestamp())}:R>)."
                )
            if game.state != "pending":
                raise AlreadyFinalError(
                    f"Board {game.board} already has a result or a report: there is no "
                    "no-show to claim. Ask an organiser if something is wrong."
                )
            claim = await timer_repo.get_claim(conn, game.id)
            if claim is not None:
                raise ConflictError(_claim_state_text(claim, game.board))
            ends = now + grace
            await timer_repo.insert_claim(conn, tournament_id=t.id, game_id=game.id,
                                          claimant_id=me.id, now=now, ends_at=ends)
            await timer_repo.insert_timer(conn, tournament_id=t.id, round_id=rnd.id,
                                          round_number=rnd.number, kind="noshow", due_at=ends,
                                          subject=game.id, now=now)
            view = await self._noshow_view(conn, t, game.id)
            extra = {} if facts is None else {"lichess": facts}
            await self.announcer.announce(conn, t, "noshow_claim",
                                          {**_noshow_payload(view), **extra})
            await audit(self.ctx, conn, actor, t, "noshow.claim", None,
                        {"game": game.id, "round": rnd.number, "by": me.id,
                         "ends_at": ends.isoformat(), **extra})
            return view

    @operation
    async def object_no_show(
        self, actor: Actor, game_id: int | None = None, tournament: TournamentRef = None
    ) -> NoShowView:
        """The opponent says "I am here" (the Object button carries ``game_id``; the command
        uses the actor's current game): the claim lapses and the game is played as usual."""
        async with self.ctx.db.transaction() as conn:
            if game_id is None:
                t = await find_tournament(conn, actor.guild_id, tournament)
                _require_playing(t)
                me = await _me(conn, t, actor)
                game = await self.results.current_game_of(conn, t, me)
            else:
                found = await round_repo.get_game(conn, game_id)
                owner = None if found is None else await tournament_repo.get_tournament(
                    conn, found.tournament_id)
                if owner is not None:  # read again under the tournament's lock (PostgreSQL)
                    found = await round_repo.get_game(conn, game_id)
                if found is None or owner is None or owner.guild_id != actor.guild_id:
                    raise UnknownGameError("This game does not exist in this server.")
                t, game = owner, found
                _require_playing(t)
                me = await _me(conn, t, actor)
            claim = await timer_repo.get_claim(conn, game.id)
            if claim is None:
                raise NotPairedError(f"Nobody claimed a no-show on board {game.board}.")
            if me.id not in (game.white_id, game.black_id) or me.id == claim.claimant_id:
                raise NotYourGameError(
                    "Only the player the no-show was claimed against can object."
                )
            now = self.ctx.now()
            if claim.state != "open" or now >= claim.ends_at:
                raise ConflictError(_claim_state_text(claim, game.board, late=True))
            if not await timer_repo.settle_claim(conn, game.id, "objected", now):
                raise ConflictError(_claim_state_text(claim, game.board, late=True))
            await timer_repo.cancel_pending(conn, t.id, "noshow", now, subject=game.id)
            view = await self._noshow_view(conn, t, game.id)
            await self.announcer.announce(conn, t, "noshow_objection", _noshow_payload(view))
            await audit(self.ctx, conn, actor, t, "noshow.object", {"state": "open"},
                        {"game": game.id, "by": me.id})
            return view

    async def _noshow_expired(
        self, conn: Connection, t: TournamentRow, timer: TimerRow, now: datetime
    ) -> str:
        """The objection time is over: a forfeit win for the claimant, unless the game moved
        on meanwhile (a result, or the opponent's own report: he did show up)."""
        assert timer.subject is not None
        claim = await timer_repo.get_claim(conn, timer.subject)
        game = await round_repo.get_game(conn, timer.subject)
        if claim is None or game is None or claim.state != "open":
            return "skipped"
        if game.state == "final" or game.state == "disputed" or (
            game.state == "reported" and game.reported_by != claim.claimant_id
        ):
            await timer_repo.settle_claim(conn, game.id, "void", now)
            return "skipped"
        await timer_repo.settle_claim(conn, game.id, "granted", now)
        result = (Result.WHITE_FORFEIT_WIN if game.white_id == claim.claimant_id
                  else Result.BLACK_FORFEIT_WIN).value
        await round_repo.set_final_result(conn, game.id, result=result, white_games=None,
                                          black_games=None, user_id=SYSTEM_USER_ID, now=now)
        await audit(self.ctx, conn, system_actor(t), t, "noshow.forfeit",
                    {"result": game.result, "state": game.state},
                    {"game": game.id, "round": game.round_number, "result": result,
                     "claimant": claim.claimant_id})
        view = await self._noshow_view(conn, t, game.id)
        await self.announcer.announce(conn, t, "noshow_forfeit", _noshow_payload(view))
        await self.course.after_final(conn, t, game.round_number)
        return "fired"

    async def _noshow_view(
        self, conn: Connection, t: TournamentRow, game_id: int
    ) -> NoShowView:
        claim = await timer_repo.get_claim(conn, game_id)
        assert claim is not None
        game: GameView = await stored_game_view(conn, t, game_id)
        claimant, opponent = ((game.white, game.black) if game.white.player_id ==
                              claim.claimant_id else (game.black, game.white))
        return NoShowView(game=game, claimant=claimant, opponent=opponent,
                          claimed_at=claim.claimed_at, ends_at=claim.ends_at,
                          state=claim.state)  # type: ignore[arg-type]

    @operation
    async def pending_timers(self, guild_id: int, tournament: TournamentRef = None
                             ) -> list[TimerRow]:
        """The tournament's timers that have not fired yet, soonest first."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, guild_id, tournament, closed_ok=True)
            return [x for x in await timer_repo.list_timers(conn, t.id) if x.fired_at is None]


def _pair_payload(game: GameRow, players: dict[int, Any]) -> dict[str, Any]:
    return {
        "game_id": game.id, "board": game.board,
        "white": to_jsonable(seat(players[game.white_id])),
        "black": to_jsonable(seat(players[game.black_id])),
    }


def _to_act(game: GameRow, payload: dict[str, Any]) -> list[int]:
    """The Discord users who still have to report (or confirm) ``game``."""
    if game.state == "pending":
        sides = ("white", "black")
    elif game.state == "reported":
        sides = ("black",) if game.reported_by == game.white_id else ("white",)
    else:
        sides = ()
    return [payload[side]["user_id"] for side in sides if payload[side].get("user_id")]


def _players_of(games: list[dict[str, Any]]) -> list[int]:
    return [s["user_id"] for g in games for s in (g["white"], g["black"]) if s.get("user_id")]


def _noshow_payload(view: NoShowView) -> dict[str, Any]:
    return {
        "round": view.game.round, "board": view.game.board, "game_id": view.game.id,
        "claimant": to_jsonable(view.claimant), "opponent": to_jsonable(view.opponent),
        "ends_at": view.ends_at.isoformat(), "ends_unix": int(view.ends_at.timestamp()),
        "state": view.state,
    }


def _claim_state_text(claim: NoShowClaimRow, board: int, *, late: bool = False) -> str:
    if claim.state == "open" and not late:
        return f"A no-show is already claimed on board {board}."
    if claim.state == "open":
        return f"The time to object on board {board} is over: the forfeit is being recorded."
    words = {"objected": "was objected to", "granted": "was granted (a forfeit)",
             "void": "lapsed (the game went on)"}
    return f"The no-show claim on board {board} {words.get(claim.state, claim.state)}."


class _TimerGone(ServiceError):
    """The scheduled start was fired or moved by another tick: nothing to do."""


class _TimerSkipped(ServiceError):
    """The scheduled round is no longer the next one (an organiser paired or undid one)."""
