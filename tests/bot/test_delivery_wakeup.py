"""The outbox loop does not lose a wake-up (issue 11, item 4).

A command that commits while a delivery pass is running queues its announcement and calls
``wake()``; the loop must run another pass at once instead of sleeping for its interval. The
interval here is an hour, so the post arrives only if the wake-up was kept; the wait below is
only a guard against hanging the suite.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.delivery import OutboxDelivery
from service import Announcement, TournamentService
from tests.service_helpers import member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()
CHANNEL_ID = 4242
AN_HOUR = 3600.0
HANG_GUARD_SECONDS = 60.0


class RecordingChannel(discord.abc.Messageable):
    """A channel that records what is posted to it."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.posted = asyncio.Event()

    async def send(self, **kwargs: Any) -> None:  # type: ignore[override]
        self.sent.append(kwargs)
        self.posted.set()


class ReadyClient:
    """The few client methods the delivery loop uses."""

    def __init__(self, channel: RecordingChannel) -> None:
        self.channel = channel

    async def wait_until_ready(self) -> None:
        return None

    def is_closed(self) -> bool:
        return False

    def get_channel(self, channel_id: int) -> RecordingChannel | None:
        return self.channel if channel_id == CHANNEL_ID else None

    def get_guild(self, guild_id: int) -> None:
        return None  # not in the cache: the post is in the language it was queued with


async def _tournament_ready_to_start(service: TournamentService) -> None:
    await service.create_tournament(ORG, "Wake Cup", 3, channel_id=CHANNEL_ID, seed=1)
    for uid in range(1, 5):
        await service.join(member(uid))


async def test_post_queued_during_a_delivery_pass_goes_out_without_waiting_for_the_interval(
    tmp_path: Path,
) -> None:
    channel = RecordingChannel()
    async with open_service(tmp_path / "wake.sqlite3") as service:
        await _tournament_ready_to_start(service)
        delivery = OutboxDelivery(ReadyClient(channel), service, interval=AN_HOUR)  # type: ignore[arg-type]
        passes = 0
        read_outbox = service.pending_announcements
        claim = service.claim_announcements

        async def pending_then_a_command_commits(claimant: str, **options: Any
                                                 ) -> list[Announcement]:
            nonlocal passes
            rows = await claim(claimant, **options)
            passes += 1
            if passes == 1:
                # An organiser's /tournament start commits while this pass runs, and its cog
                # wakes the loop (cogs.common.announced), exactly as in the bot.
                await service.start_tournament(ORG)
                delivery.wake()
            return rows

        service.claim_announcements = pending_then_a_command_commits  # type: ignore[method-assign]
        delivery.start()
        try:
            await asyncio.wait_for(channel.posted.wait(), timeout=HANG_GUARD_SECONDS)
        finally:
            await delivery.stop()
        assert passes >= 2
        assert "Round 1" in str(channel.sent[0])
        assert await read_outbox() == []  # delivered and marked


class SlowChannel(RecordingChannel):
    """Posting waits until the test lets it go on."""

    def __init__(self) -> None:
        super().__init__()
        self.go_on = asyncio.Event()

    async def send(self, **kwargs: Any) -> None:  # type: ignore[override]
        self.posted.set()
        await self.go_on.wait()
        self.sent.append(kwargs)


async def test_stop_lets_the_announcement_being_posted_finish_and_be_marked(
    tmp_path: Path,
) -> None:
    """Stopping (shutdown) does not cancel a pass half-way: the post in progress completes
    and is marked delivered, so nothing is posted twice after the restart."""
    channel = SlowChannel()
    async with open_service(tmp_path / "stop.sqlite3") as service:
        await _tournament_ready_to_start(service)
        await service.start_tournament(ORG)
        delivery = OutboxDelivery(ReadyClient(channel), service, interval=AN_HOUR)  # type: ignore[arg-type]
        delivery.start()
        try:
            await asyncio.wait_for(channel.posted.wait(), timeout=HANG_GUARD_SECONDS)
            stopping = asyncio.create_task(delivery.stop())
            await asyncio.sleep(0)
            assert not stopping.done()  # waiting for the post in progress
        finally:
            channel.go_on.set()
        await stopping
        assert len(channel.sent) == 1
        assert await service.pending_announcements() == []
