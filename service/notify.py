"""A thread per game, and direct messages to the players who opt in.

Both go through the outbox like every announcement, written in the transaction of the change
they follow (so nothing is lost nor sent twice across restarts):

* ``game_thread`` (one per board, when the tournament's ``game_threads`` setting is on; queued
  with the ``pairings`` announcement, in the same channel): ``round``, ``game`` (the board as in
  the pairings payload), ``use_colours``, ``total_rounds``, ``deadline_unix``. The bot opens the
  thread, records it (:meth:`Notify.remember_thread`) before anything else, adds both
  players and posts the pairing with the result buttons; a retry finds the stored thread.
* ``thread_problem`` (channel): ``round``, ``problem``: why threads could not be opened, once
  per round (:meth:`Notify.thread_problem`).
* ``dm_pairing`` / ``dm_confirm`` / ``dm_final`` / ``dm_reminder`` (no channel; ``user_id``):
  a direct message to one player who opted in with ``/notify dm:on``. ``dm_pairing``: ``round``,
  ``board``, ``colour`` (white/black/null), ``opponent``, ``deadline_unix``, or ``bye`` (its
  points); ``dm_confirm``: ``game_id``, ``guild_id``, ``round``, ``board``, ``reporter``,
  ``reported`` (the result as text); ``dm_final``: ``rank``, ``points``, ``players``;
  ``dm_reminder`` (a deadline reminder, to each player who still has to report or confirm
  his game): ``round``, ``board``, ``game_id``, ``opponent``, ``deadline_unix``,
  ``minutes_left``, ``to_confirm`` (the opponent reported: confirm or dispute it).
* ``dm_lichess`` (an event on Lichess: the board's game was made there): ``round``, ``board``,
  ``game_id``, ``colour``, ``opponent``, ``url`` (the link of the player's own colour).
* ``lichess_thread`` (channel, after the board's ``game_thread``): both links of the board's
  Lichess game, posted in its thread when it has one.
* ``dm_closed`` (channel): ``user_id``: Discord refused a DM (50007); said once, then no DM is
  queued for that member until ``/notify dm:on`` again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.base import Context, audit, part, post_announcement
from service.model import settings_of
from service.operation import operation
from service.outbox import BOT_ACTOR_ID, BOT_ACTOR_NAME, GIVEN_UP
from service.views import Actor, ReportOutcome
from storage import journal
from storage import notify as notify_repo
from storage import tournaments as tournament_repo
from storage.connection import Connection
from storage.tournaments import TournamentRow

DM_KINDS = ("dm_pairing", "dm_confirm", "dm_final", "dm_reminder", "dm_lichess")


@dataclass(frozen=True, slots=True)
class DmSettingView:
    guild_id: int
    user_id: int
    enabled: bool
    closed: bool  # Discord refused the last DM: none is sent until /notify dm:on again


@dataclass(frozen=True, slots=True)
class ThreadView:
    game_id: int
    guild_id: int
    tournament_id: int
    round: int
    parent_id: int
    thread_id: int | None
    private: bool
    problem: str | None


def _thread_view(row: notify_repo.ThreadRow) -> ThreadView:
    return ThreadView(row.game_id, row.guild_id, row.tournament_id, row.round, row.parent_id,
                      row.thread_id, row.private, row.problem)


@part
class Notify:
    ctx: Context

    # -- direct messages: the player's choice -----------------------------------------------------
    @operation
    async def set_dm(self, actor: Actor, enabled: bool) -> DmSettingView:
        """Opt in to (or out of) direct messages from the bot in this guild: pairings, result
        prompts, reminders, the final placing. Opting in again also forgets that Discord
        refused an earlier DM (the player says he opened them)."""
        async with self.ctx.db.transaction() as conn:
            before = await notify_repo.get_dm(conn, actor.guild_id, actor.user_id)
            await notify_repo.set_dm(conn, actor.guild_id, actor.user_id, bool(enabled),
                                     self.ctx.now())
            await audit(self.ctx, conn, actor, None, "notify.dm",
                        {"enabled": before.enabled, "closed": before.closed},
                        {"enabled": bool(enabled)})
        return DmSettingView(actor.guild_id, actor.user_id, bool(enabled), False)

    @operation
    async def dm_setting(self, guild_id: int, user_id: int) -> DmSettingView:
        async with self.ctx.db.transaction(readonly=True) as conn:
            row = await notify_repo.get_dm(conn, guild_id, user_id)
        return DmSettingView(guild_id, user_id, row.enabled, row.closed)

    @operation
    async def dm_refused(self, announcement_id: int) -> bool:
        """Discord refused the DM of this outbox row (403, 50007): stop retrying it, remember
        that the member's DMs are closed (no DM is queued for him any more), and queue one
        ``dm_closed`` notice in the tournament's channel. True the first time."""
        async with self.ctx.db.transaction() as conn:
            row = await journal.get_outbox(conn, announcement_id)
            if row is None:
                return False
            user_id = int(row.payload.get("user_id", 0))
            await journal.mark_failed(conn, announcement_id, error="gave up: DMs closed",
                                      retry_at=GIVEN_UP)
            first = await notify_repo.mark_dm_closed(conn, row.guild_id, user_id, self.ctx.now())
            t = None
            if row.tournament_id is not None:
                t = await tournament_repo.get_tournament(conn, row.tournament_id)
            await journal.append_audit(
                conn, guild_id=row.guild_id, tournament_id=row.tournament_id,
                actor_id=BOT_ACTOR_ID, actor_name=BOT_ACTOR_NAME, action="notify.dm_closed",
                before=None, after={"user_id": user_id, "announcement": announcement_id},
                now=self.ctx.now(),
            )
            if first and t is not None:
                await post_announcement(self.ctx, conn, t, "dm_closed", {"user_id": user_id})
            return first

    @operation
    async def queue_dm(
        self, conn: Connection, t: TournamentRow, user_id: int | None, kind: str,
        payload: dict[str, Any],
    ) -> int | None:
        """The DM hook: inside an operation's transaction, queue ``kind`` (one of
        :data:`DM_KINDS`) for ``user_id`` if he opted in and his DMs are not known to be
        closed. Returns the outbox id, or None when nothing was queued."""
        return await self._queue_dm(conn, t, user_id, kind, payload)

    async def _queue_dm(
        self, conn: Connection, t: TournamentRow, user_id: int | None, kind: str,
        payload: dict[str, Any],
    ) -> int | None:
        if user_id is None or kind not in DM_KINDS:
            return None
        if user_id not in await notify_repo.dm_recipients(conn, t.guild_id, [user_id]):
            return None
        body = {"tournament": {"id": t.id, "name": t.name, "guild_id": t.guild_id},
                "user_id": user_id, **payload}
        return await journal.enqueue(conn, guild_id=t.guild_id, channel_id=None,
                                     tournament_id=t.id, kind=kind, payload=body,
                                     now=self.ctx.now())

    async def queue_lichess_dm(self, conn: Connection, t: TournamentRow, user_id: int | None,
                               payload: dict[str, Any]) -> int | None:
        """Inside the transaction that stores a board's Lichess game: the ``dm_lichess`` of
        one player (if he opted in)."""
        return await self._queue_dm(conn, t, user_id, "dm_lichess", payload)

    async def thread_channel(self, conn: Connection, t: TournamentRow) -> int | None:
        """The channel the event's game threads open in; None when it has none."""
        if not settings_of(t).game_threads:
            return None
        if t.channel_id is not None:
            return t.channel_id
        return (await tournament_repo.get_guild_settings(conn, t.guild_id)).default_channel_id

    # -- hooks into the operations ---------------------------------------------------------
    async def announced(
        self, conn: Connection, t: TournamentRow, kind: str, payload: dict[str, Any]
    ) -> None:
        """After ``pairings`` the game threads and the pairing DMs, after ``final_standings``
        the placing DMs (same transaction; for a deferred announcement, the one that
        completes it)."""
        if kind == "pairings":
            await self._after_pairings(conn, t, payload)
        elif kind == "deadline_reminder":
            await self._reminder_dms(conn, t, payload)
        elif kind == "final_standings":
            rows = payload.get("rows", [])
            wanted = await notify_repo.dm_recipients(
                conn, t.guild_id, [r["user_id"] for r in rows if r.get("user_id")])
            for r in rows:
                if r.get("user_id") in wanted:
                    # with a top cut, the place in the final result (the playoffs first)
                    await self._queue_dm(conn, t, r["user_id"], "dm_final", {
                        "rank": r.get("place", r["rank"]), "points": r["points"],
                        "players": len(rows)})

    async def _after_pairings(
        self, conn: Connection, t: TournamentRow, payload: dict[str, Any]
    ) -> None:
        games = payload.get("games", [])
        round_number = payload.get("round", payload.get("number"))
        common = {"round": round_number, "total_rounds": payload.get("total_rounds"),
                  "use_colours": payload.get("use_colours", True),
                  "deadline_unix": payload.get("deadline_unix")}
        # threads open in the event channel: none without one (the pairings wait for it too)
        channel = await self.thread_channel(conn, t)
        if channel is not None:
            for game in games:
                body = {"tournament": {"id": t.id, "name": t.name, "guild_id": t.guild_id},
                        "game": game, **common}
                await journal.enqueue(conn, guild_id=t.guild_id, channel_id=channel,
                                      tournament_id=t.id, kind="game_thread", payload=body,
                                      now=self.ctx.now())
        users = [s["user_id"] for g in games for s in (g["white"], g["black"]) if s.get("user_id")]
        users += [b["player"]["user_id"] for b in payload.get("byes", [])
                  if b["player"].get("user_id")]
        wanted = await notify_repo.dm_recipients(conn, t.guild_id, users)
        for game in games:
            for side, other in (("white", "black"), ("black", "white")):
                user = game[side].get("user_id")
                if user in wanted:
                    await self._queue_dm(conn, t, user, "dm_pairing", {
                        **common, "board": game["board"], "colour": side,
                        "opponent": game[other]["name"], "game_id": game["id"]})
        for bye in payload.get("byes", []):
            user = bye["player"].get("user_id")
            if user in wanted:
                await self._queue_dm(conn, t, user, "dm_pairing", {
                    **common, "bye": bye.get("points", ""), "kind": bye.get("kind")})

    async def _reminder_dms(
        self, conn: Connection, t: TournamentRow, payload: dict[str, Any]
    ) -> None:
        """A deadline reminder by DM to each opted-in player who still has to report (or
        confirm) his game: his own board, opponent and deadline."""
        for game in payload.get("games", []):
            for side, other in (("white", "black"), ("black", "white")):
                user = game[side].get("user_id")
                if user and user in game.get("to_act", ()):
                    await self._queue_dm(conn, t, user, "dm_reminder", {
                        "round": payload.get("round"), "board": game.get("board"),
                        "game_id": game.get("game_id"),
                        "opponent": game[other].get("name"),
                        "deadline_unix": payload.get("deadline_unix"),
                        "minutes_left": payload.get("minutes_left"),
                        "to_confirm": game.get("state") == "reported"})

    async def reported(
        self, conn: Connection, t: TournamentRow, outcome: ReportOutcome, status: str,
    ) -> None:
        """A first report: the opponent also gets the Confirm / Dispute prompt by DM."""
        if status == "awaiting_confirmation" and outcome.opponent.user_id:
            game = outcome.game
            await self._queue_dm(conn, t, outcome.opponent.user_id, "dm_confirm", {
                "game_id": game.id, "guild_id": t.guild_id, "round": game.round,
                "board": game.board, "reporter": outcome.reporter.name,
                "reported": _reported_text(game.reported_result),
                "white": game.white.name, "black": game.black.name})

    # -- game threads (the delivery task's side) ------------------------------------------
    @operation
    async def game_thread(self, game_id: int) -> ThreadView | None:
        """The thread stored for a game (None before the bot opened one)."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            row = await notify_repo.get_thread(conn, game_id)
        return None if row is None else _thread_view(row)

    @operation
    async def remember_thread(
        self, announcement_id: int, thread_id: int, *, private: bool
    ) -> bool:
        """Record the thread just opened for the ``game_thread`` row ``announcement_id``, at
        once (before adding members or posting), so that a retry reuses it. False when the
        game already had one (then that one is used)."""
        async with self.ctx.db.transaction() as conn:
            row = await journal.get_outbox(conn, announcement_id)
            if row is None or row.tournament_id is None:
                return False
            game = row.payload["game"]
            return await notify_repo.save_thread(
                conn, game_id=int(game["id"]), guild_id=row.guild_id,
                tournament_id=row.tournament_id, round_number=int(row.payload["round"]),
                parent_id=int(row.channel_id or 0), thread_id=thread_id, private=private,
                problem=None, now=self.ctx.now())

    @operation
    async def thread_problem(self, announcement_id: int, problem: str) -> bool:
        """The thread of a ``game_thread`` row could not be opened, or a player could not be
        added (``problem`` says why, for the organisers). The pairing is in the channel anyway.
        Recorded in the audit log; the first problem of a round also queues one
        ``thread_problem`` notice in the channel. True when that notice was queued."""
        async with self.ctx.db.transaction() as conn:
            row = await journal.get_outbox(conn, announcement_id)
            if row is None or row.tournament_id is None:
                return False
            t = await tournament_repo.get_tournament(conn, row.tournament_id)
            if t is None:
                return False
            round_number = int(row.payload.get("round", 0))
            game = row.payload.get("game") or {}
            await notify_repo.save_thread(
                conn, game_id=int(game.get("id", 0)), guild_id=row.guild_id,
                tournament_id=t.id, round_number=round_number,
                parent_id=int(row.channel_id or 0), thread_id=None, private=False,
                problem=problem, now=self.ctx.now())
            await journal.append_audit(
                conn, guild_id=row.guild_id, tournament_id=t.id, actor_id=BOT_ACTOR_ID,
                actor_name=BOT_ACTOR_NAME, action="thread.problem", before=None,
                after={"announcement": announcement_id, "game": game.get("id"),
                       "problem": problem}, now=self.ctx.now())
            first = await notify_repo.add_notice(conn, t.id, round_number, problem, self.ctx.now())
            if first:
                await post_announcement(self.ctx, conn, t, "thread_problem",
                                        {"round": round_number, "problem": problem})
            return first

    @operation
    async def threads_to_archive(self, guild_id: int | None = None) -> list[ThreadView]:
        """Open game threads whose result is final (or whose round was undone)."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            rows = await notify_repo.to_archive(conn, guild_id)
        return [_thread_view(r) for r in rows]

    @operation
    async def thread_archived(self, game_id: int) -> bool:
        async with self.ctx.db.transaction() as conn:
            return await notify_repo.mark_archived(conn, game_id, self.ctx.now())


def _reported_text(result: str | None) -> str:
    return {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "½-½", "+--": "1F-0F", "--+": "0F-1F",
            "---": "0F-0F"}.get(result or "", result or "?")
