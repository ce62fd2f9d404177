"""The outbox of announcements, read by the bot's delivery task.

Rows are written by the operations in the same transaction as the change they announce. Kinds
and payloads (all JSON; points as display strings such as "2½"; every payload also has
``tournament: {id, name, guild_id}``):

* ``pairings`` / ``round_results``: ``round``, ``number``, ``total_rounds``, ``state``,
  ``deadline`` (ISO or null), ``deadline_unix`` (for ``<t:...:R>``), ``use_colours``,
  ``games`` (``id, board, white, black, result, result_text, state, white_games,
  black_games``; ``white``/``black`` = ``{player_id, number, name, user_id}``), ``byes``
  (``player, kind, points``), ``mention_user_ids`` (who may be pinged).
* ``standings`` / ``final_standings`` (with ``pictures``: attach a PNG): ``after_round``,
  ``total_rounds``, ``final``,
  ``tiebreaks`` (acronyms), ``rows`` (``rank, number, player_id, name, user_id, points,
  values, withdrawn``).
* ``dispute``: ``round``, ``game``, ``reported_result``, ``disputed_result``, ``disputed_by``.
* ``result_corrected``: ``round``, ``game``, ``previous_result``, ``by``, ``standings``.
* ``result_settled`` (the game's thread, else the channel): ``game``, ``was`` (its state
  before: reported, disputed or final), ``by``, ``reported_result``, ``reported_by``,
  ``disputed_result``, ``previous_result``: an organiser set a result the players had
  reported; both players are pinged.
* ``round_undone``: ``round``, ``by``. ``tournament_cancelled``: ``by``.
* ``auto_advance_failed``: ``error`` (the message for the organisers).
* ``pairing_progress``: ``round``, ``players`` (a big round is being paired); the delivery
  remembers its message (:meth:`Outbox.remember_posted`) because the ``pairings`` or
  ``pairing_failed`` announcement that ends the run carries ``replaces`` = its id and is
  edited into that message instead of posted after it.
* ``pairing_failed``: ``round``, ``players``, ``error``, ``replaces``.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from service.base import Context, info_of, part
from service.operation import operation
from service.views import Announcement, TournamentInfo
from storage import journal
from storage import pairing_runs as run_repo
from storage import presence as presence_repo
from storage import tournaments as tournament_repo
from storage.connection import Connection
from storage.journal import OutboxRow
from storage.presence import Presence
from storage.shards import ALL, Shards

# An announcement that can never be posted (its channel was deleted) waits until then: it is
# kept for the record but no longer retried.
GIVEN_UP = datetime(9999, 1, 1, tzinfo=UTC)
# The audit log's actor for what the bot itself records.
BOT_ACTOR_ID = 0
BOT_ACTOR_NAME = "swissbot"
# A delivering process not seen for this long is removed from outbox_processes.
FORGET_PROCESSES_AFTER = timedelta(hours=1)


def announcement(row: OutboxRow) -> Announcement:
    return Announcement(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        tournament_id=row.tournament_id,
        kind=row.kind,
        payload=row.payload,
        created_at=row.created_at,
        attempts=row.attempts,
        last_error=row.last_error,
        payload_text=row.payload_text,
    )


@part
class Outbox:
    ctx: Context

    @operation
    async def pending_announcements(
        self, limit: int = 50, now: datetime | None = None
    ) -> list[Announcement]:
        """Undelivered announcements due now (failed ones wait for their retry time), oldest
        first. Deliver them in this order, then call :meth:`mark_delivered`."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            rows = await journal.pending(conn, now or self.ctx.now(), limit)
        return [announcement(r) for r in rows]

    @operation
    async def claim_announcements(
        self,
        claimant: str,
        *,
        limit: int = 20,
        lease_seconds: float = 60.0,
        shards: Shards = ALL,
        unparsed_from: int | None = None,
    ) -> list[Announcement]:
        """Claim due announcements for the process ``claimant`` (several processes may share
        the database): each is leased to it for ``lease_seconds``; deliver them in this order,
        then :meth:`mark_delivered` or :meth:`mark_failed` (either ends the lease). The
        process renews its leases while it runs (:meth:`renew_announcement_leases`); one
        that dies leaves leases that expire, or that :meth:`free_dead_claims` ends at once,
        and another process (or itself, restarted) posts those rows again with the same
        nonces. A channel's rows come in order: a row waits while an earlier one of its
        channel is pending (see :func:`storage.journal.claim`). ``shards``: the guilds this
        process serves, plus those of the shards no live process serves (no process has
        renewed them for ``lease_seconds``). ``unparsed_from``: a payload of this many
        characters of JSON or more is returned unparsed (``Announcement.payload_text``): the
        delivery parses a big round's 600 kB in its render worker, not in the event loop."""
        lease = timedelta(seconds=max(0.0, lease_seconds))
        async with self.ctx.db.transaction() as conn:
            now = self.ctx.now()
            if not shards.everything:
                shards = await _with_unserved(conn, shards, now - lease)
            raw = await journal.claim_unparsed(
                conn, claimant=claimant, now=now, limit=limit, shards=shards,
                lease_until=now + lease,
            )
        # parsed after the commit: a big round's payload is 600 kB of JSON
        return [announcement(r)
                for r in journal.outbox_rows(raw, unparsed_from=unparsed_from)]

    @operation
    async def release_announcements(
        self, claimant: str, announcement_ids: list[int] | None = None
    ) -> int:
        """Give up ``claimant``'s leases (all, or those ids) so another process may post the
        rows at once; returns how many were released."""
        async with self.ctx.db.transaction() as conn:
            return await journal.release(conn, claimant, announcement_ids)

    @operation
    async def open_delivery_presence(self, label: str) -> Presence:
        """The lock that tells the other processes this one is alive, named after ``label``
        (its shards); its ``name`` is the claimant to claim with. Close it after
        :meth:`leave_delivery`."""
        return await presence_repo.take_presence(self.ctx.db, label)

    @operation
    async def renew_announcement_leases(
        self, claimant: str, *, lease_seconds: float, shards: Shards = ALL
    ) -> int:
        """Extend ``claimant``'s leases by ``lease_seconds`` from now and record that it is
        running and which shards it serves (call it every few seconds, well within the
        lease); returns how many rows it holds."""
        async with self.ctx.db.transaction() as conn:
            now = self.ctx.now()
            await presence_repo.beat(conn, claimant, shards, now)
            await presence_repo.forget(conn, seen_before=now - FORGET_PROCESSES_AFTER)
            return await journal.renew(conn, claimant,
                                       now + timedelta(seconds=max(0.0, lease_seconds)))

    @operation
    async def free_dead_claims(self, presence: Presence) -> list[str]:
        """End at once the leases of the processes that are dead (their lock is free: see
        :mod:`storage.presence`), a restarted process's predecessor first of all; returns
        their names. A live process keeps its rows, whatever its name."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            holders = await journal.claimants(conn, self.ctx.now())
        dead = [c for c in holders if c != presence.name and not await presence.alive(c)]
        for claimant in dead:
            async with self.ctx.db.transaction() as conn:
                await journal.release(conn, claimant)
                await presence_repo.forget(conn, claimant)
        return dead

    @operation
    async def leave_delivery(self, claimant: str) -> int:
        """A process stops delivering: its claimed rows are released for the others (or its
        next start) and it is no longer counted as serving its shards; returns how many
        rows were released."""
        async with self.ctx.db.transaction() as conn:
            await presence_repo.forget(conn, claimant)
            return await journal.release(conn, claimant)

    @operation
    async def mark_delivered(self, announcement_id: int) -> bool:
        """Record the delivery. True for the first call only, so two workers that raced for the
        same row can tell which one delivered it."""
        async with self.ctx.db.transaction() as conn:
            return await journal.mark_delivered(conn, announcement_id, self.ctx.now())

    @operation
    async def remember_posted(
        self, announcement_id: int, channel_id: int, message_id: int
    ) -> None:
        """Record the message an announcement became, for a later announcement that
        ``replaces`` it (the pairing progress line)."""
        async with self.ctx.db.transaction() as conn:
            await run_repo.remember_message(conn, announcement_id, channel_id, message_id)

    @operation
    async def posted_message(self, announcement_id: int) -> tuple[int, int] | None:
        """(channel id, message id) remembered for ``announcement_id``, else None."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            return await run_repo.posted_message(conn, announcement_id)

    @operation
    async def mark_failed(
        self, announcement_id: int, error: str, *, retry_after_seconds: float = 30.0
    ) -> bool:
        """Count a failed attempt and hide the row until ``retry_after_seconds`` have passed."""
        async with self.ctx.db.transaction() as conn:
            retry_at = self.ctx.now() + timedelta(seconds=max(0.0, retry_after_seconds))
            return await journal.mark_failed(conn, announcement_id, error=error,
                                             retry_at=retry_at)

    @operation
    async def report_delivery_problem(
        self, announcement_id: int, problem: str
    ) -> TournamentInfo | None:
        """Record in the audit log that an announcement cannot be posted (``problem``, e.g.
        "missing Send Messages in #tournaments"); /tournament info shows it until a later
        announcement gets through. Returns the tournament, to tell its organiser (None for
        an announcement of no tournament)."""
        async with self.ctx.db.transaction() as conn:
            row = await journal.get_outbox(conn, announcement_id)
            if row is None or row.tournament_id is None:
                return None
            t = await tournament_repo.get_tournament(conn, row.tournament_id)
            if t is None:
                return None
            await journal.append_audit(
                conn, guild_id=row.guild_id, tournament_id=t.id, actor_id=BOT_ACTOR_ID,
                actor_name=BOT_ACTOR_NAME, action="announcement.failed", before=None,
                after={"announcement": row.id, "kind": row.kind, "problem": problem},
                now=self.ctx.now(),
            )
            return await info_of(conn, t)

    @operation
    async def announcement_tournament(self, announcement_id: int) -> TournamentInfo | None:
        """The tournament an announcement belongs to (whose organiser hears of its
        problems), or None."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            row = await journal.get_outbox(conn, announcement_id)
            if row is None or row.tournament_id is None:
                return None
            t = await tournament_repo.get_tournament(conn, row.tournament_id)
            return None if t is None else await info_of(conn, t)

    @operation
    async def give_up_announcement(self, announcement_id: int, reason: str) -> bool:
        """Stop retrying an announcement that can never be posted (its channel is gone, or
        too many attempts failed); it stays in the outbox, undelivered, with ``reason``, and in
        the audit log. False when it was delivered or given up already."""
        async with self.ctx.db.transaction() as conn:
            row = await journal.get_outbox(conn, announcement_id)
            if row is None or row.next_attempt_at >= GIVEN_UP or not await journal.mark_failed(
                conn, announcement_id, error=f"gave up: {reason}", retry_at=GIVEN_UP
            ):
                return False
            await journal.append_audit(
                conn, guild_id=row.guild_id, tournament_id=row.tournament_id,
                actor_id=BOT_ACTOR_ID, actor_name=BOT_ACTOR_NAME,
                action="announcement.abandoned", before=None,
                after={"announcement": row.id, "kind": row.kind, "reason": reason},
                now=self.ctx.now(),
            )
            return True

    @operation
    async def announcements(self, tournament_id: int | None = None) -> list[Announcement]:
        """Every announcement (delivered or not) of one tournament, oldest first (for tests,
        the demo and debugging)."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            rows = await journal.list_outbox(conn, tournament_id)
        return [announcement(r) for r in rows]


async def _with_unserved(conn: Connection, shards: Shards, seen_since: datetime) -> Shards:
    """``shards`` and the shards of the same count that no process seen since ``seen_since``
    serves (their process is gone: their announcements are posted by the others)."""
    served = await presence_repo.served_shards(conn, shards.count, seen_since)
    unserved = frozenset(range(shards.count)) - served
    return Shards(shards.count, shards.ids | unserved) if unserved - shards.ids else shards
