"""The demo's bot in a process of its own: ``swissbot run`` against the sandbox.

The demo's simulated members (hundreds of commands in flight) and the sandbox answering them
would otherwise share the bot's event loop, and a late heartbeat would then measure the demo,
not the bot. Here the bot is the same program an operator runs, configured by the environment
(the sandbox's endpoints and token, a database in a temporary folder), stopped by SIGTERM as a
service manager stops it; its log is kept and read for errors when it ends.

Run as ``python -m cli.demo_bot`` (what :class:`DemoBot` starts).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import signal
import sys
import threading
from pathlib import Path

from sandbox.server import FakeDiscord

#: How long the demo waits for its bot to connect and sync its commands (imports included,
#: on a machine busy with other work).
START_SECONDS = 90.0
#: How long a SIGTERM'd bot may take to stop before it is killed (its own limit is 5 s).
STOP_SECONDS = 20.0
#: How long discord.py waits for the guilds after READY: the sandbox sends them at once.
GUILD_READY_SECONDS = 0.05
#: Lines of the bot's log that are problems: an error (with its traceback), and discord.py's
#: warnings that the event loop did not keep up with the gateway.
PROBLEM = re.compile(r"^\d\d:\d\d:\d\d (ERROR|CRITICAL) |Traceback \(most recent call last\)"
                     r"|Can't keep up|heartbeat blocked|stopped responding to the gateway"
                     r"|^swissbot: |^Fatal Python error")


class DemoBot:
    """``swissbot run`` in a child process against ``fake``, its database at ``database`` and
    its stderr in ``log``."""

    def __init__(self, fake: FakeDiscord, guild_id: int, database: Path, log: Path) -> None:
        self.fake, self.guild_id, self.database, self.log = fake, guild_id, database, log
        self.process: asyncio.subprocess.Process | None = None
        self.extra_environment: dict[str, str] = {}  # e.g. the fake Lichess's address

    def environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("DISCORD_", "SWISSBOT_"))}
        env.update(
            DISCORD_TOKEN=self.fake.token,
            DISCORD_API_BASE=self.fake.api_base,
            DISCORD_GATEWAY_URL=self.fake.gateway_url,
            SWISSBOT_DATABASE=str(self.database),
            SWISSBOT_GUILD_IDS=str(self.guild_id),
            SWISSBOT_LOG_LEVEL="WARNING",
            SWISSBOT_DELIVERY_INTERVAL="0.1",
        )
        env.update(self.extra_environment)
        return env

    async def start(self) -> None:
        """Start the process; return once it is connected and its commands are synced."""
        with self.log.open("ab") as err:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "cli.demo_bot", env=self.environment(),
                # the child stops when this pipe closes: when the demo ends, however it ends
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.DEVNULL,
                stderr=err)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + START_SECONDS
        while not (self.fake.connected and self.guild_id in self.fake.guild_commands):
            if self.process.returncode is not None:
                raise DemoBotStopped(self.process.returncode, self.problems())
            if loop.time() > deadline:
                raise DemoBotStopped(None, [f"not connected within {START_SECONDS:g} s"])
            await asyncio.sleep(0.05)

    async def ended(self) -> DemoBotStopped:
        """Wait until the process ends by itself (a crash): what it said."""
        assert self.process is not None
        code = await self.process.wait()
        return DemoBotStopped(code, self.problems())

    async def stop(self) -> int | None:
        """SIGTERM, as a service manager stops the bot; SIGKILL if it does not end in time.
        Returns the exit code (None: it had to be killed)."""
        process = self.process
        if process is None:
            return None
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.terminate()
            try:
                return await asyncio.wait_for(process.wait(), STOP_SECONDS)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()
                return None
        return process.returncode

    def problems(self) -> list[str]:
        """The log's error lines, the tracebacks' first lines, and its warnings that the
        gateway was not kept up with."""
        if not self.log.exists():
            return []
        lines = self.log.read_text(encoding="utf-8", errors="replace").splitlines()
        return [line for line in lines if PROBLEM.search(line)]


class DemoBotStopped(Exception):
    """The demo's bot process ended (or never connected): its exit code and problems."""

    def __init__(self, code: int | None, problems: list[str]) -> None:
        said = "; ".join(problems[-3:]) or "nothing in its log"
        super().__init__(f"the bot stopped (exit code {code}): {said}")
        self.code, self.problems = code, problems


def main() -> int:
    """The child: ``swissbot run`` with the sandbox's settings from the environment."""
    from cli.run import run

    threading.Thread(target=_stop_when_the_demo_ends, name="swissbot-demo-watch",
                     daemon=True).start()
    return run(argparse.Namespace(), guild_ready_timeout=GUILD_READY_SECONDS)


def _stop_when_the_demo_ends() -> None:
    """The demo holds this process's standard input open. When the demo ends without
    stopping its bot (killed, or interrupted before its clean-up), the pipe closes: stop as
    on SIGTERM, so that no bot outlives its demo."""
    # the file descriptor, not sys.stdin: a daemon thread blocked inside the buffered reader
    # would hold its lock at the interpreter's exit, which then aborts the process
    with contextlib.suppress(OSError):
        while os.read(0, 4096):
            pass
    os.kill(os.getpid(), signal.SIGTERM)


if __name__ == "__main__":
    sys.exit(main())
