"""A throwaway PostgreSQL cluster for the tests, from the distribution's server binaries.

:func:`start_cluster` runs ``initdb`` and ``pg_ctl`` (Debian: /usr/lib/postgresql/*/bin) on a
unix socket in a temporary folder, without TCP, without fsync (the cluster is thrown away), and
migrates one template database; every test then gets its own database copied from it
(``CREATE DATABASE ... TEMPLATE``, a file copy, a third of a second on a busy machine) or,
faster, one that an earlier test used and that was emptied since (every table's rows deleted
and every id sequence restarted, in one round trip). initdb refuses to run
as root, and CI runs as root: there the cluster belongs to the ``postgres`` system user the
Debian package creates, and its commands run through ``runuser``.
"""

from __future__ import annotations

import asyncio
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

from storage.db import connect

TEMPLATE = "swissbot_template"


def server_binaries() -> Path | None:
    """The newest PostgreSQL server's bin folder (initdb and pg_ctl), or None."""
    def major(initdb: str) -> int:
        name = Path(initdb).parent.parent.name
        return int(name) if name.isdigit() else 0

    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=major)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def why_unavailable() -> str | None:
    """None when a cluster can be started here, else why not (the skip message)."""
    if server_binaries() is None:
        return ("no PostgreSQL server binaries (initdb, pg_ctl): install the postgresql package "
                "(`make postgresql` does it as root)")
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root without a `postgres` user to own the test cluster"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Cluster:
    """A running cluster; :meth:`url` for a database on it."""

    folder: Path
    socket_dir: Path
    port: int
    bin: Path
    _names: itertools.count = field(default_factory=lambda: itertools.count(1))
    _free: list[str] = field(default_factory=list)  # emptied databases, ready again
    _emptying: str = ""  # the SQL that empties a database (from the template's tables)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.socket_dir}&port={self.port}"

    def _run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, text=True)

    async def new_database(self) -> str:
        """A fresh, migrated, empty database; returns its URL."""
        if self._free:
            return self._free.pop()
        name = f"test_{os.getpid()}_{next(self._names)}"
        admin = await asyncpg.connect(self.url())
        try:
            await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE {TEMPLATE} STRATEGY FILE_COPY')
        finally:
            await admin.close()
        return self.url(name)

    async def release(self, urls: list[str]) -> None:
        """Empty the databases a test used and keep them for the next tests; a database that
        cannot be emptied (still in use, damaged) is dropped instead."""
        for url in urls:
            conn = await asyncpg.connect(url)
            try:
                await conn.execute(self._emptying)
            except (asyncpg.PostgresError, OSError):
                await self.drop_databases([url])
                continue
            finally:
                await conn.close()
            self._free.append(url)

    async def drop_databases(self, urls: list[str]) -> None:
        admin = await asyncpg.connect(self.url())
        try:
            for url in urls:
                name = url.split("/", 3)[3].split("?", 1)[0]
                await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def start_cluster() -> Cluster:
    binaries = server_binaries()
    assert binaries is not None
    folder = Path(tempfile.mkdtemp(prefix="swissbot-pg-"))
    socket_dir = folder / "socket"
    socket_dir.mkdir()
    if os.geteuid() == 0:
        owner = pwd.getpwnam("postgres")
        for path in (folder, socket_dir):
            os.chown(path, owner.pw_uid, owner.pw_gid)
    cluster = Cluster(folder=folder, socket_dir=socket_dir, port=_free_port(), bin=binaries)
    data = str(folder / "data")
    try:
        cluster._run("initdb", "-D", data, "-U", "postgres", "--auth=trust", "--locale=C",
                     "--encoding=UTF8", "--no-sync")
        options = (f"-k {socket_dir} -p {cluster.port} -c listen_addresses='' -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        cluster._run("pg_ctl", "-D", data, "-o", options, "-l", str(folder / "server.log"),
                     "-w", "start")
        asyncio.run(_make_template(cluster))
    except BaseException:
        cluster.stop()
        raise
    return cluster


async def _make_template(cluster: Cluster) -> None:
    admin = await asyncpg.connect(cluster.url())
    try:
        await admin.execute(f"CREATE DATABASE {TEMPLATE}")
    finally:
        await admin.close()
    db = await connect(cluster.url(TEMPLATE))
    await db.close()
    raw = await asyncpg.connect(cluster.url(TEMPLATE))
    try:
        tables = [r[0] for r in await raw.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            " AND tablename <> 'swissbot_schema'")]
        sequences = [r[0] for r in await raw.fetch(
            "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")]
    finally:
        await raw.close()
    # replica role: no triggers (the audit log's append-only guard) and no foreign-key checks,
    # so the tables empty in any order; the ids start again from 1 as in a new database.
    cluster._emptying = ";".join(
        ["SET session_replication_role = replica"]
        + [f'DELETE FROM "{t}"' for t in tables]
        + [f'ALTER SEQUENCE "{s}" RESTART' for s in sequences]
        + ["SET session_replication_role = DEFAULT"]
    )
