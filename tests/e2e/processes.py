"""Bot PROCESSES against the sandbox: ``swissbot run`` as a subprocess, configured by the
environment, for the multi-process tests (shards, the kill test)."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import multiprocessing.context
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from bot.client import DEFAULT_EXTENSIONS
from sandbox import FakeDiscord, SandboxGuild
from tests.e2e.fixtures import Club

ROOT = Path(__file__).resolve().parents[2]


def bot_env(fake: FakeDiscord, database: Path | str, **settings: str) -> dict[str, str]:
    """The environment of one bot process: the sandbox's endpoints, ``database``, and
    ``settings`` (``SWISSBOT_SHARDS="4"``...)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SWISSBOT_"))}
    env.update(
        DISCORD_TOKEN=fake.token,
        DISCORD_API_BASE=fake.api_base,
        DISCORD_GATEWAY_URL=fake.gateway_url,
        SWISSBOT_DATABASE=str(database),
        SWISSBOT_GUILD_IDS=",".join(str(g) for g in fake.guilds),
        SWISSBOT_LOG_LEVEL="WARNING",
        PYTHONPATH=str(ROOT),
    )
    env.update(settings)
    return env


#: ``swissbot run`` (the arguments of the Python interpreter)
RUN = ("-m", "cli.main", "run")


async def start_process(env: dict[str, str], cwd: Path, log: Path, *,
                        command: tuple[str, ...] = RUN,
                        ) -> asyncio.subprocess.Process:
    """``python -m cli.main run`` (or ``command``); its stderr goes to ``log`` (appended:
    restarts add up)."""
    with log.open("ab") as err:
        return await asyncio.create_subprocess_exec(
            sys.executable, *command, env=env, cwd=cwd,
            stdout=asyncio.subprocess.DEVNULL, stderr=err,
        )


def descendants(pid: int) -> set[int]:
    """The processes below ``pid`` now (children, their children...), read from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            parent = _stat(int(entry.name))
            if parent is not None:
                children.setdefault(parent[1], []).append(int(entry.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def pairs_in_a_worker(bot: int) -> bool:
    """Whether bot process ``bot`` has a worker: a process two levels below it (the child of
    its multiprocessing fork server)."""
    below = descendants(bot)
    return any((stat := _stat(pid)) is not None and stat[1] in below for pid in below)


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie has ended: only its exit status is left)."""
    stat = _stat(pid)
    return stat is not None and stat[0] not in ("Z", "X")


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) from /proc/<pid>/stat; None once the process is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()  # after "pid (command name) "
    return fields[0], int(fields[1])


async def stop_process(process: asyncio.subprocess.Process, timeout: float = 20) -> None:
    """SIGTERM (a clean shutdown), SIGKILL if it does not end in time."""
    if process.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        process.terminate()
    try:
        await asyncio.wait_for(process.wait(), timeout)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()


async def wait_until(condition, timeout: float, what: str) -> None:  # type: ignore[no-untyped-def]
    """Poll ``condition()`` every 50 ms until it is true; fail naming ``what``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(0.05)


class BotProcess:
    """``swissbot run`` against ``fake``, one process at a time (started again after a kill
    or a stop), its stderr appended to ``log``; ``settings`` are environment variables."""

    def __init__(self, fake: FakeDiscord, guild: SandboxGuild, tmp_path: Path,
                 **settings: str) -> None:
        self.fake, self.guild, self.cwd = fake, guild, tmp_path
        self.database = tmp_path / "bot.sqlite3"
        self.log = tmp_path / "bot.log"
        self.env = bot_env(fake, self.database, **{"SWISSBOT_DELIVERY_INTERVAL": "0.1",
                                                   **settings})
        self.process: asyncio.subprocess.Process | None = None

    async def start(self, command: tuple[str, ...] = RUN, *, connect: bool = True) -> None:
        """Start the process and (``connect``) wait until it is connected to the sandbox's
        gateway and has synced its commands."""
        before = self.fake.connected
        self.process = await start_process(self.env, self.cwd, self.log, command=command)
        if not connect:
            return
        await wait_until(lambda: self.fake.connected > before
                         and self.guild.id in self.fake.guild_commands,
                         90, "the bot connected and synced its commands")

    async def kill(self) -> set[int]:
        """SIGKILL; returns the processes it had started (alive at the kill)."""
        assert self.process is not None
        below = descendants(self.process.pid)
        self.process.send_signal(signal.SIGKILL)
        assert await self.process.wait() == -signal.SIGKILL
        await wait_until(lambda: self.fake.connected == 0, 30, "the gateway noticed the kill")
        return below

    async def stop(self) -> None:
        if self.process is not None:
            await stop_process(self.process)

    async def wait_for_log(self, text: str, timeout: float) -> None:
        """Wait until ``text`` is in the bot's log (the log is in the failure's message)."""
        try:
            await wait_until(lambda: text in self.text(), timeout, repr(text))
        except AssertionError as failure:
            raise AssertionError(f"{failure}\n{self.text()}") from None

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


@contextlib.asynccontextmanager
async def club_and_bot(tmp_path: Path, players: int, **settings: str
                       ) -> AsyncIterator[tuple[FakeDiscord, Club, BotProcess]]:
    """A sandbox with one guild of ``players`` members, its :class:`Club` and a (not yet
    started) :class:`BotProcess` on it, stopped on the way out whatever happened."""
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Process Club", players=players)
        bot = BotProcess(fake, guild, tmp_path, **settings)
        try:
            yield fake, Club(fake, guild), bot
        finally:
            await bot.stop()


#: ``swissbot run`` whose pairings never end (tests/e2e/hung_bot.py): ``BotProcess.start(HUNG)``
HUNG = ("-m", "tests.e2e.hung_bot")


async def start_hanging_pairing(club: Club, name: str, players: int) -> dict[str, Any]:
    """Create ``name``, let ``players`` members join and send ``/tournament start``; returns
    the interaction once the bot answered "thinking..." (the pairing then never ends)."""
    await club.run(club.owner, "tournament create", name=name, rounds=3)
    for player in club.players[:players]:
        assert "joined" in (await club.run(player, "join"))["content"]
    start = await club.fake.send_slash_command(club.guild, club.channel, club.owner,
                                               "tournament start", {})
    record = club.fake.interactions[start["token"]]
    await wait_until(lambda: record.original_message_id is not None, 30,
                     "the command's thinking answer")
    assert not record.answered.is_set()
    return start


# -- bot processes forked from a preloaded server (the kill test restarts them 40 times) ------
# Importing discord.py, the cogs and the renderers takes seconds on a loaded machine; a
# forkserver imports them once and forks each bot process from there, so a restart is about a
# tenth of a second. Each child is still a separate OS process with its own database
# connection and gateway connections, killed with a real SIGKILL.
PRELOAD = ["cli.main", "cli.run", "bot.client", "bot.delivery", *DEFAULT_EXTENSIONS, "service",
           "storage.db"]


def bot_child(env: dict[str, str], cwd: str, log: str) -> None:
    """The body of a forked bot process: the environment, stderr to ``log``, ``swissbot run``."""
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    os.dup2(fd, 2)
    from cli.main import main

    os._exit(main(["run"]))


def forkserver() -> multiprocessing.context.ForkServerContext:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context
