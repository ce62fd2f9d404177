"""Bot PROCESSES killed and restarted: a restart delivers at once, a peer gone for good is
taken over, and a channel keeps its order across restarts (on SQLite and PostgreSQL).

* SIGKILL while an announcement is being posted, then restart: the restarted process takes
  back what its predecessor had claimed and posts the next announcement within seconds
  (not after the dead process's lease ran out).
* Two processes on two shards, one SIGKILLed for good: the survivor posts its guild's
  announcements within 20 s.
* The first post of a channel is refused (403, the bot lacks Send Messages) and waits to be
  retried when the process stops (SIGTERM or SIGKILL) and starts again: the pairings, the
  results and the standings still arrive in that order.

The tournaments are driven through the service on the same database, as in test_kill, so
nothing depends on which process is up. The delays measured are printed (``-s``).
"""

from __future__ import annotations

import asyncio
import re
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from sandbox import FakeDiscord, SandboxChannel, SandboxGuild
from sandbox.payloads import SEND_MESSAGES
from service import Actor, TournamentService
from storage import journal
from tests.e2e.processes import bot_child, bot_env, forkserver, wait_until
from tests.service_helpers import database_target, open_database

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("backend")]

NONCE = re.compile(r"^sb(\d+)p(\d+)$")
PLAYERS = 4


def _actor(guild: SandboxGuild, user_id: int, organiser: bool = False) -> Actor:
    return Actor(user_id=user_id, guild_id=guild.id, display_name=f"u{user_id}",
                 is_organiser=organiser)


def _posted(channel: SandboxChannel) -> list[int]:
    """The outbox rows posted in ``channel``, in the order of their messages (each once)."""
    rows: list[int] = []
    for message in channel.messages:
        match = NONCE.match(str(message.get("nonce") or ""))
        if match is not None and int(match.group(1)) not in rows:
            rows.append(int(match.group(1)))
    return rows


async def _started(service: TournamentService, fake: FakeDiscord, guild: SandboxGuild) -> Any:
    org = _actor(guild, guild.owner_id, organiser=True)
    await service.create_tournament(org, "Restart Cup", 3, seed=7,
                                    channel_id=guild.channel("tournaments").id)
    for player in fake.players(guild)[:PLAYERS]:
        await service.join(_actor(guild, player.id))
    return await service.start_tournament(org)


async def _finish_round(service: TournamentService, guild: SandboxGuild, view: Any) -> None:
    """Every game of the round reported and confirmed: its results and standings are queued."""
    for game in view.games:
        await service.report_result(_actor(guild, game.white.user_id), "win")
        await service.confirm_result(_actor(guild, game.black.user_id), game.id)


async def _rows(db: Any) -> list[journal.OutboxRow]:
    async with db.transaction(readonly=True) as conn:
        return await journal.list_outbox(conn)


class Bots:
    """Bot processes forked from a preloaded server, each killed with a real signal."""

    def __init__(self, tmp_path: Path, env: dict[str, str]) -> None:
        self.context = forkserver()
        self.tmp_path = tmp_path
        self.env = env
        self.processes: list[Any] = []

    def start(self, **settings: str) -> Any:
        log = self.tmp_path / f"bot-{len(self.processes)}.log"
        process = self.context.Process(target=bot_child,
                                       args=({**self.env, **settings}, str(self.tmp_path),
                                             str(log)))
        process.start()
        self.processes.append(process)
        return process

    @staticmethod
    async def kill(process: Any, how: signal.Signals = signal.SIGKILL) -> None:
        process.kill() if how == signal.SIGKILL else process.terminate()
        await asyncio.to_thread(process.join, 20)
        assert process.exitcode is not None, "the bot process did not end"

    async def stop_all(self) -> None:
        for process in self.processes:
            if process.is_alive():
                process.terminate()
            await asyncio.to_thread(process.join, 20)
            if process.is_alive():
                process.kill()

    def logs(self) -> str:
        return "\n".join(log.read_text() for log in sorted(self.tmp_path.glob("bot-*.log")))


@dataclass
class Scene:
    fake: FakeDiscord
    guilds: list[SandboxGuild]
    db: Any
    service: TournamentService
    bots: Bots


@asynccontextmanager
async def _scene(tmp_path: Path, *, shards: int = 1, **settings: str) -> AsyncIterator[Scene]:
    """The sandbox with one guild per shard, a database, the service driving the events on
    it, and the bot processes (none started yet); at the end, no traceback in their logs."""
    async with FakeDiscord(**({"shards": shards} if shards > 1 else {})) as fake:
        guilds = [fake.add_guild(f"Club {s}", players=PLAYERS,
                                 **({"shard": s} if shards > 1 else {}))
                  for s in range(shards)]
        db = await open_database(tmp_path / "shared.sqlite3")
        bots = Bots(tmp_path, bot_env(fake, database_target(tmp_path / "shared.sqlite3"),
                                      **settings))
        try:
            yield Scene(fake, guilds, db, TournamentService(db), bots)
        finally:
            await bots.stop_all()
            await db.close()
        assert "Traceback" not in bots.logs(), bots.logs()[-3000:]


async def test_a_restart_after_a_sigkill_mid_announcement_posts_at_once(
    tmp_path: Path,
) -> None:
    async with _scene(tmp_path, SWISSBOT_DELIVERY_INTERVAL="0.2") as scene:
        fake, service, bots, (guild,) = scene.fake, scene.service, scene.bots, scene.guilds
        channel = guild.channel("tournaments")
        first = bots.start()
        await wait_until(lambda: fake.connected == 1, 60, "the bot connected")
        fake.post_delay = 8.0  # the pairings post hangs: the bot dies in the middle
        view = await _started(service, fake, guild)
        await wait_until(lambda: fake.posts_in_flight > 0, 20, "the pairings post")
        await _finish_round(service, guild, view)  # results and standings wait behind
        await bots.kill(first)
        fake.post_delay = 0.0
        pending = [r.id for r in await _rows(scene.db) if r.delivered_at is None]
        assert len(pending) >= 3 and _posted(channel) == pending[:1]

        loop = asyncio.get_running_loop()
        restarted = loop.time()
        bots.start()
        await wait_until(lambda: fake.connected == 1, 60, "the bot reconnected")
        connected = loop.time()
        await wait_until(lambda: len(_posted(channel)) > 1, 5.0 + connected - restarted,
                         "the next post after the restart")
        first_post = loop.time()
        await wait_until(lambda: len(_posted(channel)) == len(pending), 10, "every post")
        print(f"\nrestart -> next post: {first_post - restarted:.2f} s "
              f"(connected after {connected - restarted:.2f} s)")
        assert first_post - connected < 5.0
        assert _posted(channel) == pending  # each once, in order


async def test_a_peer_killed_for_good_is_taken_over(tmp_path: Path) -> None:
    async with _scene(tmp_path, shards=2, SWISSBOT_SHARDS="2",
                      SWISSBOT_DELIVERY_INTERVAL="0.2") as scene:
        fake, service, bots = scene.fake, scene.service, scene.bots
        victim_guild = scene.guilds[1]
        channel = victim_guild.channel("tournaments")
        bots.start(SWISSBOT_SHARD_IDS="0")
        victim = bots.start(SWISSBOT_SHARD_IDS="1")
        await wait_until(lambda: all(fake.sessions_of(s) == 1 for s in range(2)), 60,
                         "one connection per shard")
        fake.post_delay = 8.0
        view = await _started(service, fake, victim_guild)
        await wait_until(lambda: fake.posts_in_flight > 0, 20, "the pairings post")
        await _finish_round(service, victim_guild, view)
        loop = asyncio.get_running_loop()
        await bots.kill(victim)  # for good: nobody restarts it
        killed = loop.time()
        fake.post_delay = 0.0
        pending = [r.id for r in await _rows(scene.db) if r.delivered_at is None]
        await wait_until(lambda: len(_posted(channel)) > 1, 20,
                         "the dead process's guild posted by the survivor")
        taken_over = loop.time() - killed
        await wait_until(lambda: len(_posted(channel)) == len(pending), 10, "every post")
        print(f"\npeer killed -> its guild's next post: {taken_over:.2f} s")
        assert _posted(channel) == pending


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
async def test_a_refused_first_post_keeps_its_place_across_a_restart(
    tmp_path: Path, how: signal.Signals
) -> None:
    # refusals 0.25 s and 0.5 s apart, the next try 1 s later (2, 4 and 8 s by default)
    async with _scene(tmp_path, SWISSBOT_DELIVERY_INTERVAL="0.1",
                      SWISSBOT_DELIVERY_RETRY_SECONDS="0.25") as scene:
        fake, service, bots, (guild,) = scene.fake, scene.service, scene.bots, scene.guilds
        db = scene.db
        channel = guild.channel("tournaments")
        first = bots.start()
        await wait_until(lambda: fake.connected == 1, 60, "the bot connected")
        # the bot loses Send Messages without being told (its checks passed)
        await fake.set_channel_permissions(guild, channel, fake.bot_role(guild),
                                           deny=SEND_MESSAGES, notify=False)
        view = await _started(service, fake, guild)
        await _finish_round(service, guild, view)
        rows = await _rows(db)
        pairings = rows[0]
        assert pairings.kind == "pairings" and pairings.channel_id == channel.id
        kinds = [r.kind for r in rows if r.channel_id == channel.id]
        assert kinds.index("round_results") < kinds.index("standings")

        async def attempts() -> int:
            async with db.transaction(readonly=True) as conn:
                row = await journal.get_outbox(conn, pairings.id)
            return 0 if row is None else row.attempts

        for _ in range(400):  # three refusals: the next try is 1 s away, after the restart
            if await attempts() >= 3:
                break
            await asyncio.sleep(0.05)
        assert await attempts() == 3
        await bots.kill(first, how)
        await wait_until(lambda: fake.connected == 0, 10, "the sandbox saw the bot go")
        await fake.set_channel_permissions(guild, channel, fake.bot_role(guild))
        bots.start()
        in_channel = [r.id for r in rows if r.channel_id == channel.id]
        await wait_until(lambda: len(_posted(channel)) == len(in_channel), 30,
                         "every announcement of the channel")
        assert _posted(channel) == in_channel  # pairings, then results, then standings
        for _ in range(200):  # the last post is marked a moment after it shows
            if all(r.delivered_at is not None for r in await _rows(db)):
                break
            await asyncio.sleep(0.05)
        assert all(r.delivered_at is not None for r in await _rows(db))
