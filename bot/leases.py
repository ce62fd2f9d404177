"""The outbox leases of this process: taken, renewed while it runs, given back when it stops.

A claimed announcement is leased to its process for ``SWISSBOT_OUTBOX_LEASE_SECONDS`` (10 s by
default), and the process renews all its leases every third of that while it is alive, so a
long delivery (a big round's posts, a slow Discord) keeps its rows and a dead process's rows
are free again within one lease. Faster still, at start and at every renewal the process asks
which holders of leases are dead (their lock in the database or on the disk is free:
:mod:`storage.presence`) and takes their rows back at once: a restarted process posts what
its killed predecessor had claimed without waiting for anything, while a live process keeps
its rows even when it runs the same shards by mistake.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from service import ALL_SHARDS, Shards
from storage.presence import claimant_name

log = logging.getLogger(__name__)

# A row is not started when less than this part of the lease is left: its post and mark must
# finish before another process may take it.
LEASE_MARGIN = 0.25
# Renewals per lease: a renewal may fail or come late twice before the lease runs out.
RENEWALS_PER_LEASE = 3
# How long stop() waits for a renewal in progress.
STOP_TIMEOUT_SECONDS = 2.0


def shards_label(shards: Shards) -> str:
    """The shards a process serves, as the first part of its claimant name (for the logs)."""
    if shards.everything:
        return "all"
    return f"shards-{'.'.join(map(str, sorted(shards.ids)))}-of-{shards.count}"


class LeaseKeeper:
    """Renews this process's outbox leases and frees those of dead processes."""

    def __init__(self, service: Any, *, lease_seconds: float, shards: Shards = ALL_SHARDS) -> None:
        self.service = service
        self.lease_seconds = lease_seconds
        self.shards = shards
        # provisional: start() names the process after its lock
        self.claimant = claimant_name(shards_label(shards))
        self.presence: Any = None
        self._task: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()
        self._valid_until = 0.0  # loop time until which our leases surely hold

    @property
    def renew_every(self) -> float:
        return self.lease_seconds / RENEWALS_PER_LEASE

    async def start(self) -> None:
        """Take this process's lock, free the rows of the dead (a predecessor killed before
        this start), and renew from now on."""
        if self._task is not None:
            return
        self._stopping.clear()
        take = getattr(self.service, "open_delivery_presence", None)
        if take is not None and self.presence is None:
            try:
                self.presence = await take(shards_label(self.shards))
            except Exception:
                log.exception("cannot take the delivery lock: the leases of a dead process "
                              "will only expire (%ss)", self.lease_seconds)
            else:
                self.claimant = self.presence.name
        await self.renew()
        self._task = asyncio.create_task(self._run(), name="swissbot-outbox-leases")

    def claimed(self, at: float) -> None:
        """A claim started at loop time ``at`` leased its rows for a whole lease."""
        self._valid_until = max(self._valid_until, at + self.lease_seconds)

    def may_start(self) -> bool:
        """Is enough of the lease left to post one more row and mark it?"""
        left = self._valid_until - asyncio.get_running_loop().time()
        return left > self.lease_seconds * LEASE_MARGIN

    async def renew(self) -> None:
        """Renew our leases (and our row in outbox_processes), then free the dead's rows.
        Never raises: a failed renewal is logged, and the next one comes soon."""
        started = asyncio.get_running_loop().time()
        renew = getattr(self.service, "renew_announcement_leases", None)
        try:
            if renew is not None:
                await renew(self.claimant, lease_seconds=self.lease_seconds, shards=self.shards)
                self.claimed(started)
            if self.presence is not None:
                dead = await self.service.free_dead_claims(self.presence)
                if dead:
                    log.info("took back the announcements claimed by %d stopped process(es):"
                             " %s", len(dead), ", ".join(dead))
        except Exception:
            log.warning("could not renew the outbox leases", exc_info=True)

    async def _run(self) -> None:
        while not self._stopping.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), timeout=self.renew_every)
            if not self._stopping.is_set():
                await self.renew()

    async def stop(self) -> None:
        """Stop renewing, give back what we hold (another process, or our next start, takes
        it at once), and drop the lock."""
        task, self._task = self._task, None
        if task is not None:
            # let a renewal in progress finish its transaction rather than cut it
            self._stopping.set()
            try:
                await asyncio.wait_for(asyncio.shield(task), timeout=STOP_TIMEOUT_SECONDS)
            except TimeoutError:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        leave = getattr(self.service, "leave_delivery", None)
        try:
            if leave is not None:
                await leave(self.claimant)
            else:
                await self.service.release_announcements(self.claimant)
        except Exception:
            log.warning("could not release the outbox leases; they expire in %ss",
                        self.lease_seconds, exc_info=True)
        presence, self.presence = self.presence, None
        if presence is not None:
            with contextlib.suppress(Exception):
                await presence.close()
