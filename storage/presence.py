"""The processes that deliver the outbox: which are alive, and which shards they serve.

Two questions, two answers:

* **Is the process that holds these leases alive?** Told without clocks, so that a restarted
  process takes back its dead predecessor's rows at once while a live process (even one
  running the same shards by mistake) keeps its own. Each delivering process holds a lock
  that the operating system or the database server drops the moment the process dies,
  SIGKILL included:

  - PostgreSQL: a session advisory lock on a key derived from the claimant's name, held by a
    connection of the pool set aside for it (the server ends the session, and its locks,
    when the dead process's socket closes);
  - SQLite (every process on one machine, as SQLite wants): an exclusive ``flock`` on a slot
    file in ``<database>.claimants/`` that holds the claimant's name (the kernel drops it
    with the process). Slots are reused, so there are never more files than processes that
    ran at the same time.

  Another process tests that lock: if it can take it, the holder is dead.

* **Which shards have a live process?** The table ``outbox_processes`` (migration 0016): each
  process records its shards and renews ``seen_at`` with its leases. A shard no process has
  renewed for a lease is served by the others: posts go over REST, which any process can do,
  so the announcements of a process gone for good are still posted.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import os
import secrets
import socket
from datetime import datetime
from pathlib import Path
from typing import Any

from storage.connection import Connection
from storage.shards import Shards
from storage.timefmt import to_text

# A slot file beyond this many processes running at once would be a leak, not a deployment.
MAX_SLOTS = 4096
_SLOT_MARK = "@slot"
# Names that hold an advisory lock end with this (names without it, of an older version of
# the bot still running, are left to their leases).
_LOCK_MARK = "@lock"


def claimant_name(label: str) -> str:
    """A name no other process ever had: ``label`` (the shards it serves), host, process id
    and a random part (a restarted process may get the same pid: in a container, always)."""
    return f"{label}:{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"


class Presence:
    """No lock at all (a database in memory: one process). Nobody is known to be dead."""

    def __init__(self, name: str) -> None:
        self.name = name

    async def alive(self, claimant: str) -> bool:
        return True

    async def close(self) -> None:
        return None


class _PgPresence(Presence):
    def __init__(self, name: str, pool: Any, raw: Any) -> None:
        super().__init__(name)
        self._pool = pool
        self._raw: Any = raw
        self._lock = asyncio.Lock()  # one statement at a time on the set-aside connection

    async def alive(self, claimant: str) -> bool:
        if claimant == self.name or not claimant.endswith(_LOCK_MARK):
            return True
        key = _lock_key(claimant)
        async with self._lock:
            raw = await self._connection()
            if not await raw.fetchval("SELECT pg_try_advisory_lock($1)", key):
                return True  # its session still holds it
            await raw.fetchval("SELECT pg_advisory_unlock($1)", key)
        return False

    async def _connection(self) -> Any:
        """The set-aside connection; a new one holding our lock again if the server closed it
        (a database restart: meanwhile the others may have taken our rows, which the nonces
        keep from being posted twice)."""
        if self._raw is not None and _usable(self._raw):
            return self._raw
        if self._raw is not None:
            with contextlib.suppress(Exception):
                await self._pool.release(self._raw)
        self._raw = None
        raw = await self._pool.acquire()
        try:
            if not await raw.fetchval("SELECT pg_try_advisory_lock($1)", _lock_key(self.name)):
                raise RuntimeError("the closed session still holds our lock: next time")
        except BaseException:
            await self._pool.release(raw)
            raise
        self._raw = raw
        return raw

    async def close(self) -> None:
        raw, self._raw = self._raw, None
        if raw is not None:
            # the pool resets the session on release (pg_advisory_unlock_all)
            await self._pool.release(raw)


class _FilePresence(Presence):
    def __init__(self, name: str, folder: Path, fd: int) -> None:
        super().__init__(name)
        self._folder = folder
        self._fd: int | None = fd

    async def alive(self, claimant: str) -> bool:
        if claimant == self.name:
            return True
        slot = _slot_of(claimant)
        if slot is None:
            return True  # not a name of ours: its lease decides
        path = self._folder / str(slot)
        try:
            fd = os.open(path, os.O_RDWR)
        except FileNotFoundError:
            return False
        try:
            if os.read(fd, 1024).decode(errors="replace") != claimant:
                return False  # its slot was free and taken since: it is gone
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            return False  # the lock was free: its holder is dead (closing drops ours)
        finally:
            os.close(fd)

    async def close(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # drops the lock: the slot is free for the next process


async def take_presence(db: Any, label: str) -> Presence:
    """This process's lock, named after ``label`` (see the module docstring); hold it while
    the process delivers, :meth:`Presence.close` it at the end."""
    name = claimant_name(label)
    if db.dialect == "postgresql":
        name += _LOCK_MARK
        raw = await db.pool.acquire()
        try:
            await raw.fetchval("SELECT pg_advisory_lock($1)", _lock_key(name))
        except BaseException:
            await db.pool.release(raw)
            raise
        return _PgPresence(name, db.pool, raw)
    path = str(db.path)
    if path in ("", ":memory:") or path.startswith("file:"):
        return Presence(name)
    folder = Path(path + ".claimants")
    return await asyncio.to_thread(_take_slot, name, folder)


def _take_slot(name: str, folder: Path) -> Presence:
    folder.mkdir(mode=0o700, exist_ok=True)
    for slot in range(MAX_SLOTS):
        fd = os.open(folder / str(slot), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        mine = f"{name}{_SLOT_MARK}{slot}"
        os.ftruncate(fd, 0)
        os.pwrite(fd, mine.encode(), 0)
        return _FilePresence(mine, folder, fd)
    raise RuntimeError(f"{MAX_SLOTS} delivering processes at once in {folder}")


def _usable(raw: Any) -> bool:
    try:
        return not raw.is_closed()
    except Exception:  # the pool took it back when the server closed it
        return False


def _slot_of(claimant: str) -> int | None:
    _, mark, slot = claimant.rpartition(_SLOT_MARK)
    if not mark or not slot.isdigit():
        return None
    return int(slot)


def _lock_key(claimant: str) -> int:
    """A signed 64-bit advisory lock key for the name (PostgreSQL's bigint)."""
    digest = hashlib.sha256(f"swissbot-outbox:{claimant}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


# -- the table of delivering processes ---------------------------------------------------------


async def beat(conn: Connection, claimant: str, shards: Shards, now: datetime) -> None:
    """Record (or renew) ``claimant`` and the shards it serves."""
    await conn.execute(
        "INSERT INTO outbox_processes (claimant, shard_count, shard_ids, seen_at)"
        " VALUES (?, ?, ?, ?) ON CONFLICT (claimant) DO UPDATE SET seen_at = excluded.seen_at",
        (claimant, shards.count, ",".join(map(str, sorted(shards.ids))), to_text(now)),
    )


async def forget(conn: Connection, claimant: str | None = None, *,
                 seen_before: datetime | None = None) -> int:
    """Remove ``claimant`` (a process that stops), or every process not seen since
    ``seen_before`` (long dead)."""
    if claimant is not None:
        cur = await conn.execute("DELETE FROM outbox_processes WHERE claimant = ?", (claimant,))
    else:
        assert seen_before is not None
        cur = await conn.execute("DELETE FROM outbox_processes WHERE seen_at < ?",
                                 (to_text(seen_before),))
    return cur.rowcount


async def served_shards(conn: Connection, count: int, seen_since: datetime) -> frozenset[int]:
    """The shards out of ``count`` that a process seen since ``seen_since`` serves (every
    shard when one serves them all)."""
    served: set[int] = set()
    async with conn.execute(
        "SELECT shard_count, shard_ids FROM outbox_processes WHERE seen_at >= ?",
        (to_text(seen_since),),
    ) as cur:
        for row in await cur.fetchall():
            ids = {int(i) for i in str(row[1]).split(",") if i}
            if int(row[0]) == 1 or len(ids) == int(row[0]):
                return frozenset(range(count))  # a process of every shard
            if int(row[0]) == count:
                served |= ids
    return frozenset(served)
