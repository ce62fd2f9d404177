"""Run a real discord.py client against the sandbox (used by the e2e tests and the demo)."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass

import discord

from sandbox.server import FakeDiscord, SandboxError


@dataclass
class RunningBot:
    """A client that has logged in to the sandbox and received READY and its guilds."""

    client: discord.Client
    task: asyncio.Task[None]

    async def stop(self) -> None:
        """Close the client and surface any crash of its gateway connection."""
        await self.client.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(self.task, timeout=5)


async def start_bot(client: discord.Client, fake: FakeDiscord, timeout: float = 10.0) -> RunningBot:
    """Log ``client`` in to ``fake`` and wait until it is ready.

    The endpoints must already point at the sandbox (``bot.client.point_at``). Waits for
    either ``on_ready`` or the connection task ending, so a crash fails fast with its own
    exception instead of a timeout.
    """
    await client.login(fake.token)
    task = asyncio.create_task(client.connect(reconnect=False), name="sandbox-bot-connect")
    ready = asyncio.create_task(client.wait_until_ready())
    done, _ = await asyncio.wait(
        {task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
    )
    if ready not in done:
        ready.cancel()
        if task in done:
            task.result()  # re-raises the gateway crash
            raise SandboxError("the bot's connection ended before it was ready")
        await client.close()
        task.cancel()
        raise SandboxError(f"the bot was not ready within {timeout}s")
    return RunningBot(client, task)
