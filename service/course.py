"""The course of rounds: pairing a round from the engine and storing it, closing a round,
and what a round's completion sets off (results and standings posts, automatic drops, the
top cut, the end of the event). The operations of ``service.rounds``,
``service.pairing_runs``, ``service.results``, ``service.drafts``, ``service.timers`` and
``service.tournaments`` share it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from service.base import Context, audit, part, require_not_pairing
from service.errors import (
    ConflictError,
    PairingFailedError,
    RoundChangedError,
    RoundNotCompleteError,
    TournamentNotRunningError,
)
from service.explain import pairing_facts
from service.model import Snapshot, load_snapshot, pairing_config, settings_of
from service.playoff_state import load_bracket
from service.present import round_payload, round_view
from service.schedule import arm_round, arm_schedule
from service.stored_round import StoredRound
from service.views import Actor, RoundView
from storage import extras as extras_repo
from storage import journal
from storage import players as player_repo
from storage import requests as request_repo
from storage import rounds as round_repo
from storage import tournaments as tournament_repo
from storage.connection import Connection, IntegrityError
from storage.rounds import GameRow
from storage.tournaments import TournamentRow
from swiss.model import Result
from swiss.pairing import PairingConfig, PairingError, pair_round
from swiss.pairing.types import PairingResult
from swiss.wording import numbered, status_phrase

if TYPE_CHECKING:
    from service.announcer import Announcer
    from service.deferred import DeferredPosts
    from service.playoff_state import BracketState

SYSTEM_USER_ID = 0  # the audit log's actor for automatic actions


class TopCut(Protocol):
    """What the course asks of the top cut (``service.playoffs.Playoffs``), which is built on
    the course: it closes and records its rounds here."""

    async def cut(self, conn: Connection, actor: Actor, t: TournamentRow,
                  swiss_rounds: int) -> bool: ...

    async def pair_playoff(self, conn: Connection, actor: Actor, t: TournamentRow,
                           state: BracketState, *, force: bool) -> RoundView: ...

    async def after_playoff_round(self, conn: Connection, t: TournamentRow,
                                  state: BracketState, number: int) -> bool: ...


@part
class Course:
    """``top_cut`` is a getter: the top cut is built after the course, on it; the course
    hands it a finished Swiss and its bracket rounds."""

    ctx: Context
    announcer: Announcer
    deferred: DeferredPosts
    top_cut: Callable[[], TopCut]

    @property
    def playoffs(self) -> TopCut:
        return self.top_cut()

    async def record_round_event(
        self, conn: Connection, actor: Actor, t: TournamentRow, number: int,
        event: str,
    ) -> None:
        await round_repo.record_round_event(conn, t.id, number, event,
                                            at=self.ctx.precise_now(), actor_id=actor.user_id)

    async def pair(
        self, conn: Connection, actor: Actor, t: TournamentRow, *, force: bool
    ) -> RoundView:
        await require_not_pairing(self.ctx, conn, t, "it was not paired again")
        state = await load_bracket(conn, t.id)
        if state is not None:  # the Swiss is over: the next round is the bracket's
            return await self.playoffs.pair_playoff(conn, actor, t, state, force=force)
        number, snapshot, result = await self.engine_pairing(conn, actor, t, force=force)
        games = [(snapshot.row(g.white).id, snapshot.row(g.black).id) for g in result.games]
        byes = [(snapshot.row(b.player).id, b.kind.value) for b in result.byes]
        settings = settings_of(t)
        beta = pairing_config(t).beta
        facts = pairing_facts(snapshot.tournament, result, settings.system, beta)
        return await self.insert_round(conn, actor, t, number, games, byes, force=force,
                                        explanation=facts)

    async def engine_pairing(
        self, conn: Connection, actor: Actor, t: TournamentRow, *, force: bool
    ) -> tuple[int, Snapshot, PairingResult]:
        """The engine's pairing of the next round (nothing stored but a forced closing of the
        current round), in the event loop and the caller's transaction: only for the paths
        that pair inside one (the top cut's knockout, whose rounds are a handful of games)."""
        number, snapshot, config, _ = await self.pairing_input(conn, actor, t, force=force)
        try:
            result = pair_round(snapshot.tournament, config)
        except PairingError as exc:
            raise no_pairing(t, number, exc) from None
        return number, snapshot, result

    async def pairing_input(
        self, conn: Connection, actor: Actor, t: TournamentRow, *, force: bool
    ) -> tuple[int, Snapshot, PairingConfig, int]:
        """What the engine pairs the next round from: (round number, snapshot, config,
        players to pair). Checks that the round may be paired; closes the current round
        when ``force`` (so call it inside a savepoint to only look)."""
        number = await self.round_to_pair(conn, actor, t, force=force)
        snapshot = await load_snapshot(conn, t)
        return number, snapshot, pairing_config(t), players_to_pair(t, snapshot, number)

    async def round_to_pair(
        self, conn: Connection, actor: Actor, t: TournamentRow, *, force: bool
    ) -> int:
        """The number of the next round, checked as :meth:`_pairing_input` does but without
        reading the snapshot (the store of a round paired outside the transaction repeats
        this part; its revision check stands for the rest)."""
        settings = settings_of(t)
        last = await round_repo.last_round(conn, t.id)
        number = 1 if last is None else last.number + 1
        if number > settings.rounds:
            if await journal.deferred_of(conn, t.id, "swiss_final") is not None:
                raise ConflictError(  # service.playoffs._cut: seeded after its commit
                    f"The top cut of '{t.name}' is being seeded from the final standings: "
                    "run /round next again in a few seconds.")
            raise ConflictError(
                f"All {settings.rounds} rounds of '{t.name}' have been paired: finish it with "
                "/tournament finish."
            )
        if last is not None:
            # counted first: the 1,500 games of a complete round are not read to find none
            unfinished = [] if not await round_repo.count_unfinished(conn, last.id) else [
                g for g in await round_repo.list_games(conn, t.id, last.number)
                if g.state != "final"
            ]
            if unfinished and not force:
                boards = numbered("board", (g.board for g in unfinished))
                have = "has" if len(unfinished) == 1 else "have"
                raise RoundNotCompleteError(
                    f"Round {last.number} of '{t.name}' is not complete: {boards} {have} "
                    f"no final result. Set {'it' if len(unfinished) == 1 else 'them'} with "
                    "/result set, or pair anyway with force "
                    "(reported results then stand, the other games count as double forfeits)."
                )
            if unfinished:
                await self.close_round(conn, actor, t, last.number, unfinished)
        return number

    async def insert_round(
        self,
        conn: Connection,
        actor: Actor,
        t: TournamentRow,
        number: int,
        games: list[tuple[int, int]],
        byes: list[tuple[int, str]],
        *,
        force: bool,
        draft_version: int | None = None,
        explanation: dict[str, Any] | str | None = None,
        replaces: int | None = None,
        stored: StoredRound | None = None,
    ) -> RoundView:
        """Store round ``number`` (games as (white, black) player ids in board order, byes as
        (player id, kind)), announce it and audit it: the engine's pairing and a published
        draft end here alike, so a manually paired round is history like any other."""
        later = await self.insert_round_later(
            conn, actor, t, number, games, byes, force=force, draft_version=draft_version,
            explanation=explanation, replaces=replaces, stored=stored)
        return await later()

    async def insert_round_later(
        self,
        conn: Connection,
        actor: Actor,
        t: TournamentRow,
        number: int,
        games: list[tuple[int, int]],
        byes: list[tuple[int, str]],
        *,
        force: bool,
        draft_version: int | None = None,
        explanation: dict[str, Any] | str | None = None,
        replaces: int | None = None,
        stored: StoredRound | None = None,
    ) -> Callable[[], Awaitable[RoundView]]:
        """:meth:`_insert_round`, returning how to get the round's view: with ``stored``
        (built in the worker) the view is made from it alone, so the caller can make it
        after its commit instead of holding the database meanwhile."""
        settings = settings_of(t)
        now = self.ctx.now()
        deadline = (
            None
            if settings.deadline_minutes is None
            else now + timedelta(minutes=settings.deadline_minutes)
        )
        try:
            round_id = await round_repo.insert_round(
                conn, tournament_id=t.id, number=number, now=now,
                paired_by=actor.user_id, forced=force, deadline=deadline,
            )
        except IntegrityError:
            raise ConflictError(f"Round {number} of '{t.name}' is already paired.") from None
        await round_repo.insert_games(conn, tournament_id=t.id, round_id=round_id, pairs=games)
        for player_id, kind in byes:
            await round_repo.insert_bye(conn, tournament_id=t.id, round_id=round_id,
                                        player_id=player_id, kind=kind)
        # A draft of this round is history now (and of no other round: it would be stale).
        await request_repo.delete_draft(conn, t.id)
        if explanation is not None:
            # What the engine saw, for /why: written with the round, removed with it (undo).
            await extras_repo.save_explanation(conn, round_id, explanation)
        await tournament_repo.set_auto_advance_due(conn, t.id, None)
        await self.record_round_event(conn, actor, t, number, "paired")
        await arm_round(conn, t, settings, round_id=round_id, number=number,
                        deadline=deadline, now=now)
        encode = None
        view: RoundView | None = None
        if stored is not None:  # built with the pairing (in the worker for a big event)
            game_ids = await round_repo.game_ids(conn, round_id)
            payload = stored.payload_for(game_ids, now, deadline)
            encode = stored.encoder(game_ids)  # its JSON too, but for the ids
        else:
            view = await round_view(conn, t, number)
            payload = round_payload(view)
        if replaces is not None:  # the "Pairing round N..." line becomes this post
            payload["replaces"] = replaces
        await self.announcer.announce(conn, t, "pairings", payload, encode=encode)
        next_at = await arm_schedule(conn, t, settings, number + 1, now)
        if next_at is not None:
            await self.announcer.announce(conn, t, "round_scheduled", {
                "round": number + 1, "at": next_at.isoformat(),
                "at_unix": int(next_at.timestamp()),
            })
        record: dict[str, object] = {"round": number, "forced": force,
                                    "system": settings.system}
        if view is None:
            assert stored is not None
            record["games"], record["byes"] = stored.audit_games, stored.audit_byes
        else:
            record["games"] = [[g.white.number, g.black.number] for g in view.games]
            record["byes"] = [[b.player.number, b.kind] for b in view.byes]
        if draft_version is not None:
            record["draft_version"] = draft_version
        await audit(self.ctx, conn, actor, t, "round.pair", None, record)
        if view is None:
            assert stored is not None
            return partial(stored.view_in_turns, game_ids, now, deadline)
        built = view

        async def as_built() -> RoundView:
            return built

        return as_built

    async def close_round(
        self,
        conn: Connection,
        actor: Actor,
        t: TournamentRow,
        number: int,
        unfinished: list[GameRow],
        *,
        announce: bool = True,
    ) -> None:
        """A forced pairing (or finish) ends the current round: a waiting report stands as if
        confirmed, games without one (or disputed) count as double forfeits. Organisers can
        still correct any of them with set_result."""
        now = self.ctx.now()
        for game in unfinished:
            if game.state == "reported" and game.reported_result is not None:
                result, white_games, black_games = (
                    game.reported_result, game.reported_white_games, game.reported_black_games)
            else:
                result, white_games, black_games = Result.DOUBLE_FORFEIT.value, None, None
            await round_repo.set_final_result(conn, game.id, result=result,
                                              white_games=white_games, black_games=black_games,
                                              user_id=actor.user_id, now=now)
            await audit(self.ctx, conn, actor, t, "result.forced",
                        {"result": game.result, "state": game.state},
                        {"game": game.id, "round": number, "result": result})
        if announce:
            await self.after_final(conn, t, number)
        else:
            rnd = await round_repo.get_round(conn, t.id, number)
            assert rnd is not None
            await round_repo.complete_round(conn, rnd.id, now)

    async def after_final(
        self, conn: Connection, t: TournamentRow, round_number: int
    ) -> tuple[bool, bool]:
        """Called when a game of ``round_number`` became final. If it was the last open game:
        the round is complete, results and standings go to the outbox, and either the final
        standings (last round: the tournament finishes) or the auto-advance due time are set.
        Returns (round completed now, tournament finished now)."""
        rnd = await round_repo.get_round(conn, t.id, round_number)
        if rnd is None or await round_repo.count_unfinished(conn, rnd.id):
            return False, False
        now = self.ctx.now()
        if not await round_repo.complete_round(conn, rnd.id, now):
            return False, False
        settings = settings_of(t)
        view = await round_view(conn, t, rnd.number)
        await self.announcer.announce(conn, t, "round_results", round_payload(view))
        if rnd.number < settings.rounds:
            await self.drop_absentees(conn, t, rnd.number)
        last = await round_repo.last_round(conn, t.id)
        is_latest = last is not None and last.number == rnd.number
        state = await load_bracket(conn, t.id)
        if state is not None and rnd.number > state.playoffs.swiss_rounds:
            return True, await self.playoffs.after_playoff_round(conn, t, state, rnd.number)
        current = await tournament_repo.get_tournament(conn, t.id) or t
        if is_latest and rnd.number >= settings.rounds and current.status == "running" \
                and await self.playoffs.cut(conn, system_actor(t), t, rnd.number):
            return True, False  # the Swiss is over; the bracket starts with /round next
        # The standings: computed here for a small event, after the commit and off the
        # event loop for a big one (service.deferred).
        if is_latest and rnd.number >= settings.rounds and current.status == "running":
            await tournament_repo.set_status(conn, t.id, "finished", expected=("running",),
                                             now=now)
            await self.deferred.announce_standings(conn, t, "final_standings", {}, final=True)
            await audit(self.ctx, conn, system_actor(t), t, "tournament.finish", None,
                        {"automatic": True})
            return True, True
        await self.deferred.announce_standings(conn, t, "standings", {}, after_round=rnd.number)
        if is_latest and settings.auto_advance_minutes is not None and \
                current.status == "running":
            due = now + timedelta(minutes=settings.auto_advance_minutes)
            await tournament_repo.set_auto_advance_due(conn, t.id, due)
        return True, False

    async def drop_absentees(
        self, conn: Connection, t: TournamentRow, round_number: int
    ) -> None:
        """Round ``round_number`` is complete: drop every active player whose last
        ``noshow_drop_after`` games (this one included) were all lost by forfeit."""
        limit = settings_of(t).noshow_drop_after
        if not limit:
            return
        players = {p.id: p for p in await player_repo.list_players(conn, t.id)}
        missed: dict[int, list[bool]] = {}  # player -> forfeited?, latest round first
        games = await round_repo.list_games(conn, t.id)
        byes = await round_repo.list_byes(conn, t.id)
        played: dict[int, dict[int, bool]] = {}
        for g in games:
            if g.round_number > round_number:
                continue
            white_missed = g.result in (Result.BLACK_FORFEIT_WIN.value,
                                        Result.DOUBLE_FORFEIT.value)
            black_missed = g.result in (Result.WHITE_FORFEIT_WIN.value,
                                        Result.DOUBLE_FORFEIT.value)
            played.setdefault(g.white_id, {})[g.round_number] = white_missed
            played.setdefault(g.black_id, {})[g.round_number] = black_missed
        for b in byes:  # a bye is not a missed game: it breaks the run
            if b.round_number <= round_number:
                played.setdefault(b.player_id, {})[b.round_number] = False
        for pid, rounds in played.items():
            missed[pid] = [rounds[n] for n in sorted(rounds, reverse=True)]
        for pid, run in missed.items():
            row = players.get(pid)
            if row is None or row.status != "active" or len(run) < limit:
                continue
            if not all(run[:limit]) or round_number not in played[pid]:
                continue
            if not await player_repo.withdraw(conn, pid, round_number + 1):
                continue
            await audit(self.ctx, conn, system_actor(t), t, "player.auto_drop",
                        {"status": "active"},
                              {"status": "withdrawn", "player": pid, "from_round":
                               round_number + 1, "missed_in_a_row": limit})
            await self.announcer.announce(conn, t, "player_dropped", {
                "player": {"player_id": pid, "name": row.name, "number": row.number,
                           "user_id": row.user_id},
                "missed": limit, "round": round_number,
            })


def system_actor(t: TournamentRow) -> Actor:
    """The actor of automatic actions (deliveries, timers, the top cut) in ``t``'s guild."""
    return Actor(user_id=SYSTEM_USER_ID, guild_id=t.guild_id, display_name="swissbot",
                 is_organiser=True)


def require_round_of(
    t: TournamentRow, game_round: int, round_number: int | None, *, refused: str, hint: str
) -> None:
    """Refuse (``RoundChangedError``) a player's action meant for round ``round_number`` when
    his current game is of another round (a round was paired or undone in between)."""
    if round_number is None or round_number == game_round:
        return
    raise RoundChangedError(
        f"This was meant for round {round_number} of '{t.name}', but your current game is in "
        f"round {game_round}, so {refused}. {hint}"
    )


def require_running(t: TournamentRow) -> None:
    if t.status != "running":
        hint = " Start it with /tournament start." if t.status == "registration" else ""
        raise TournamentNotRunningError(f"'{t.name}' is not running (it is "
                                        f"{status_phrase(t.status)}).{hint}")


def players_to_pair(t: TournamentRow, snapshot: Snapshot, number: int) -> int:
    """How many players round ``number`` pairs (refused below 2)."""
    model = snapshot.tournament
    requested = model.requested_byes.get(number, {})
    pairable = [
        p.id
        for p in model.players
        if model.is_active(p.id, number) and p.id not in requested
    ]
    if len(pairable) < 2 and not requested:
        raise ConflictError(
            f"Round {number} of '{t.name}' cannot be paired: fewer than 2 players are still "
            "playing. Finish the tournament instead."
        )
    return len(pairable)


def no_pairing(t: TournamentRow, number: int, exc: PairingError) -> PairingFailedError:
    return PairingFailedError(
        f"No valid pairing exists for round {number} of '{t.name}': {exc}. Allow "
        "rematches (rematches=avoid) or remove a forbidden pair."
    )
