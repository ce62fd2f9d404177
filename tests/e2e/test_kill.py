"""The kill test: two bot processes on one database deliver the announcements of busy rounds
(many guilds pairing and reporting) while they are killed with SIGKILL 40 times (20 on
PostgreSQL), alternately, and restarted each time. Afterwards the database is intact and every
announcement is in its channel exactly once, in order: the leases expire, the next claimant
posts again with the same nonce, and the sandbox (like Discord, with enforce_nonce) returns
the earlier message instead of a duplicate.

Both processes serve every guild (no shards), so they compete for the same rows: the claim
and its lease are what keep them apart. The tournaments are driven through the service on the
same database (a third writer), so no command is lost while a process is down.

``make test`` runs it on SQLite and on the test PostgreSQL cluster (30-60 s each; the suite
runs on several cores with pytest-xdist, so the two run side by side).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import signal
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from sandbox import FakeDiscord, SandboxGuild
from service import Actor, TournamentService
from storage import journal
from storage.moving import check_database
from tests.e2e.processes import bot_child, bot_env, forkserver, wait_until
from tests.service_helpers import database_target, open_database

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("backend")]

#: SIGKILLs per backend: 40 on SQLite; 20 on PostgreSQL, whose claims and leases are the same
#: code and whose part of the risk (a lock dying with its session) shows in the first kills.
KILLS = {"sqlite": 40, "postgresql": 20}
GUILDS = 6
PLAYERS = 8
ROUNDS = 4
NONCE = re.compile(r"^sb(\d+)p(\d+)$")


def _actor(guild: SandboxGuild, user_id: int, organiser: bool = False) -> Actor:
    return Actor(user_id=user_id, guild_id=guild.id, display_name=f"u{user_id}",
                 is_organiser=organiser)


async def _tournament(service: TournamentService, fake: FakeDiscord, guild: SandboxGuild,
                      rng: random.Random) -> None:
    """A whole tournament, one step at a time with short pauses: a busy round in progress
    while the bots are being killed."""
    org = _actor(guild, guild.owner_id, organiser=True)
    await service.create_tournament(org, "Kill Cup", ROUNDS, seed=guild.id % 1000,
                                    channel_id=guild.channel("tournaments").id)
    for player in fake.players(guild):
        await service.join(_actor(guild, player.id))
    view = await service.start_tournament(org)
    while True:
        for index, game in enumerate(view.games):
            await asyncio.sleep(rng.uniform(0.05, 0.25))
            assert game.white.user_id is not None and game.black.user_id is not None
            await service.report_result(_actor(guild, game.white.user_id),
                                        ("win", "draw", "loss")[index % 3])
            await service.confirm_result(_actor(guild, game.black.user_id), game.id)
        if view.number == ROUNDS:
            return
        view = await service.pair_next_round(org)


async def test_repeated_sigkills_lose_nothing_and_post_nothing_twice(
    tmp_path: Path, backend: str
) -> None:
    rng = random.Random(17)
    context = forkserver()
    async with FakeDiscord() as fake:
        guilds = [fake.add_guild(f"Club {n}", players=PLAYERS) for n in range(GUILDS)]
        database = tmp_path / "shared.sqlite3"
        db = await open_database(database)  # created and migrated before the bots start
        target = database_target(database)
        service = TournamentService(db)
        env = bot_env(fake, target,
                      SWISSBOT_DELIVERY_INTERVAL="0.1",
                      SWISSBOT_OUTBOX_LEASE_SECONDS="2")
        logs = [tmp_path / f"bot-{slot}.log" for slot in range(2)]
        fake.post_delay = 0.1  # each post leaves the bot a moment of not knowing

        def start(slot: int) -> Any:
            process = context.Process(target=bot_child, args=(env, str(tmp_path),
                                                               str(logs[slot])))
            process.start()
            return process

        processes = [start(0), start(1)]
        kills = 0
        try:
            await wait_until(lambda: fake.connected == 2, 60, "both bots connected")
            driving = asyncio.gather(*(_tournament(service, fake, g, rng) for g in guilds))

            async def kill_loop() -> None:
                nonlocal kills
                for kill in range(KILLS[backend]):
                    slot = kill % 2
                    # Let it connect and work a little, then kill it: at a moment when a
                    # post is in flight (posted, not yet marked: by this process or the
                    # other), or wherever it is after a second.
                    await asyncio.sleep(rng.uniform(0.1, 0.4))
                    with contextlib.suppress(AssertionError):
                        await wait_until(lambda: fake.posts_in_flight > 0, 1.0, "a post")
                    victim = processes[slot]
                    victim.kill()  # SIGKILL: no shutdown, no release, leases left behind
                    await asyncio.to_thread(victim.join, 10)
                    assert victim.exitcode == -signal.SIGKILL
                    kills += 1
                    processes[slot] = start(slot)

            await asyncio.gather(driving, kill_loop())

            async def undelivered() -> int:
                async with db.transaction(readonly=True) as conn:
                    return sum(r.delivered_at is None for r in await journal.list_outbox(conn))

            for _ in range(600):  # the survivors deliver what is left
                if await undelivered() == 0:
                    break
                await asyncio.sleep(0.1)
            assert await undelivered() == 0
        finally:
            for process in processes:
                if process.is_alive():
                    process.terminate()  # SIGTERM: a clean shutdown
                await asyncio.to_thread(process.join, 20)
                if process.is_alive():
                    process.kill()
            async with db.transaction(readonly=True) as conn:
                announcements = await journal.list_outbox(conn)
            await db.close()
        assert kills == KILLS[backend]

    text = "\n".join(log.read_text() for log in logs if log.exists())
    assert "Traceback" not in text, text[-3000:]

    # The database is intact: swissbot db check, and on SQLite the full integrity_check.
    report = await check_database(target)
    assert report.ok, report.problems
    if backend == "sqlite":
        with sqlite3.connect(database) as check:
            assert check.execute("PRAGMA integrity_check").fetchall() == [("ok",)]

    # Every announcement was delivered (marked) and is in its channel exactly once, in order.
    rows = {a.id: a for a in announcements}
    assert len(rows) >= GUILDS * 3 * ROUNDS  # pairings, results, standings per round
    assert all(a.delivered_at is not None for a in announcements)
    posted: Counter[tuple[int, int]] = Counter()
    for guild in guilds:
        channel = guild.channel("tournaments")
        order: list[tuple[int, int]] = []
        for message in channel.messages:
            match = NONCE.match(str(message.get("nonce") or ""))
            assert match is not None, f"a post without an outbox nonce: {message}"
            key = (int(match.group(1)), int(match.group(2)))
            assert rows[key[0]].channel_id == channel.id
            posted[key] += 1
            order.append(key)
        assert order == sorted(order), f"{guild.name}: announcements out of order"
    assert max(posted.values()) == 1  # nothing twice
    assert {row_id for row_id, _ in posted} == set(rows)  # nothing lost
    # Some kills did land between a post and its mark: those rows were posted again after
    # the lease expired, and the nonce turned the second post into the first message.
    assert fake.deduplicated >= 1
    print(f"\n{kills} SIGKILLs, {len(rows)} announcements, {sum(posted.values())} posts, "
          f"{fake.deduplicated} re-sends answered by the nonce")
