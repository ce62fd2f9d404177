"""Opening the database at start-up (issue 11, item 13), with real SQLite files.

Several processes opening one new file at once all succeed; a file written by a newer swissbot,
a file that is not a database, a damaged file and a read-only file or folder are refused at
start with one line (``UnusableDatabase``), and ``swissbot run`` shows that line and exits 3
instead of a traceback (or of starting and then failing every write).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli.exit_codes import EXIT_INVALID_INPUT
from storage.db import MigrationError, UnusableDatabase, connect, migration_files
from tests.paths import REPO

LATEST = migration_files()[-1][0]
PROCESSES = 6
REPEATS = 8


def _open_and_close(path: str, barrier: multiprocessing.synchronize.Barrier) -> None:
    """One process of the race: wait for the others, then open (create, migrate) the file."""

    async def go() -> None:
        db = await connect(path)
        await db.close()

    barrier.wait(timeout=60)
    asyncio.run(go())


def test_processes_opening_one_new_file_at_once_all_succeed(tmp_path: Path) -> None:
    # fork is the cheapest way to get several real processes to the same line together; spawn
    # works too (the target is a module-level function) where fork is unavailable.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    for repeat in range(REPEATS):
        path = str(tmp_path / f"new{repeat}.sqlite3")
        barrier = context.Barrier(PROCESSES)
        workers = [
            context.Process(target=_open_and_close, args=(path, barrier))
            for _ in range(PROCESSES)
        ]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=120)
        codes = [worker.exitcode for worker in workers]
        assert codes == [0] * PROCESSES, f"repeat {repeat}: exit codes {codes}"
        raw = sqlite3.connect(path)
        try:
            assert raw.execute("PRAGMA user_version").fetchone()[0] == LATEST
            assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        finally:
            raw.close()


def _write_user_version(path: Path, version: int) -> None:
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version = {version:d}")
    raw.commit()
    raw.close()


async def test_a_database_from_a_newer_swissbot_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite3"
    _write_user_version(path, 99)
    with pytest.raises(MigrationError) as caught:
        await connect(path)
    message = str(caught.value)
    assert (
        f"this database was written by a newer swissbot (schema 99, this build knows {LATEST})"
        in message
    )
    assert str(path) in message and "\n" not in message
    assert isinstance(caught.value, UnusableDatabase)


async def _real_database(path: Path, rows: int = 300) -> None:
    """A migrated database with enough rows to span many pages, checkpointed into the file."""
    db = await connect(path)
    async with db.transaction() as conn:
        for i in range(rows):
            await conn.execute(
                "INSERT INTO tournaments (guild_id, name, settings, seed, created_by, created_at)"
                " VALUES (?, ?, '{}', 1, 1, '2025-01-01T00:00:00+00:00')",
                (i, "x" * 200),
            )
    await db.close()  # the last connection closing checkpoints the WAL into the main file
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def _garbage(path: Path) -> None:
    path.write_bytes(bytes(range(256)) * 40)


def _text(path: Path) -> None:
    path.write_text("# swissbot\n\nA Discord bot for Swiss tournaments.\n", encoding="utf-8")


def _truncate(path: Path) -> None:
    os.truncate(path, path.stat().st_size // 2)


def _truncate_header(path: Path) -> None:
    os.truncate(path, 50)


def _overwrite_pages(path: Path) -> None:
    with path.open("r+b") as handle:
        handle.seek(4096 * 3)
        handle.write(b"\xa5" * (4096 * 3))


@pytest.mark.parametrize(
    ("damage", "expected"),
    [
        (_garbage, "it is not a SQLite database"),
        (_text, "it is not a SQLite database"),
        (_truncate, "it is damaged"),
        (_truncate_header, "it is damaged"),
        (_overwrite_pages, "it is damaged"),
    ],
    ids=["garbage", "text-file", "truncated-half", "truncated-header", "overwritten-pages"],
)
async def test_a_damaged_or_foreign_file_is_refused_at_start(
    tmp_path: Path, damage: object, expected: str
) -> None:
    path = tmp_path / "bot.sqlite3"
    await _real_database(path)
    assert callable(damage)
    damage(path)
    before = path.read_bytes()
    with pytest.raises(UnusableDatabase, match=expected) as caught:
        await connect(path)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)
    assert path.read_bytes() == before  # refused before anything wrote to it


# The read-only cases run in a child process: as an ordinary user it opens the file as it is;
# as root (for whom chmod does not stop writes) it first drops to the "nobody" user, after
# importing, so the permission bits apply. "path check" is the friendly os.access check;
# "write probe" switches it off to prove that SQLite's own write test refuses the file too.
_CHILD = """
import asyncio, os, sys
import storage.db
from storage.db import UnusableDatabase, connect, migration_files

path, layer = sys.argv[1], sys.argv[2]
migration_files()  # imports what reading them needs while the Python install is readable
if os.geteuid() == 0:
    try:
        os.setgid(65534)
        os.setuid(65534)
    except OSError as exc:
        print(f"SKIP cannot drop root privileges ({exc}); as root chmod does not stop writes")
        sys.exit(0)
    try:
        migration_files()
    except OSError as exc:
        print(f"SKIP the unprivileged user cannot read the migrations ({exc})")
        sys.exit(0)
if layer == "write probe":
    storage.db._check_path = lambda _path: None

async def main() -> None:
    try:
        db = await connect(path)
    except UnusableDatabase as exc:
        print(f"REFUSED {exc}")
        return
    print("OPENED")
    await db.close()

asyncio.run(main())
"""


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A folder the unprivileged user can enter (pytest's tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="swissbot-ro-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for root, dirs, _files in os.walk(folder):
            for name in dirs:
                os.chmod(os.path.join(root, name), 0o755)
        shutil.rmtree(folder)


@pytest.mark.parametrize("layer", ["path check", "write probe"])
@pytest.mark.parametrize("case", ["read-only file", "read-only folder"])
async def test_a_read_only_database_is_refused_at_start(
    shared_dir: Path, case: str, layer: str
) -> None:
    folder = shared_dir / "data"
    folder.mkdir()
    path = folder / "bot.sqlite3"
    await _real_database(path)
    if case == "read-only file":
        path.chmod(0o444)
    else:
        path.chmod(0o666)  # the file itself is writable: the -wal and -shm files are not
        folder.chmod(0o555)
    child = subprocess.run(
        [sys.executable, "-c", _CHILD, str(path), layer],
        capture_output=True, text=True, timeout=120, cwd=REPO,
    )
    out = child.stdout.strip()
    assert child.returncode == 0, child.stderr
    if out.startswith("SKIP"):
        pytest.skip(out.removeprefix("SKIP "))
    assert out.startswith("REFUSED"), out
    assert "read-only" in out and str(path) in out
    assert len(out.splitlines()) == 1


def _swissbot_run(tmp_path: Path, database: Path) -> subprocess.CompletedProcess[str]:
    # cwd is a fresh folder so that no .env of the developer's is read.
    env = {
        key: value for key, value in os.environ.items()
        if not key.startswith(("DISCORD_", "SWISSBOT_"))
    }
    env.update(DISCORD_TOKEN="not-a-real-token", SWISSBOT_DATABASE=str(database))
    # Never reached when the database is refused; local dead addresses if it were not.
    env.update(DISCORD_API_BASE="http://127.0.0.1:9/api/v10", DISCORD_GATEWAY_URL="ws://127.0.0.1:9")
    return subprocess.run(
        [sys.executable, "-m", "cli", "run"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env,
    )


@pytest.mark.parametrize("case", ["newer", "garbage", "truncated"])
async def test_swissbot_run_refuses_an_unusable_database_in_one_line(
    tmp_path: Path, case: str
) -> None:
    path = tmp_path / "bot.sqlite3"
    if case == "newer":
        _write_user_version(path, 99)
        expected = (
            f"this database was written by a newer swissbot (schema 99, this build knows "
            f"{LATEST})"
        )
    elif case == "garbage":
        _garbage(path)
        expected = "it is not a SQLite database"
    else:
        await _real_database(path)
        _truncate(path)
        expected = "it is damaged"
    result = _swissbot_run(tmp_path, path)
    assert result.returncode == EXIT_INVALID_INPUT, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("swissbot: cannot use the database") and expected in lines[0]
