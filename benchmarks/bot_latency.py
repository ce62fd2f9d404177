"""The bot while it pairs: other guilds' latency, heartbeats, /round next click to posted.

Used by ``python benchmarks/service.py --latency`` (issue 13 part 4). The bot (the real
discord.py client with swissbot's cogs, on a fresh SQLite file) runs in this process; the
sandbox (fake Discord, gateway heartbeat every ``HEARTBEAT_MS``) with the users who click (A's
organiser, B's player) runs in a process of its own by default, as Discord is another
machine. ``--sandbox-in-process`` puts it in the bot's process and event loop, as ``swissbot
demo`` does (the mode of the tables before 24 November 12:00): the fake Discord's own work
(parsing and storing a dozen big posts, dispatching) then counts as the bot's stall.

Guild A has a running event of ``players`` guests, round 1 complete (set up through the
service, not measured). Guild B has a 4-player event with a game open. Then, measured,
``repeats`` times or more (until B has ``MIN_REPORTS`` in them): A's organiser clicks
``/round next`` and the round is posted (the *pairing window*: click to the last post);
after each window the round is undone through the service (not measured). All along, B's
player sends ``/report`` again and again, each one ``REPORT_EVERY`` (jittered) after the
previous reply: only those sent inside a pairing window count, so the sample is spread over
every window rather than taken in one burst, and with 100 or more p99 is not the worst one.
Printed: how many B reports, their p50 / p95 / p99 / max latency (send to reply), the
largest gap between gateway heartbeats inside a window, and A's median click to all
pairings posted.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import multiprocessing
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Protocol

import discord

from bot.client import SwissBot, point_at
from bot.settings import Settings
from sandbox.harness import start_bot
from sandbox.server import FakeDiscord
from service import Actor
from storage.timefmt import to_text

HEARTBEAT_MS = 250
REPORT_EVERY = 0.03  # B's pause between a reply and its next /report (jittered 0.5x-1.5x)
REPEATS = 8  # pairing windows at least, and more until B has MIN_REPORTS in them
MIN_REPORTS = 100
MAX_REPEATS = 40


@dataclass
class Latency:
    mode: str
    players: int
    click_to_posted: float
    reports: int
    p50_ms: float
    p95_ms: float
    p99_ms: float
    max_ms: float
    heartbeat_gap: float
    repeats: int = 1
    # every B report (sent, ms; time.monotonic, the same clock in both processes) and the
    # pairing windows, for loop_spans to match the slow reports with what the loop did
    sent_and_took: list[tuple[float, float]] = field(default_factory=list, repr=False)
    windows: list[tuple[float, float]] = field(default_factory=list, repr=False)
    # the fake Discord's own collector passes (start, wall s, generation): its pauses delay
    # B's interaction and reply as much as the bot's do
    discord_collections: list[tuple[float, float, int]] = field(default_factory=list,
                                                                repr=False)


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def measure(players: int, inline: bool, folder: Path, *, system: str = "dutch",
                  repeats: int = REPEATS, sandbox_process: bool = True,
                  on_click: Callable[[], None] | None = None,
                  database: str | None = None) -> Latency:
    """One row. ``sandbox_process``: the fake Discord (and B's and A's clicks) in a process
    of its own, as Discord is another machine; else in the bot's process and event loop (the
    fake Discord's parsing and storing of the big posts then counts as the bot's stall).
    ``on_click`` is called in this process just before each ``/round next`` (loop_spans).
    ``database``: an empty PostgreSQL database's URL (default: a new SQLite file)."""
    side: DiscordSide = (await _ProcessSide.start() if sandbox_process
                         else await _InProcessSide.start())
    endpoints = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    info = side.info
    point_at(info.api_base, info.gateway_url)
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        discord_token=info.token,
        database=database or folder / f"{players}-{inline}-{sandbox_process}.sqlite3",
        guild_ids=(info.big_guild, info.small_guild), discord_api_base=info.api_base,
        discord_gateway_url=info.gateway_url,
        pairing_inline_below=100_000 if inline else 100,
    )
    bot = SwissBot(settings, guild_ready_timeout=0.05, delivery_interval=0.05)
    running = None
    jitter = random.Random(players)
    try:
        running = await start_bot(bot, SimpleNamespace(token=info.token))  # type: ignore[arg-type]
        service = bot.service
        org = await big_event(service, info.big_guild, players, system,
                              channel_id=info.big_channel)
        reporter = await _small_event(service, info)
        await _drain(service)
        if not inline:
            await service.pairing.warm_up()  # as the bot does at start-up
            await bot.delivery.renderer.warm_up()
        windows: list[tuple[float, float]] = []
        await side.start_reports(reporter)
        try:
            attempt = 0
            while attempt < repeats or (
                    _in_windows(await side.sent_so_far(), windows) < MIN_REPORTS
                    and attempt < MAX_REPEATS):
                attempt += 1
                await asyncio.sleep(0.3 + 0.2 * jitter.random())  # not in step with B
                if on_click is not None:
                    on_click()
                clicked = await side.click_round_next()
                await _drain(service)
                windows.append((clicked, time.monotonic()))
                await asyncio.sleep(HEARTBEAT_MS / 1000 * 1.2)  # the first beat after it
                # back to round 1 complete, not measured
                await service.undo_round(org, round_number=2)
                await _drain(service)
        finally:
            sent_and_took, beats = await side.finish()
            discord_collections = await side.collector_passes()
        latencies = _in_windows(sent_and_took, windows, values=True)
        return Latency(
            mode=("inline (old)" if inline else "worker process")
            + ("" if sandbox_process else ", 1 proc") + (", PG" if database else ""),
            players=players,
            click_to_posted=statistics.median(end - start for start, end in windows),
            reports=len(latencies), p50_ms=statistics.median(latencies),
            p95_ms=_quantile(latencies, 0.95), p99_ms=_quantile(latencies, 0.99),
            max_ms=max(latencies), heartbeat_gap=_largest_gap(beats, windows),
            repeats=len(windows), sent_and_took=sent_and_took, windows=windows,
            discord_collections=discord_collections,
        )
    finally:
        if running is not None:
            await running.stop()
        if not inline:
            bot.service.pairing.close()
        await side.close()
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = endpoints


def _largest_gap(beats: list[float], windows: list[tuple[float, float]]) -> float:
    """The largest gap between heartbeats inside a window: from the last beat before the
    click to the first one after the last post."""
    gaps: list[float] = []
    for start, end in windows:
        before = [b for b in beats if b <= start][-1:]
        inside = [b for b in beats if start < b < end]
        after = [b for b in beats if b >= end][:1]
        gaps += [b - a for a, b in itertools.pairwise(before + inside + after)]
    return max(gaps, default=float("nan"))


@dataclass(frozen=True)
class SandboxInfo:
    """What the bot's side needs to know of the fake Discord's world."""

    token: str
    api_base: str
    gateway_url: str
    big_guild: int
    big_channel: int
    small_guild: int
    small_channel: int
    small_members: tuple[tuple[int, str], ...]  # (user id, display name)


class _Driver:
    """The Discord side of the benchmark: the fake Discord, A's organiser who clicks and B's
    player who reports. Runs in the bot's process or in its own (``_sandbox_main``)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.big = fake.add_guild("Big Club", players=0)
        self.small = fake.add_guild("Small Club", players=4)
        self.sent_and_took: list[tuple[float, float]] = []
        self._done = asyncio.Event()
        self._reports: asyncio.Task[None] | None = None
        self._collections: list[tuple[float, float, int]] = []
        self._collecting = 0.0

        def collector(phase: str, info: dict[str, int]) -> None:
            if phase == "start":
                self._collecting = time.monotonic()
            elif self._reports is not None:
                self._collections.append((self._collecting, time.monotonic() - self._collecting,
                                          info["generation"]))

        gc.callbacks.append(collector)
        self.info = SandboxInfo(
            token=fake.token, api_base=fake.api_base, gateway_url=fake.gateway_url,
            big_guild=self.big.id, big_channel=self.big.channel("tournaments").id,
            small_guild=self.small.id, small_channel=self.small.channel("tournaments").id,
            small_members=tuple((m.id, m.display_name or m.username)
                                for m in fake.players(self.small)),
        )

    async def start_reports(self, reporter: int) -> None:
        member = self.small.members[reporter]
        jitter = random.Random(reporter)

        async def report_loop() -> None:
            channel = self.small.channel("tournaments")
            while not self._done.is_set():
                sent = time.monotonic()
                inter = await self.fake.send_slash_command(self.small, channel, member,
                                                           "report", {"result": "win"})
                await self.fake.reply(inter, timeout=600)
                self.sent_and_took.append((sent, (time.monotonic() - sent) * 1000))
                await asyncio.sleep(REPORT_EVERY * jitter.uniform(0.5, 1.5))

        self._reports = asyncio.create_task(report_loop(), name="B reports")

    async def sent_so_far(self) -> list[tuple[float, float]]:
        return list(self.sent_and_took)

    async def collector_passes(self) -> list[tuple[float, float, int]]:
        """This process's collector passes since B began to report (in the bot's process
        when the fake Discord runs there)."""
        return list(self._collections)

    async def click_round_next(self) -> float:
        """A's organiser clicks /round next; when it was clicked, once it is answered."""
        clicked = time.monotonic()
        inter = await self.fake.send_slash_command(
            self.big, self.big.channel("tournaments"), self.fake.owner_member(self.big),
            "round next", {})
        await self.fake.reply(inter, timeout=900)
        return clicked

    async def finish(self) -> tuple[list[tuple[float, float]], list[float]]:
        self._done.set()
        if self._reports is not None:
            await self._reports
        return list(self.sent_and_took), list(self.fake.heartbeats)


class DiscordSide(Protocol):
    info: SandboxInfo

    async def start_reports(self, reporter: int) -> None: ...
    async def sent_so_far(self) -> list[tuple[float, float]]: ...
    async def click_round_next(self) -> float: ...
    async def collector_passes(self) -> list[tuple[float, float, int]]: ...
    async def finish(self) -> tuple[list[tuple[float, float]], list[float]]: ...
    async def close(self) -> None: ...


class _InProcessSide:
    """The fake Discord in this process and event loop (the mode of the earlier tables)."""

    def __init__(self, fake: FakeDiscord, driver: _Driver) -> None:
        self.fake, self.driver, self.info = fake, driver, driver.info

    @classmethod
    async def start(cls) -> _InProcessSide:
        fake = FakeDiscord(heartbeat_interval_ms=HEARTBEAT_MS)
        await fake.start()
        return cls(fake, _Driver(fake))

    async def start_reports(self, reporter: int) -> None:
        await self.driver.start_reports(reporter)

    async def sent_so_far(self) -> list[tuple[float, float]]:
        return await self.driver.sent_so_far()

    async def click_round_next(self) -> float:
        return await self.driver.click_round_next()

    async def collector_passes(self) -> list[tuple[float, float, int]]:
        return await self.driver.collector_passes()

    async def finish(self) -> tuple[list[tuple[float, float]], list[float]]:
        return await self.driver.finish()

    async def close(self) -> None:
        await self.fake.stop()


def _sandbox_main(conn: Connection) -> None:
    """The fake Discord's process: serve the driver's calls that come through ``conn``."""
    asyncio.run(_serve(conn))


async def _serve(conn: Connection) -> None:
    fake = FakeDiscord(heartbeat_interval_ms=HEARTBEAT_MS)
    await fake.start()
    driver = _Driver(fake)
    conn.send(driver.info)
    try:
        while True:
            # a thread waits on the pipe, so the loop keeps serving the bot meanwhile
            name, args = await asyncio.to_thread(conn.recv)
            if name == "close":
                break
            conn.send(await getattr(driver, name)(*args))
    finally:
        await fake.stop()
        conn.send(None)


class _ProcessSide:
    """The fake Discord in a process of its own (spawned: nothing of the bot's state)."""

    def __init__(self, process: Any, conn: Connection, info: SandboxInfo) -> None:
        self.process, self.conn, self.info = process, conn, info
        self._lock = asyncio.Lock()

    @classmethod
    async def start(cls) -> _ProcessSide:
        ours, theirs = multiprocessing.Pipe()
        process = multiprocessing.get_context("spawn").Process(
            target=_sandbox_main, args=(theirs,), name="fake-discord", daemon=True)
        process.start()
        info = await asyncio.to_thread(ours.recv)
        return cls(process, ours, info)

    async def _call(self, name: str, *args: Any) -> Any:
        async with self._lock:
            self.conn.send((name, args))
            return await asyncio.to_thread(self.conn.recv)

    async def start_reports(self, reporter: int) -> None:
        await self._call("start_reports", reporter)

    async def sent_so_far(self) -> list[tuple[float, float]]:
        return list(await self._call("sent_so_far"))

    async def click_round_next(self) -> float:
        return float(await self._call("click_round_next"))

    async def collector_passes(self) -> list[tuple[float, float, int]]:
        return list(await self._call("collector_passes"))

    async def finish(self) -> tuple[list[tuple[float, float]], list[float]]:
        sent, beats = await self._call("finish")
        return list(sent), list(beats)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self._call("close")
        await asyncio.to_thread(self.process.join, 10)
        if self.process.is_alive():
            self.process.kill()


def _in_windows(sent_and_took: list[tuple[float, float]], windows: list[tuple[float, float]],
                *, values: bool = False) -> Any:
    """B's latencies (ms) of the reports sent inside a pairing window (or their count)."""
    inside = [took for sent, took in sent_and_took
              if any(start <= sent <= end for start, end in windows)]
    return inside if values else len(inside)


async def big_event(service: Any, guild_id: int, players: int, system: str,
                    channel_id: int | None = None) -> Actor:
    """``players`` guests imported, started (round 1), every game of round 1 decided; the
    organiser is returned (also benchmarks/pairing_holds.py's big event)."""
    org = Actor(1, guild_id, "Org", True)
    await service.create_tournament(org, "Big Open", 7, system=system, seed=7,
                                    channel_id=channel_id)
    for first in range(0, players, 1000):
        rows = "\n".join(f"Guest {i},{1000 + (i * 7919) % 1800}"
                         for i in range(first, min(players, first + 1000)))
        await service.import_players(org, "name,rating\n" + rows)
    view = await service.start_tournament(org)
    for index, game in enumerate(view.games):
        result = ("win", "draw", "loss")[index % 3]
        await service.set_result(org, 1, f"#{game.white.number}", result)
    return org


async def _small_event(service: Any, info: SandboxInfo) -> int:
    """B's 4-player event with round 1 open; the user id of the player who reports."""
    org = Actor(1, info.small_guild, "Org", True)
    await service.create_tournament(org, "Small Cup", 3, seed=1,
                                    channel_id=info.small_channel)
    for user_id, name in info.small_members:
        await service.join(Actor(user_id, info.small_guild, name, False))
    view = await service.start_tournament(org)
    return int(view.games[0].white.user_id)


async def _drain(service: Any, timeout: float = 900) -> None:
    """Wait until the outbox has nothing left to post. Counted, not read: reading the first
    pending row every 20 ms parsed the 600 kB pairings payload of a 3,000-player round each
    time, holding the database (one SQLite connection) 50 ms per look, and B's commands
    waited for the benchmark's own polling."""
    deadline = time.perf_counter() + timeout
    while await _undelivered(service):
        if time.perf_counter() > deadline:
            raise TimeoutError("the outbox was not delivered")
        await asyncio.sleep(0.02)


async def _undelivered(service: Any) -> int:
    async with service.db.transaction(readonly=True) as conn, conn.execute(
        "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL AND next_attempt_at <= ?",
        (to_text(service.now()),),
    ) as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


def run_latency(sizes: list[int], system: str, *, repeats: int = REPEATS,
                inline_too: bool = True, modes: tuple[bool, ...] = (True,),
                postgresql: bool = False) -> list[Latency]:
    """``modes``: for each, the fake Discord in its own process (True) or in the bot's.
    ``postgresql``: every row on a new database of a throwaway PostgreSQL cluster."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="swissbot-latency-") as tmp, \
            _databases(postgresql) as new_database:
        for players in sizes:
            for inline in (False, True) if inline_too else (False,):
                for apart in modes:
                    rows.append(asyncio.run(measure(players, inline, Path(tmp), system=system,
                                                    repeats=repeats, sandbox_process=apart,
                                                    database=new_database())))
                    print_row(rows[-1])
    return rows


@contextlib.contextmanager
def _databases(postgresql: bool) -> Iterator[Callable[[], str | None]]:
    """A function that gives each row its database: None (a new SQLite file) or, with
    ``postgresql``, a new database on a throwaway cluster (the tests' tests/pg_cluster.py:
    the server binaries of ``make postgresql``; fsync off, as in the tests), stopped after."""
    if not postgresql:
        yield lambda: None
        return
    from tests.pg_cluster import start_cluster, why_unavailable

    reason = why_unavailable()
    if reason is not None:
        raise SystemExit(f"--postgresql: {reason}")
    cluster = start_cluster()
    try:
        yield lambda: asyncio.run(cluster.new_database())
    finally:
        cluster.stop()


HEADER = (f"{'players':>8} {'pairing in':24} {'rounds':>6} {'click→posted s':>14} "
          f"{'B reports':>9} {'B p50 ms':>9} {'B p95 ms':>9} {'B p99 ms':>9} {'B max ms':>9} "
          f"{'max heartbeat gap s':>19}")


def print_row(r: Latency) -> None:
    print(f"{r.players:8,} {r.mode:24} {r.repeats:6d} {r.click_to_posted:14.2f} "
          f"{r.reports:9d} {r.p50_ms:9.1f} {r.p95_ms:9.1f} {r.p99_ms:9.1f} {r.max_ms:9.1f} "
          f"{r.heartbeat_gap:19.2f}", flush=True)
