"""A throwaway PostgreSQL cluster from the distribution's server binaries (initdb, pg_ctl),
for the tests that must see what PostgreSQL itself does. psql talks to it over a socket in the
test's folder. As root (CI containers) the server runs as ``nobody``: PostgreSQL refuses root.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def server_binaries() -> Path | None:
    """The folder of initdb / pg_ctl / psql, or None when PostgreSQL is not installed."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(candidates[-1]).parent if candidates else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Cluster:
    def __init__(self, bindir: Path, folder: Path, port: int) -> None:
        self.bindir, self.folder, self.port = bindir, folder, port

    def psql(self, sql: str, *, timeout: float = 30) -> list[list[str]]:
        """Run ``sql`` (stops at the first error); the rows, fields split on ``|``."""
        psql = shutil.which("psql") or str(self.bindir / "psql")
        done = subprocess.run(
            [psql, "-h", str(self.folder), "-p", str(self.port), "-U", "postgres", "-X", "-q",
             "-A", "-t", "-v", "ON_ERROR_STOP=1"],
            input=sql, capture_output=True, text=True, timeout=timeout, check=False,
        )
        if done.returncode != 0:
            raise AssertionError(f"psql failed: {done.stderr.strip()}")
        return [line.split("|") for line in done.stdout.splitlines() if line]

    def popen(self, sql: str) -> subprocess.Popen[str]:
        psql = shutil.which("psql") or str(self.bindir / "psql")
        process = subprocess.Popen(
            [psql, "-h", str(self.folder), "-p", str(self.port), "-U", "postgres", "-X", "-q",
             "-A", "-t", "-v", "ON_ERROR_STOP=1"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        assert process.stdin is not None
        process.stdin.write(sql)
        process.stdin.close()
        return process


@contextmanager
def throwaway_cluster() -> Iterator[Cluster]:
    """Start a cluster in a new folder of the system's temporary directory (not pytest's: as
    root, that one is closed to ``nobody``), stop it and remove the folder afterwards."""
    bindir = server_binaries()
    assert bindir is not None
    folder = Path(tempfile.mkdtemp(prefix="swissbot-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(folder, "nobody")
        as_user = ["runuser", "-u", "nobody", "--"]
    data, port = folder / "data", _free_port()
    subprocess.run([*as_user, str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U",
                    "postgres", "--no-sync"], check=True, capture_output=True, timeout=120)
    subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-w", "-l",
                    str(folder / "server.log"), "-o",
                    f"-p {port} -k {folder} -c listen_addresses= -c fsync=off", "start"],
                   check=True, capture_output=True, timeout=120)
    try:
        yield Cluster(bindir, folder, port)
    finally:
        subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate",
                        "stop"], check=False, capture_output=True, timeout=60)
        shutil.rmtree(folder, ignore_errors=True)
