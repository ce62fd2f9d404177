"""SIGTERM and SIGINT shut the bot down cleanly (issue 11, item 10): new commands are refused,
the running ones and the outbox pass finish, the database is closed, the exit code is 0."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from sandbox import FakeDiscord, SandboxGuild
from storage.db import connect
from tests.e2e.fixtures import Club
from tests.e2e.test_run_command import _env, _swissbot

EPHEMERAL = 64
SUBPROCESS_GUARD_SECONDS = 60.0  # only against a hung test: a clean stop takes well under 1 s


async def _serving(fake: FakeDiscord) -> None:
    """Wait until the subprocess synced its commands and is connected to the gateway."""
    await fake.wait_for_request(lambda r: r.kind == "sync_commands",
                                timeout=SUBPROCESS_GUARD_SECONDS)
    for _ in range(600):  # the sync happens in setup_hook, before READY
        if fake.connected:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the bot never connected to the sandbox gateway")


async def _mid_tournament(club: Club) -> None:
    """A running tournament: round 1 paired, one result reported and waiting."""
    reply = await club.run(club.owner, "tournament create", name="Signal Open", rounds=3)
    assert "Created" in reply["content"], reply
    for player in club.players[:4]:
        await club.run(player, "join")
    reply = await club.run(club.owner, "tournament start")
    assert "has started" in reply["content"], reply
    reply = await club.run(club.players[0], "report", result="win")
    assert reply["content"], reply


def _database_after(path: Path) -> tuple[str, list[Any]]:
    """Open the file as a fresh process would: integrity, and the tournament's state."""
    with sqlite3.connect(path) as conn:
        integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
        rows = conn.execute(
            "SELECT t.status, COUNT(r.id) FROM tournaments t"
            " LEFT JOIN rounds r ON r.tournament_id = t.id GROUP BY t.id").fetchall()
    return integrity, rows


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_signal_mid_tournament_stops_cleanly_with_exit_code_zero(
    tmp_path: Path, sig: signal.Signals
) -> None:
    database = tmp_path / "bot.sqlite3"
    async with FakeDiscord() as fake:
        guild = fake.add_guild(players=4)
        process = await _swissbot(_env(fake, tmp_path, fake.token), tmp_path)
        try:
            await _serving(fake)
            await _mid_tournament(Club(fake, guild))
        finally:
            process.send_signal(sig)
            _, err = await asyncio.wait_for(process.communicate(),
                                            timeout=SUBPROCESS_GUARD_SECONDS)
    log = err.decode()
    assert process.returncode == 0, log
    assert log.count("stopping") == 1 and f"stopping: {sig.name}\n" in log, log
    assert "Traceback" not in log and " ERROR " not in log, log
    # The last connection closed cleanly: SQLite checkpointed and removed the write-ahead log.
    assert not Path(f"{database}-wal").exists()
    assert _database_after(database) == ("ok", [("running", 1)])
    db = await connect(database)  # and swissbot itself reopens it (migrations are current)
    try:
        (game,) = (await _games(db))
        assert game == "reported"
    finally:
        await db.close()


async def _games(db: Any) -> list[str]:
    async with db.transaction(readonly=True) as conn:
        cur = await conn.execute("SELECT state FROM games")
        return sorted(row[0] for row in await cur.fetchall() if row[0] != "pending")


async def test_shutdown_lets_the_running_command_commit_and_refuses_new_ones(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any, database: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await club.run(club.owner, "tournament create", name="Pause Open", rounds=3)
    for player in club.players[:4]:
        await club.run(player, "join")
    # /tournament start stops inside its storing transaction until the test lets it go on.
    inside, go_on = asyncio.Event(), asyncio.Event()
    store = bot.service.course.insert_round_later  # the store step of every pairing

    async def paused_store(*args: Any, **kwargs: Any) -> Any:
        inside.set()
        await go_on.wait()
        return await store(*args, **kwargs)

    monkeypatch.setattr(bot.service.course, "insert_round_later", paused_store)
    start = await fake.send_slash_command(guild, club.channel, club.owner, "tournament start")
    try:
        await inside.wait()
        shutdown = asyncio.create_task(bot.shutdown("received SIGTERM"))
        while not bot.shutting_down:
            await asyncio.sleep(0)
        refused = await club.run(club.players[5], "tournament info")
        assert refused["flags"] & EPHEMERAL
        assert refused["content"].startswith("swissbot is shutting down for a moment")
        assert not shutdown.done()  # still waiting for /tournament start
    finally:
        go_on.set()  # a failure above must not leave the command (and the teardown) hanging
    reply = await fake.reply(start)
    assert "has started" in reply["content"], reply
    await shutdown
    assert bot.is_closed()
    db = await connect(database)
    try:
        async with db.transaction(readonly=True) as conn:
            cur = await conn.execute("SELECT status FROM tournaments")
            assert [row[0] for row in await cur.fetchall()] == ["running"]
            cur = await conn.execute("SELECT number FROM rounds")
            assert [row[0] for row in await cur.fetchall()] == [1]
    finally:
        await db.close()


async def test_closing_while_a_command_closes_prompts_never_uses_the_closed_session(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any,
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    """A forced /round next disables the buttons of every open report prompt, one edit each
    (834 of them in a 2,000-player event). The bot closing meanwhile must stop that loop
    before its HTTP session goes, not run every remaining edit into "Session is closed"."""
    bot = await start_swissbot()
    club = Club(fake, guild)
    await club.run(club.owner, "tournament create", name="Prompt Open", rounds=3)
    for player in club.players[:12]:
        await club.run(player, "join")
    await club.run(club.owner, "tournament start")
    view = await bot.service.pairings(guild.id)
    for game in view.games:  # six reports waiting for their opponent: six open prompts
        await club.run(guild.members[game.white.user_id], "report", result="win")
    edits: list[int] = []
    edit = fake._message_op

    async def slow_edit(method: str, message: dict[str, Any], *args: Any) -> Any:
        if method == "PATCH":
            edits.append(int(message["id"]))
            await asyncio.sleep(0.3)  # a slow Discord: the close comes between two edits
        return await edit(method, message, *args)

    monkeypatch.setattr(fake, "_message_op", slow_edit)
    # round 2 named: a forced /round next acts at once (without it, it asks first)
    await fake.send_slash_command(guild, club.channel, club.owner, "round next",
                                  {"force": True, "round": 2})
    async with asyncio.timeout(30):
        while not edits:
            await asyncio.sleep(0.01)
    await bot.close()
    await asyncio.sleep(1)  # what the loop would still have tried
    assert len(edits) < len(view.games)  # the close came in the middle of the loop
    logged = "\n".join(r.getMessage() + str(r.exc_info) for r in caplog.records)
    assert "Session is closed" not in logged, logged
    assert "cannot close the report prompt" not in logged, logged
