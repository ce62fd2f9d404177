"""The bot while it pairs: other guilds' latency, heartbeats, /round next click to posted.

Used by ``python benchmarks/service.py --latency`` (issue 13 part 4). Everything runs in one
process, as ``swissbot demo`` does: the sandbox (fake Discord, gateway heartbeat every
``HEARTBEAT_MS``) and the real discord.py client with swissbot's cogs, on a fresh SQLite file.

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
import itertools
import random
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def measure(players: int, inline: bool, folder: Path, *, system: str = "dutch",
                  repeats: int = REPEATS) -> Latency:
    fake = FakeDiscord(heartbeat_interval_ms=HEARTBEAT_MS)
    await fake.start()
    endpoints = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    point_at(fake.api_base, fake.gateway_url)
    big = fake.add_guild("Big Club", players=0)
    small = fake.add_guild("Small Club", players=4)
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        discord_token=fake.token, database=folder / f"{players}-{inline}.sqlite3",
        guild_ids=(big.id, small.id), discord_api_base=fake.api_base,
        discord_gateway_url=fake.gateway_url,
        pairing_inline_below=100_000 if inline else 100,
    )
    bot = SwissBot(settings, guild_ready_timeout=0.05, delivery_interval=0.05)
    running = await start_bot(bot, fake)
    jitter = random.Random(players)
    try:
        service = bot.service
        org = await _big_event(service, big, players, system)
        reporter = await _small_event(service, fake, small)
        channel = big.channel("tournaments")
        await _drain(service)
        if not inline:
            await service.pairing.warm_up()  # as the bot does at start-up
            await bot.delivery.renderer.warm_up()
        windows: list[tuple[float, float]] = []
        sent_and_took: list[tuple[float, float]] = []
        done = asyncio.Event()

        async def report_loop() -> None:
            while not done.is_set():
                sent = time.perf_counter()
                inter = await fake.send_slash_command(small, small.channel("tournaments"),
                                                      reporter, "report", {"result": "win"})
                await fake.reply(inter, timeout=600)
                sent_and_took.append((sent, (time.perf_counter() - sent) * 1000))
                await asyncio.sleep(REPORT_EVERY * jitter.uniform(0.5, 1.5))

        loop_task = asyncio.create_task(report_loop())
        owner = fake.owner_member(big)
        gaps: list[float] = []
        try:
            attempt = 0
            while attempt < repeats or (_in_windows(sent_and_took, windows) < MIN_REPORTS
                                        and attempt < MAX_REPEATS):
                attempt += 1
                await asyncio.sleep(0.3 + 0.2 * jitter.random())  # not in step with B
                beats_from = len(fake.heartbeats)
                clicked = time.perf_counter()
                inter = await fake.send_slash_command(big, channel, owner, "round next", {})
                await fake.reply(inter, timeout=900)
                await _drain(service)
                windows.append((clicked, time.perf_counter()))
                # from the last heartbeat before the click to the first after the last post
                await asyncio.sleep(HEARTBEAT_MS / 1000 * 1.2)
                beats = fake.heartbeats[max(0, beats_from - 1):]
                gaps += [b - a for a, b in itertools.pairwise(beats)]
                # back to round 1 complete, not measured
                await service.undo_round(org, round_number=2)
                await _drain(service)
        finally:
            done.set()
            await loop_task
        latencies = _in_windows(sent_and_took, windows, values=True)
        return Latency(
            mode="inline (old)" if inline else "worker process",
            players=players,
            click_to_posted=statistics.median(end - start for start, end in windows),
            reports=len(latencies), p50_ms=statistics.median(latencies),
            p95_ms=_quantile(latencies, 0.95), p99_ms=_quantile(latencies, 0.99),
            max_ms=max(latencies), heartbeat_gap=max(gaps, default=float("nan")),
            repeats=len(windows),
        )
    finally:
        await running.stop()
        if not inline:
            bot.service.pairing.close()
        await fake.stop()
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = endpoints


def _in_windows(sent_and_took: list[tuple[float, float]], windows: list[tuple[float, float]],
                *, values: bool = False) -> Any:
    """B's latencies (ms) of the reports sent inside a pairing window (or their count)."""
    inside = [took for sent, took in sent_and_took
              if any(start <= sent <= end for start, end in windows)]
    return inside if values else len(inside)


async def _big_event(service: Any, guild: Any, players: int, system: str) -> Actor:
    """``players`` guests imported, started (round 1), every game of round 1 decided."""
    org = Actor(1, guild.id, "Org", True)
    await service.create_tournament(org, "Big Open", 7, system=system, seed=7,
                                    channel_id=guild.channel("tournaments").id)
    for first in range(0, players, 1000):
        rows = "\n".join(f"Guest {i},{1000 + (i * 7919) % 1800}"
                         for i in range(first, min(players, first + 1000)))
        await service.import_players(org, "name,rating\n" + rows)
    view = await service.start_tournament(org)
    for index, game in enumerate(view.games):
        result = ("win", "draw", "loss")[index % 3]
        await service.set_result(org, 1, f"#{game.white.number}", result)
    return org


async def _small_event(service: Any, fake: FakeDiscord, guild: Any) -> Any:
    org = Actor(1, guild.id, "Org", True)
    await service.create_tournament(org, "Small Cup", 3, seed=1,
                                    channel_id=guild.channel("tournaments").id)
    members = fake.players(guild)
    for m in members:
        await service.join(Actor(m.id, guild.id, m.display_name or m.username, False))
    view = await service.start_tournament(org)
    return guild.members[view.games[0].white.user_id]


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
                inline_too: bool = True) -> list[Latency]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="swissbot-latency-") as tmp:
        for players in sizes:
            for inline in (False, True) if inline_too else (False,):
                rows.append(asyncio.run(measure(players, inline, Path(tmp), system=system,
                                                repeats=repeats)))
                print_row(rows[-1])
    return rows


HEADER = (f"{'players':>8} {'pairing in':16} {'rounds':>6} {'click→posted s':>14} "
          f"{'B reports':>9} {'B p50 ms':>9} {'B p95 ms':>9} {'B p99 ms':>9} {'B max ms':>9} "
          f"{'max heartbeat gap s':>19}")


def print_row(r: Latency) -> None:
    print(f"{r.players:8,} {r.mode:16} {r.repeats:6d} {r.click_to_posted:14.2f} "
          f"{r.reports:9d} {r.p50_ms:9.1f} {r.p95_ms:9.1f} {r.p99_ms:9.1f} {r.max_ms:9.1f} "
          f"{r.heartbeat_gap:19.2f}", flush=True)
