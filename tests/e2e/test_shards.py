"""Discord sharding across processes (issue 17): two bot PROCESSES, each running two of the
sandbox's four shards, on one database. Each guild's commands reach (and are answered by) only
the process of its shard, and its announcements are posted once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from sandbox import FakeDiscord, SandboxGuild
from storage.shards import shard_of
from tests.e2e.fixtures import text_of
from tests.e2e.processes import bot_env, start_process, stop_process, wait_until
from tests.service_helpers import database_target, open_database

SHARDS = 4
GUILDS_PER_SHARD = 2
PLAYERS = 4

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("backend")]


async def _run(fake: FakeDiscord, guild: SandboxGuild, member, command: str,  # type: ignore[no-untyped-def]
               **options: object) -> dict:
    inter = await fake.send_slash_command(guild, guild.channel("tournaments"), member, command,
                                          options)
    return await fake.reply(inter, timeout=20)


async def test_two_processes_two_shards_each(tmp_path: Path) -> None:
    async with FakeDiscord(shards=SHARDS) as fake:
        guilds = [fake.add_guild(f"Club {s}.{i}", players=PLAYERS, shard=s)
                  for s in range(SHARDS) for i in range(GUILDS_PER_SHARD)]
        assert sorted(shard_of(g.id, SHARDS) for g in guilds) == \
            sorted(list(range(SHARDS)) * GUILDS_PER_SHARD)
        # Created (and, on PostgreSQL, made) here: both processes open the same database.
        await (await open_database(tmp_path / "shared.sqlite3")).close()
        database = database_target(tmp_path / "shared.sqlite3")
        groups = ("0-1", "2,3")
        processes = [
            await start_process(
                bot_env(fake, database, SWISSBOT_SHARDS=str(SHARDS), SWISSBOT_SHARD_IDS=ids,
                        SWISSBOT_DELIVERY_INTERVAL="0.2"),
                tmp_path, tmp_path / f"bot-{n}.log")
            for n, ids in enumerate(groups)
        ]
        try:
            await wait_until(lambda: all(fake.sessions_of(s) == 1 for s in range(SHARDS)),
                             60, "one connection per shard")
            # The process of shard 0 syncs the commands; give it the time to finish.
            await wait_until(lambda: sum(r.kind == "sync_commands" for r in fake.requests)
                             >= len(guilds), 30, "the command sync")
            assert [i["shard"] for i in sorted(fake.identifies, key=lambda i: i["shard"])] == \
                [[s, SHARDS] for s in range(SHARDS)]

            async def play(guild: SandboxGuild) -> None:
                owner = fake.owner_member(guild)
                reply = await _run(fake, guild, owner, "tournament create", name="Shard Cup",
                                   rounds=2)
                assert "Created **Shard Cup**" in reply["content"]
                for player in fake.players(guild):
                    assert "joined" in (await _run(fake, guild, player, "join"))["content"]
                reply = await _run(fake, guild, owner, "tournament start")
                assert "round 1 is paired" in reply["content"]

            await asyncio.gather(*(play(g) for g in guilds))

            def pairings(guild: SandboxGuild) -> list[dict]:
                return [m for m in guild.channel("tournaments").messages
                        if "interaction_metadata" not in m
                        and "Round 1 of 2 · pairings" in text_of(m)]

            await wait_until(lambda: all(pairings(g) for g in guilds), 30,
                             "the round 1 pairings in every guild")
            await asyncio.sleep(1.0)  # time for a second (wrong) post to show up
        finally:
            for process in processes:
                await stop_process(process)
        logs = "\n".join((tmp_path / f"bot-{n}.log").read_text() for n in range(2))
        assert "Traceback" not in logs, logs

        for guild in guilds:
            assert len(pairings(guild)) == 1, guild.name  # posted once
            # Every event of the guild went to its own shard only...
            shards = {s for s, _, g in fake.dispatched if g == guild.id}
            assert shards == {shard_of(guild.id, SHARDS)}, guild.name
        # ...and each command was answered exactly once (by the one process that got it).
        callbacks: dict[str, int] = {}
        for request in fake.requests:
            if request.kind == "interaction_callback":
                token = request.params["token"]
                callbacks[token] = callbacks.get(token, 0) + 1
        commands = len(guilds) * (2 + PLAYERS)
        assert len(fake.interactions) == commands
        assert sorted(callbacks.values()) == [1] * commands
        # No post was refused as a duplicate: the processes never raced for a row.
        assert fake.deduplicated == 0
