"""A member's data on request, and how long a server keeps its events.

* :meth:`Privacy.privacy_export`: everything stored about the acting member in his server,
  as one JSON file (the Lichess token excepted: only whether one is stored).
* :meth:`Privacy.privacy_forget`: his Discord identity taken out of every event of the
  server (``storage.privacy`` says table by table what happens); results and standings stay
  as they were, under the name "Withdrawn player N". A second call finds nothing and says
  so. The audit log records that it happened and who asked, nothing about him.
* :meth:`Privacy.set_retention` / :meth:`Privacy.run_retention`: a server's finished and
  cancelled events are deleted ``retention_days`` after they ended, once their last export
  was posted in their channel.

A part of the service (``service.facade``): built with the context, the exports (the last
export it posts before a deletion) and the entry (who takes a freed place).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from i18n import lazy
from service.base import Context, part
from service.entry import Entry
from service.errors import ConflictError, InvalidInputError, NotManagerError, ServiceError
from service.exports import Exports
from service.limits import MAX_RETENTION_DAYS, MIN_RETENTION_DAYS
from service.operation import operation
from service.permissions import require_manager
from service.views import Actor, ExportFile
from service.workers import worker_context, worker_initializer
from storage import journal
from storage import privacy as repo
from storage.redaction import PLACEHOLDER, Redaction, Rewrites, StoredText, rewrite
from storage.shards import ALL, Shards

#: Stored text (characters) from which a forget redacts it in a worker process: below, it
#: is a few milliseconds of work.
OFFLOAD_FROM = 200_000
#: The announcement that carries an event's last export before its deletion.
RETENTION_EXPORT = "retention_export"


@dataclass(frozen=True, slots=True)
class PrivacyExport:
    filename: str
    content: str  # JSON
    events: int  # the events he is or was entered in


@dataclass(frozen=True, slots=True)
class PrivacySummary:
    """What a forget would touch, for its confirmation prompt. ``entries`` (events entered
    and waiting lists) is the state the prompt was shown for: the forget names it."""

    user_id: int
    entries: int
    stored: bool


@dataclass(frozen=True, slots=True)
class ForgetOutcome:
    forgotten: bool  # False: nothing was stored (a second forget)
    pseudonym: str | None
    rows: int  # stored rows changed or deleted


@dataclass(frozen=True, slots=True)
class RetentionRun:
    exported: list[str]  # events whose last export was queued in this pass
    deleted: list[str]  # events deleted in this pass


class _NothingStored(Exception):
    """Raised inside a forget that found nothing, so its transaction (the pseudonym's number
    taken) is rolled back."""


@part
class Privacy:
    ctx: Context
    exports: Exports
    entry: Entry

    @operation
    async def privacy_export(self, actor: Actor) -> PrivacyExport:
        """Everything stored about the acting member in his server."""
        _require_member(actor)
        async with self.ctx.db.transaction(readonly=True) as conn:
            data = await repo.member_data(conn, actor.guild_id, actor.user_id)
        data = {"exported_at": self.ctx.now().isoformat(), **data}
        return PrivacyExport(filename=f"swissbot-data-{actor.user_id}.json",
                             content=json.dumps(data, indent=1, default=str),
                             events=len(data["events"]))

    @operation
    async def privacy_summary(self, actor: Actor,
                              member_id: int | None = None) -> PrivacySummary:
        """What :meth:`privacy_forget` would touch now (``member_id``: someone else,
        managers only)."""
        user_id = _subject(actor, member_id)
        async with self.ctx.db.transaction(readonly=True) as conn:
            return await _summary(conn, actor.guild_id, user_id)

    @operation
    async def privacy_forget(self, actor: Actor, member_id: int | None = None, *,
                             entries: int | None = None) -> ForgetOutcome:
        """Take the member (the actor, or ``member_id`` for a manager) out of every event of the
        server. ``entries``: the state the confirmation prompt showed
        (:meth:`privacy_summary`); refused if he joined or left something since. Nothing
        stored: ``forgotten=False``, nothing written (a repeated forget is harmless)."""
        user_id = _subject(actor, member_id)
        # The texts naming him are redacted first, outside the write transaction (megabytes
        # of JSON in a big server: in a worker process, see rewritten()); the transaction
        # redacts only what changed since.
        async with self.ctx.db.transaction(readonly=True) as conn:
            names = await _names(conn, actor, user_id)
            texts = await repo.texts_naming(conn, actor.guild_id,
                                            Redaction(user_id, names, PLACEHOLDER))
        rewrites = await rewritten(user_id, names, texts)
        try:
            async with self.ctx.db.transaction() as conn:
                now = self.ctx.now()
                summary = await _summary(conn, actor.guild_id, user_id)
                if entries is not None and summary.stored and summary.entries != entries:
                    raise ConflictError(
                        f"What is stored changed since you were asked (now {summary.entries} "
                        f"entries, the prompt said {entries}): run the command again to see "
                        "what it would do now.")
                names = await _names(conn, actor, user_id)
                pseudonym = await repo.next_pseudonym(conn, actor.guild_id, now)
                left = await repo.registrations(conn, actor.guild_id, user_id)
                done = await repo.forget_member(
                    conn, actor.guild_id, Redaction(user_id, names, pseudonym), now, rewrites)
                if done.total == 0:
                    raise _NothingStored
                for t in left:  # his place goes to the first waiting, in the bot's name
                    await self.entry.promote(conn, Actor(0, actor.guild_id, "swissbot"), t)
                yourself = user_id == actor.user_id
                # who asked, and nothing about the member: not his id, not his old name
                await journal.append_audit(
                    conn, guild_id=actor.guild_id, tournament_id=None,
                    actor_id=0 if yourself else actor.user_id,
                    actor_name=pseudonym if yourself else actor.display_name,
                    action="privacy.forget", before=None,
                    after={"forgotten": pseudonym,
                           "asked_by": "the member" if yourself else "a server manager"},
                    now=now)
        except _NothingStored:
            return ForgetOutcome(forgotten=False, pseudonym=None, rows=0)
        return ForgetOutcome(forgotten=True, pseudonym=pseudonym, rows=done.total)

    @operation
    async def set_retention(self, actor: Actor, days: int) -> int:
        """Managers: delete finished and cancelled events ``days`` after they ended, after a
        last export (0: keep them for good). Returns the setting."""
        require_manager(actor, lazy("decide how long events are kept"))
        if not MIN_RETENTION_DAYS <= days <= MAX_RETENTION_DAYS:
            raise InvalidInputError(
                f"The retention must be from {MIN_RETENTION_DAYS} (keep for good) to "
                f"{MAX_RETENTION_DAYS} days "
                f"(got {days}).")
        async with self.ctx.db.transaction() as conn:
            await repo.set_retention_days(conn, actor.guild_id, days, self.ctx.now())
            await journal.append_audit(
                conn, guild_id=actor.guild_id, tournament_id=None, actor_id=actor.user_id,
                actor_name=actor.display_name, action="config.retention", before=None,
                after={"retention_days": days}, now=self.ctx.now())
        return days

    @operation
    async def run_retention(self, now: datetime | None = None, *,
                            shards: Shards = ALL) -> RetentionRun:
        """Background, every few seconds: for each event past its server's retention at
        ``now`` (default: the clock), queue its last export in its channel (once), then,
        once that was posted, delete it. Idempotent: a second pass, or a second process,
        finds each step done."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            expired = await repo.expired_events(conn, now or self.ctx.now(), shards)
        exported, deleted = [], []
        for event in expired:
            if event.export_id is None:
                try:
                    files = await self.exports.event_files(event.guild_id, event.tournament_id)
                except ServiceError:
                    continue  # deleted meanwhile by another process
                if await self._queue_export(event, files):
                    exported.append(event.name)
            elif event.export_delivered and await self._delete(event):
                deleted.append(event.name)
        return RetentionRun(exported, deleted)

    async def _queue_export(self, event: repo.Expired, files: Sequence[ExportFile]) -> bool:
        async with self.ctx.db.transaction() as conn:
            if not await repo.claim_export(conn, event.tournament_id):
                return False  # queued by another pass
            outbox_id = await journal.enqueue(
                conn, guild_id=event.guild_id, channel_id=event.channel_id,
                tournament_id=event.tournament_id, kind=RETENTION_EXPORT,
                payload={"tournament": {"id": event.tournament_id, "name": event.name,
                                        "guild_id": event.guild_id},
                         "files": [{"filename": f.filename, "content": f.content}
                                   for f in files]},
                now=self.ctx.now())
            await repo.set_export(conn, event.tournament_id, outbox_id)
        return True

    async def _delete(self, event: repo.Expired) -> bool:
        async with self.ctx.db.transaction() as conn:
            if not await repo.delete_event(conn, event.tournament_id, self.ctx.now()):
                return False  # deleted by another pass
            # that it happened, not what it held (the event's name is in the export posted)
            await journal.append_audit(
                conn, guild_id=event.guild_id, tournament_id=None, actor_id=0,
                actor_name="swissbot", action="retention.delete", before=None,
                after={"tournament": event.tournament_id}, now=self.ctx.now())
        return True


async def rewritten(user_id: int, names: frozenset[str], texts: list[StoredText]) -> Rewrites:
    """:func:`storage.redaction.rewrite`, in a worker process of its own when the texts are
    big: a 3,000-seat announcement is ~30 ms of JSON parsing and as much of writing, single
    calls that would hold the event loop (or, from a thread, the interpreter) that long. A
    forget is rare: the process is started for it and stopped after."""
    if sum(len(text or "") for *_, text in texts) < OFFLOAD_FROM:
        return rewrite(user_id, names, texts)
    pool = ProcessPoolExecutor(max_workers=1, mp_context=worker_context(),
                               initializer=worker_initializer)
    try:
        # the first submit starts the process (and the fork server, the first time): seconds
        # of the calling thread, so not the event loop's
        job = await asyncio.to_thread(pool.submit, rewrite, user_id, names, texts)
        return await asyncio.wrap_future(job)
    finally:
        pool.shutdown(wait=False)  # it ends by itself once idle; nobody waits for it here


async def _summary(conn: Any, guild_id: int, user_id: int) -> PrivacySummary:
    data = await repo.member_data(conn, guild_id, user_id)
    entries = len(data["events"]) + len(data["waiting_lists"])
    stored = bool(entries or data["direct_messages"] or data["lichess"]["link"]
                  or data["lichess"]["token_stored"] or data["organised"] or data["actions"])
    return PrivacySummary(user_id=user_id, entries=entries, stored=stored)


async def _names(conn: Any, actor: Actor, user_id: int) -> frozenset[str]:
    """The names the member is stored under, and the one he shows now if it is him asking."""
    names = await repo.known_names(conn, actor.guild_id, user_id)
    if user_id == actor.user_id:
        names.add(actor.display_name)
    return frozenset(names)


def _require_member(actor: Actor) -> None:
    if actor.user_id == 0:  # the bot's own actor has no data to export or forget
        raise InvalidInputError("Only a member can ask for his data.")


def _subject(actor: Actor, member: int | None) -> int:
    """Whose data: the actor's own, or (managers only) another member's."""
    _require_member(actor)
    if member is None or member == actor.user_id:
        return actor.user_id
    if not actor.is_manager:
        raise NotManagerError(
            "Only server managers can forget another member: members with the Manage Server "
            "or Administrator permission, or the server owner. You can forget yourself.")
    return member

