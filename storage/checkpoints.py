"""SQLite's WAL checkpoints on a connection of their own, after each burst of writes.

By default SQLite checkpoints inside the ``COMMIT`` that takes the write-ahead log past 1,000
pages: that commit, whichever command it belongs to, copies the log's pages into the database
file and syncs both, with the write lock held. A 3,000-player round writes a few hundred
pages (1,500 boards, the 600 kB pairings post), so every few rounds one commit took 10-15 ms
instead of 1-2: the round's own store, or a small transaction (an outbox claim, another
guild's ``/report``) that happened to cross the line while every other guild's write waited
behind it (issue 13, ``benchmarks/loop_spans.py``).

Here the writing connection never checkpoints (``PRAGMA wal_autocheckpoint = 0``, set by
:func:`storage.db.connect_sqlite`) and :class:`WalCheckpointer` runs ``PRAGMA
wal_checkpoint(PASSIVE)`` on its own connection, in its own aiosqlite thread, ``DELAY``
after the last commit of a burst. A passive checkpoint takes no write lock and waits for no
one: writers and readers go on meanwhile, and it copies what no reader still needs (the rest
at the next one, as before).

Durability is unchanged or better: ``synchronous = NORMAL`` as before, so a commit reaches
the disk at the checkpoint that follows it (the log is synced first). That used to be
whenever the log next reached 1,000 pages (hours later on a quiet bot); now it is within
about ``DELAY`` of the burst. The price is more, smaller checkpoints (at most one per
``DELAY``), each in the background thread. When the last connection closes, SQLite
checkpoints and removes the log as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from typing import Any

log = logging.getLogger(__name__)

#: How long after a commit the checkpoint runs: the commits of one command, or of a burst
#: of commands, share one checkpoint (each syncs the file twice).
DELAY = 0.5


class WalCheckpointer:
    """Checkpoints ``conn``'s database shortly after :meth:`wrote` (module docstring).

    ``conn`` is a connection of its own (not the writer's, not a reader's): the checkpoint
    runs in its thread while the others serve commands."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self._due = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.checkpoints = 0  # how many ran (tests)

    def wrote(self) -> None:
        """A write transaction committed: checkpoint within about :data:`DELAY`."""
        self._due.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name="swissbot-wal-checkpoint")

    async def checkpoint(self) -> tuple[int, int, int]:
        """One passive checkpoint now: (busy, pages in the log, pages copied)."""
        async with self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)") as cur:
            row = await cur.fetchone()
        self.checkpoints += 1
        return (int(row[0]), int(row[1]), int(row[2])) if row else (0, 0, 0)

    async def _run(self) -> None:
        while True:
            await self._due.wait()
            await asyncio.sleep(DELAY)
            self._due.clear()  # a commit from now on asks for the next one
            try:
                await self.checkpoint()
            except sqlite3.Error as exc:  # the next burst tries again; the log only waits
                log.warning("WAL checkpoint failed: %s", exc)

    async def close(self) -> None:
        """Stop the background checkpoints and close the connection (the last connection
        to close checkpoints what is left)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.conn.close()
