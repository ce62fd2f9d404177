"""Rounds: pair the next one, undo the current one, show pairings, requested byes, forbidden
pairs, round completion and auto-advance."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from service.base import PlayerRef, ServiceBase, TournamentRef, player_view, seat
from service.confirm import ConfirmOps
from service.errors import (
    ConflictError,
    InvalidInputError,
    NotRegisteredError,
    PairingBusyError,
    RoundChangedError,
    RoundNotCompleteError,
    ServiceError,
    TournamentNotRunningError,
)
from service.explain import pairing_facts
from service.model import Snapshot, load_snapshot, pairing_config, settings_of
from service.pairing_runs import PairingRunOps, _no_pairing, _players_to_pair
from service.permissions import require_organiser
from service.playoff_state import load_bracket
from service.playoffs import PlayoffOps
from service.present import round_payload, round_view
from service.schedule import arm_round, arm_schedule
from service.stored_round import StoredRound
from service.validation import check_choice
from service.views import Actor, ByeRequestView, PlayerView, RoundView
from storage import extras as extras_repo
from storage import journal
from storage import players as player_repo
from storage import playoffs as playoff_repo
from storage import requests as request_repo
from storage import rounds as round_repo
from storage import tournaments as tournament_repo
from storage.connection import Connection, IntegrityError
from storage.journal import EncodedJSON, encode_audit
from storage.players import PlayerRow
from storage.rounds import GameRow, RoundRow
from storage.shards import ALL_SHARDS, Shards
from storage.tournaments import TournamentRow
from swiss.model import Result
from swiss.pairing import PairingConfig, PairingError, pair_round
from swiss.pairing.types import PairingResult

SYSTEM_USER_ID = 0  # the audit log's actor for automatic actions


class RoundOps(PairingRunOps, PlayoffOps, ConfirmOps, ServiceBase):
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
        require_organiser(actor, "pair rounds")

        async def check(conn: Connection, t: TournamentRow) -> None:
            _require_running(t)
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
            await self._require_course(conn, t, version, "next")

        return await self._pair_in_two_steps(actor, tournament, force=force, check=check,
                                             prepare=None)

    async def _record_round_event(
        self, conn: Connection, actor: Actor, t: TournamentRow, number: int,
        event: str,
    ) -> None:
        await round_repo.record_round_event(conn, t.id, number, event,
                                            at=self.precise_now(), actor_id=actor.user_id)

    async def _pair(
        self, conn: Connection, actor: Actor, t: TournamentRow, *, force: bool
    ) -> RoundView:
        await self._require_not_pairing(conn, t, "it was not paired again")
        state = await load_bracket(conn, t.id)
        if state is not None:  # the Swiss is over: the next round is the bracket's
            return await self._pair_playoff(conn, actor, t, state, force=force)
        number, snapshot, result = await self._engine_pairing(conn, actor, t, force=force)
        games = [(snapshot.row(g.white).id, snapshot.row(g.black).id) for g in result.games]
        byes = [(snapshot.row(b.player).id, b.kind.value) for b in result.byes]
        settings = settings_of(t)
        beta = pairing_config(t).beta
        facts = pairing_facts(snapshot.tournament, result, settings.system, beta)
        return await self._insert_round(conn, actor, t, number, games, byes, force=force,
                                        explanation=facts)

    async def _engine_pairing(
        self, conn: Connection, actor: Actor, t: TournamentRow, *, force: bool
    ) -> tuple[int, Snapshot, PairingResult]:
        """The engine's pairing of the next round (nothing stored but a forced closing of the
        current round), in the event loop and the caller's transaction: only for the paths
        that pair inside one (the top cut's knockout, whose rounds are a handful of games)."""
        number, snapshot, config, _ = await self._pairing_input(conn, actor, t, force=force)
        try:
            result = pair_round(snapshot.tournament, config)
        except PairingError as exc:
            raise _no_pairing(t, number, exc) from None
        return number, snapshot, result

    async def _pairing_input(
        self, conn: Connection, actor: Actor, t: TournamentRow, *, force: bool
    ) -> tuple[int, Snapshot, PairingConfig, int]:
        """What the engine pairs the next round from: (round number, snapshot, config,
        players to pair). Checks that the round may be paired; closes the current round
        when ``force`` (so call it inside a savepoint to only look)."""
        number = await self._round_to_pair(conn, actor, t, force=force)
        snapshot = await load_snapshot(conn, t)
        return number, snapshot, pairing_config(t), _players_to_pair(t, snapshot, number)

    async def _round_to_pair(
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
                boards = ", ".join(str(g.board) for g in unfinished)
                raise RoundNotCompleteError(
                    f"Round {last.number} of '{t.name}' is not complete: board(s) {boards} have "
                    "no final result. Set them with /result set, or pair anyway with force "
                    "(reported results then stand, the other games count as double forfeits)."
                )
            if unfinished:
                await self._close_round(conn, actor, t, last.number, unfinished)
        return number

    async def _insert_round(
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
        later = await self._insert_round_later(
            conn, actor, t, number, games, byes, force=force, draft_version=draft_version,
            explanation=explanation, replaces=replaces, stored=stored)
        return await later()

    async def _insert_round_later(
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
        now = self.now()
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
        await self._record_round_event(conn, actor, t, number, "paired")
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
        await self._announce(conn, t, "pairings", payload, encode=encode)
        next_at = await arm_schedule(conn, t, settings, number + 1, now)
        if next_at is not None:
            await self._announce(conn, t, "round_scheduled", {
                "round": number + 1, "at": next_at.isoformat(),
                "at_unix": int(next_at.timestamp()),
            })
        audit: dict[str, object] = {"round": number, "forced": force,
                                    "system": settings.system}
        if view is None:
            assert stored is not None
            audit["games"], audit["byes"] = stored.audit_games, stored.audit_byes
        else:
            audit["games"] = [[g.white.number, g.black.number] for g in view.games]
            audit["byes"] = [[b.player.number, b.kind] for b in view.byes]
        if draft_version is not None:
            audit["draft_version"] = draft_version
        await self._audit(conn, actor, t, "round.pair", None, audit)
        if view is None:
            assert stored is not None
            return partial(stored.view_in_turns, game_ids, now, deadline)
        built = view

        async def as_built() -> RoundView:
            return built

        return as_built

    async def _close_round(
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
        now = self.now()
        for game in unfinished:
            if game.state == "reported" and game.reported_result is not None:
                result, white_games, black_games = (
                    game.reported_result, game.reported_white_games, game.reported_black_games)
            else:
                result, white_games, black_games = Result.DOUBLE_FORFEIT.value, None, None
            await round_repo.set_final_result(conn, game.id, result=result,
                                              white_games=white_games, black_games=black_games,
                                              user_id=actor.user_id, now=now)
            await self._audit(conn, actor, t, "result.forced",
                              {"result": game.result, "state": game.state},
                              {"game": game.id, "round": number, "result": result})
        if announce:
            await self._after_final(conn, t, number)
        else:
            rnd = await round_repo.get_round(conn, t.id, number)
            assert rnd is not None
            await round_repo.complete_round(conn, rnd.id, now)

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
        require_organiser(actor, "undo rounds")
        early = await self._undo_read_early(actor, tournament)
        async with self.db.transaction() as conn:
            t = await self._tournament(conn, actor.guild_id, tournament)
            _require_running(t)
            await self._require_not_pairing(conn, t, "no round was undone")
            last = await round_repo.last_round(conn, t.id)
            if round_number is not None and (last is None or round_number != last.number):
                raise await _not_the_latest(conn, t, round_number, last)
            if last is None:
                raise ConflictError(f"'{t.name}' has no round to undo.")
            await self._require_course(conn, t, version, "undo")
            finals = await round_repo.count_final(conn, last.id)
            if finals and not force:
                raise ConflictError(
                    f"Round {last.number} of '{t.name}' already has {finals} final result(s): "
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
                await self._audit(conn, actor, t, "playoffs.uncut",
                                  {"seeds": list(state.playoffs.seeds)}, None)
            await round_repo.delete_round(conn, last.id)
            # Who dropped during this round was not going to play it again either.
            await player_repo.cap_withdrawals(conn, t.id, last.number)
            await tournament_repo.set_auto_advance_due(conn, t.id, None)
            await self._record_round_event(conn, actor, t, last.number, "undone")
            # The schedule starts the undone round again only at its own time, if still to come.
            await arm_schedule(conn, t, settings_of(t), last.number, self.now(),
                               future_only=True)
            await self._announce(conn, t, "round_undone", {"round": last.number,
                                                           "by": actor.display_name})
            await self._audit(conn, actor, t, "round.undo", before, {"forced": force})
            return view

    async def _undo_read_early(
        self, actor: Actor, tournament: TournamentRef
    ) -> tuple[TournamentRow, int, RoundView, EncodedJSON | None] | None:
        """For a big event: (tournament row, revision, the last round's view, its audit JSON)
        read in a read transaction and encoded in a thread before the undo's write
        transaction, which uses them when the row and the revision are still the same.
        Encoding 1,500 boards' audit JSON took 87-127 ms of the event loop inside the write
        transaction (issue 13). None for a small event or when there is nothing to undo
        (the write transaction says why)."""
        try:
            async with self.db.transaction(readonly=True) as conn:
                t = await self._tournament(conn, actor.guild_id, tournament)
                players = await player_repo.count_entrants(conn, t.id)
                if not self.pairing.offloads(players):
                    return None
                last = await round_repo.last_round(conn, t.id)
                if last is None:
                    return None
                revision = await tournament_repo.revision(conn, t.id)
                view = await round_view(conn, t, last.number)
        except ServiceError:
            return None
        before = await self.pairing.off_loop(players, _audit_json, view)
        return t, revision, view, before

    async def pairings(
        self, guild_id: int, tournament: TournamentRef = None, round_number: int | None = None
    ) -> RoundView:
        """The pairings and results of a round (default: the latest)."""
        async with self.db.transaction(readonly=True) as conn:
            t = await self._tournament(conn, guild_id, tournament, closed_ok=True)
            return await round_view(conn, t, round_number)

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
        async with self.db.transaction() as conn:
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
                requested_by=actor.user_id, now=self.now(), status=status,
            )
            await self._audit(conn, actor, t, "bye.request", None,
                              {"player": row.id, "round": number, "kind": kind,
                               "status": status})
            return ByeRequestView(player=seat(row), round=number, kind=kind,  # type: ignore[arg-type]
                                  status=status)  # type: ignore[arg-type]

    async def cancel_bye_request(
        self,
        actor: Actor,
        round_number: int | None = None,
        *,
        player: PlayerRef | None = None,
        tournament: TournamentRef = None,
    ) -> ByeRequestView:
        """Withdraw a bye request for a round not paired yet."""
        async with self.db.transaction() as conn:
            t, row, number, _ = await self._bye_target(
                conn, actor, round_number, "zero", player, tournament
            )
            kinds = [r.kind for r in await round_repo.list_bye_requests(conn, t.id)
                     if r.player_id == row.id and r.round_number == number]
            if not kinds or not await round_repo.delete_bye_request(conn, t.id, row.id, number):
                raise ConflictError(f"{row.name} has no bye request for round {number}.")
            await self._audit(conn, actor, t, "bye.cancel",
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
        t = await self._tournament(conn, actor.guild_id, tournament)
        if t.status not in ("registration", "running"):
            raise TournamentNotRunningError(f"'{t.name}' is {t.status}: no more byes.")
        if player is None:
            row = await player_repo.find_member(conn, t.id, actor.user_id)
            if row is None:
                raise NotRegisteredError(f"You are not registered in '{t.name}'.")
        else:
            row = await self._player(conn, t, player)
            if row.user_id != actor.user_id:
                require_organiser(actor, "assign byes to other players")
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

    async def forbid_pair(
        self, actor: Actor, first: PlayerRef, second: PlayerRef,
        tournament: TournamentRef = None,
    ) -> tuple[PlayerView, PlayerView]:
        """Organiser: these two must never be paired (team-mates, family)."""
        require_organiser(actor, "forbid pairings")
        async with self.db.transaction() as conn:
            t = await self._tournament(conn, actor.guild_id, tournament)
            a = await self._player(conn, t, first)
            b = await self._player(conn, t, second)
            if a.id == b.id:
                raise InvalidInputError("Name two different players to forbid a pairing.")
            if not await round_repo.insert_forbidden_pair(conn, t.id, a.id, b.id, self.now()):
                raise ConflictError(f"{a.name} and {b.name} are already kept apart.")
            await self._audit(conn, actor, t, "pair.forbid", None, {"players": [a.id, b.id]})
            return player_view(a), player_view(b)

    # -- completion and auto-advance ---------------------------------------------------------
    async def _after_final(
        self, conn: Connection, t: TournamentRow, round_number: int
    ) -> tuple[bool, bool]:
        """Called when a game of ``round_number`` became final. If it was the last open game:
        the round is complete, results and standings go to the outbox, and either the final
        standings (last round: the tournament finishes) or the auto-advance due time are set.
        Returns (round completed now, tournament finished now)."""
        rnd = await round_repo.get_round(conn, t.id, round_number)
        if rnd is None or await round_repo.count_unfinished(conn, rnd.id):
            return False, False
        now = self.now()
        if not await round_repo.complete_round(conn, rnd.id, now):
            return False, False
        settings = settings_of(t)
        view = await round_view(conn, t, rnd.number)
        await self._announce(conn, t, "round_results", round_payload(view))
        if rnd.number < settings.rounds:
            await self._drop_absentees(conn, t, rnd.number)
        last = await round_repo.last_round(conn, t.id)
        is_latest = last is not None and last.number == rnd.number
        state = await load_bracket(conn, t.id)
        if state is not None and rnd.number > state.playoffs.swiss_rounds:
            return True, await self._after_playoff_round(conn, t, state, rnd.number)
        current = await tournament_repo.get_tournament(conn, t.id) or t
        if is_latest and rnd.number >= settings.rounds and current.status == "running" \
                and await self._cut(conn, _system(t), t, rnd.number):
            return True, False  # the Swiss is over; the bracket starts with /round next
        # The standings: computed here for a small event, after the commit and off the
        # event loop for a big one (service.deferred).
        if is_latest and rnd.number >= settings.rounds and current.status == "running":
            await tournament_repo.set_status(conn, t.id, "finished", expected=("running",),
                                             now=now)
            await self._announce_standings(conn, t, "final_standings", {}, final=True)
            await self._audit(conn, _system(t), t, "tournament.finish", None,
                              {"automatic": True})
            return True, True
        await self._announce_standings(conn, t, "standings", {}, after_round=rnd.number)
        if is_latest and settings.auto_advance_minutes is not None and \
                current.status == "running":
            due = now + timedelta(minutes=settings.auto_advance_minutes)
            await tournament_repo.set_auto_advance_due(conn, t.id, due)
        return True, False

    async def _drop_absentees(
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
            await self._audit(conn, _system(t), t, "player.auto_drop", {"status": "active"},
                              {"status": "withdrawn", "player": pid, "from_round":
                               round_number + 1, "missed_in_a_row": limit})
            await self._announce(conn, t, "player_dropped", {
                "player": {"player_id": pid, "name": row.name, "number": row.number,
                           "user_id": row.user_id},
                "missed": limit, "round": round_number,
            })

    async def due_auto_advances(self, now: datetime | None = None, *,
                                shards: Shards = ALL_SHARDS) -> list[int]:
        """Ids of the running tournaments (of guilds on ``shards``) whose next round is due
        to be paired automatically."""
        async with self.db.transaction(readonly=True) as conn:
            rows = await tournament_repo.due_auto_advances(conn, now or self.now(), shards)
        return [t.id for t in rows]

    async def run_auto_advances(self, now: datetime | None = None, *,
                                shards: Shards = ALL_SHARDS) -> list[RoundView]:
        """Pair every due round (the bot's background task calls this every few seconds; the
        service never sleeps). Each tournament is claimed exactly once; a pairing failure is
        announced to the organisers instead of retried forever."""
        paired: list[RoundView] = []
        for tid in await self.due_auto_advances(now, shards=shards):
            async with self.db.transaction() as conn:
                t = await tournament_repo.get_tournament(conn, tid)
                if t is None or not await tournament_repo.claim_auto_advance(conn, tid):
                    continue  # another worker took it
            # Claimed (committed): paired like /round next, between two short transactions.
            try:
                paired.append(await self._pair_in_two_steps(
                    _system(t), t.id, force=False, check=_no_check, prepare=None))
            except PairingBusyError:
                async with self.db.transaction() as conn:  # try again in a minute
                    await tournament_repo.set_auto_advance_due(
                        conn, t.id, self.now() + timedelta(minutes=1))
            except ServiceError as exc:
                async with self.db.transaction() as conn:
                    await self._announce(conn, t, "auto_advance_failed", {"error": exc.message})
        return paired


async def _no_check(conn: Connection, t: TournamentRow) -> None:
    _require_running(t)


def _system(t: TournamentRow) -> Actor:
    return Actor(user_id=SYSTEM_USER_ID, guild_id=t.guild_id, display_name="swissbot",
                 is_organiser=True)


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


def _require_running(t: TournamentRow) -> None:
    if t.status != "running":
        hint = " Start it with /tournament start." if t.status == "registration" else ""
        raise TournamentNotRunningError(f"'{t.name}' is not running (it is {t.status}).{hint}")


def _audit_json(view: RoundView) -> EncodedJSON | None:
    """The undo's audit record of ``view`` as JSON (in a thread for a big event)."""
    return encode_audit(round_payload(view))
