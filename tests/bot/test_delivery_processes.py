"""Two delivery loops (as in two bot processes) on one database: each announcement is posted
by exactly one of them, without relying on Discord's nonce dedupe (issue 17). The channel here
records every send, so a row posted by both would show twice."""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.delivery import OutboxDelivery
from service import Shards
from tests.bot.test_delivery_wakeup import ReadyClient, RecordingChannel
from tests.service_helpers import member, open_service, organiser

# Twelve guilds, three on each shard of four ((g >> 22) % 4), each with its own channel: more
# rows than one claim takes (20), in channels that do not hold each other back.
pytestmark = pytest.mark.usefixtures("backend")

GUILDS = tuple((k << 22) | 1000 for k in range(12))


class AnyChannelClient(ReadyClient):
    def get_channel(self, channel_id: int) -> RecordingChannel | None:
        return self.channel


class SlowChannel(RecordingChannel):
    """Posting takes a moment, as over the network: the other loop runs meanwhile."""

    async def send(self, **kwargs: Any) -> None:  # type: ignore[override]
        await asyncio.sleep(0.005)
        await super().send(**kwargs)


class GatedChannel(RecordingChannel):
    """One loop's view of the shared channel: it records into `sent` (shared by both loops)
    and, if `after` is given, posts only once that other loop's channel has posted (or after
    10 s). On a loaded machine one loop could otherwise claim and post every row before the
    other's first claim ran: the gate makes the loops take turns whatever the load, so the
    test always races two claims (more rows than one claim takes are due)."""

    def __init__(self, sent: list[dict[str, Any]], after: RecordingChannel | None = None) -> None:
        super().__init__()
        self.sent = sent
        self.after = after

    async def send(self, **kwargs: Any) -> None:  # type: ignore[override]
        if self.after is not None and not self.after.posted.is_set():
            # On a timeout the assertions below say that the other loop took no part.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.after.posted.wait(), 10)
        await asyncio.sleep(0.005)
        await super().send(**kwargs)


async def _busy(service: Any) -> None:
    """Each guild with a started tournament and a round of results: many rows."""
    for guild in GUILDS:
        org = organiser(guild)
        info = await service.create_tournament(org, "Busy", 3, channel_id=guild + 1, seed=1)
        for uid in range(1, 9):
            await service.join(member(uid, guild), info.id)
        view = await service.start_tournament(org, info.id)
        for game in view.games:
            await service.report_result(member(game.white.user_id, guild), "win")
            await service.confirm_result(member(game.black.user_id, guild), game.id)


async def _race(first: OutboxDelivery, second: OutboxDelivery) -> None:
    for _ in range(4):  # several passes each, interleaved
        await asyncio.gather(first.deliver_due(), second.deliver_due())


async def test_two_loops_post_each_announcement_once(tmp_path: Path) -> None:
    path = tmp_path / "two.sqlite3"
    sent: list[dict[str, Any]] = []
    second_channel = GatedChannel(sent)
    first_channel = GatedChannel(sent, after=second_channel)
    async with open_service(path) as one, open_service(path) as two:
        await _busy(one)
        first = OutboxDelivery(AnyChannelClient(first_channel), one)  # type: ignore[arg-type]
        second = OutboxDelivery(AnyChannelClient(second_channel), two)  # type: ignore[arg-type]
        await _race(first, second)
        rows = await one.announcements()
    assert len(rows) > 20  # more than one claim takes: a second claim has rows to find
    nonces = Counter(s["nonce"] for s in sent)
    assert max(nonces.values()) == 1  # nothing posted twice
    assert {n.split("p")[0] for n in nonces} == {f"sb{r.id}" for r in rows}  # nothing left
    assert first.delivered > 0 and second.delivered > 0  # both loops took part
    assert first.delivered + second.delivered == len(rows)


async def test_shards_split_the_delivery(tmp_path: Path) -> None:
    path = tmp_path / "shards.sqlite3"
    channel = SlowChannel()
    async with open_service(path) as one, open_service(path) as two:
        await _busy(one)
        low = OutboxDelivery(AnyChannelClient(channel), one,  # type: ignore[arg-type]
                             shards=Shards(4, frozenset({0, 1})))
        high = OutboxDelivery(AnyChannelClient(channel), two,  # type: ignore[arg-type]
                              shards=Shards(4, frozenset({2, 3})))
        for delivery in (low, high):  # both running: neither serves the other's shards
            await delivery.leases.renew()
        await _race(low, high)
        rows = await one.announcements()
    by_guild = Counter(r.guild_id for r in rows)
    assert low.delivered == sum(n for g, n in by_guild.items() if (g >> 22) % 4 < 2)
    assert high.delivered == sum(n for g, n in by_guild.items() if (g >> 22) % 4 >= 2)
    assert low.delivered and high.delivered
    assert len(channel.sent) == len({s["nonce"] for s in channel.sent})
