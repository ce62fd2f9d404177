"""The delivery's lease keeper (bot.leases): it renews the process's leases while it runs,
takes back a dead predecessor's rows when it starts, and gives everything back when it
stops (on SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.leases import LeaseKeeper
from storage import journal
from tests.service_helpers import START, Clock, open_service

pytestmark = pytest.mark.usefixtures("backend")

GUILD = 1000


async def test_the_keeper_renews_takes_back_and_gives_back(tmp_path: Path) -> None:
    clock = Clock()
    async with open_service(tmp_path / "keeper.sqlite3", clock) as service:
        async with service.db.transaction() as conn:
            row = await journal.enqueue(conn, guild_id=GUILD, channel_id=10,
                                        tournament_id=None, kind="pairings", payload={},
                                        now=START)
        dead = LeaseKeeper(service, lease_seconds=1.0)
        await dead.start()
        assert [a.id for a in await service.claim_announcements(dead.claimant,
                                                                lease_seconds=1.0)] == [row]
        # killed: its lock goes, its renewals stop, its lease is left behind
        dead._task.cancel()  # type: ignore[union-attr]
        await dead.presence.close()

        keeper = LeaseKeeper(service, lease_seconds=1.0)
        await keeper.start()  # takes back the predecessor's row at once
        try:
            got = await service.claim_announcements(keeper.claimant, lease_seconds=1.0)
            assert [a.id for a in got] == [row]
            for _ in range(4):  # a delivery longer than a lease: the renewals keep the row
                clock.advance(seconds=0.6)
                await asyncio.sleep(keeper.renew_every * 1.5)
                assert await service.claim_announcements("other", lease_seconds=1.0) == []
        finally:
            await keeper.stop()
        # stopped cleanly: the row is free at once
        got = await service.claim_announcements("other", lease_seconds=1.0)
        assert [a.id for a in got] == [row]
