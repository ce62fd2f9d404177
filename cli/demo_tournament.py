"""The demo: the real bot against the sandbox, with simulated members playing a tournament.

Everything runs in one process on 127.0.0.1: no token, no network. Results come from
Milvang's outcome model (``swiss.sim.outcomes``) on each player's true strength; the players
report through ``/report`` and the opponents confirm with the button, as people would.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO, TypeVar

import discord

from bot.client import SwissBot, point_at
from bot.settings import Settings
from sandbox.harness import start_bot
from sandbox.payloads import SandboxMember
from sandbox.server import FakeDiscord
from sandbox.transcript import Transcript
from swiss.sim.outcomes import Milvang, draw_result

T = TypeVar("T")

NAMES = (
    "Ada", "Boris", "Chloé", "Dmitri", "Elif", "Farid", "Greta", "Hiro", "Ines", "Jonas",
    "Kemal", "Lena", "Marek", "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Sven", "Tamar",
    "Ugo", "Vera", "Wen", "Ximena", "Yusuf", "Zofia",
)
TOURNAMENT = "Sandbox Open"
#: Above this many players: no transcript, commands sent in batches, timings printed.
BIG_DEMO = 200
#: Commands of a big demo in flight at once (members joining, games being reported).
BATCH = 50


@dataclass
class DemoResult:
    rounds: int
    players: int
    messages: int
    requests: int
    seconds: float
    errors: list[str]
    timings: list[tuple[str, float]] = field(default_factory=list)


class _ErrorCatcher(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.name}: {record.getMessage()}")


async def run_demo(
    *,
    players: int = 12,
    rounds: int = 4,
    system: str = "burstein",
    seed: int = 1,
    out: TextIO,
    show_private: bool = False,
) -> DemoResult:
    """Play a whole tournament in the sandbox, printing the channel to ``out``."""
    started = time.perf_counter()
    rng = random.Random(seed)
    catcher = _ErrorCatcher()
    for name in ("discord", "bot", "cogs"):
        logging.getLogger(name).addHandler(catcher)
    fake = FakeDiscord()
    await fake.start()
    endpoints = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    try:
        guild = fake.add_guild("Sandbox Chess Club", players=0)
        channel = guild.channel("tournaments")
        members = [
            fake.add_member(guild, name.lower(), display_name=name)
            for name in _names(players)
        ]
        ratings = {m.id: rng.randint(1400, 2400) for m in members}
        # true strength = rating + noise: ratings are estimates (the paper's set-up)
        strength = {uid: r + rng.gauss(0, 60) for uid, r in ratings.items()}
        owner = fake.owner_member(guild)
        point_at(fake.api_base, fake.gateway_url)
        with tempfile.TemporaryDirectory(prefix="swissbot-demo-") as tmp:
            settings = Settings(
                _env_file=None,  # type: ignore[call-arg]
                discord_token=fake.token,
                database=Path(tmp) / "demo.sqlite3",
                guild_ids=(guild.id,),
                discord_api_base=fake.api_base,
                discord_gateway_url=fake.gateway_url,
            )
            bot = SwissBot(settings, guild_ready_timeout=0.05, delivery_interval=0.1)
            running = await start_bot(bot, fake)
            print(f"swissbot demo · {players} players · {rounds} rounds · {system} · "
                  f"sandbox on {fake.api_base}\n", file=out, flush=True)
            big = players > BIG_DEMO
            # a big event's channel is thousands of lines: print the timings instead
            transcript = None if big else Transcript(fake, out, show_ephemeral=show_private)
            play = _Play(fake, guild, channel, owner, bot, strength, rng,
                         out=out if big else None)
            try:
                await play.run(
                    members, ratings, rounds=rounds, system=system
                )
            finally:
                if transcript is not None:
                    transcript.detach()
                await running.stop()
    finally:
        await fake.stop()
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = endpoints
        for name in ("discord", "bot", "cogs"):
            logging.getLogger(name).removeHandler(catcher)
    return DemoResult(
        rounds=rounds,
        players=players,
        messages=len(fake.messages),
        requests=len(fake.requests),
        seconds=time.perf_counter() - started,
        errors=catcher.messages,
        timings=play.timings,
    )


def _names(count: int) -> list[str]:
    names = list(NAMES[:count])
    suffix = 2
    while len(names) < count:
        names += [f"{n}{suffix}" for n in NAMES[: count - len(names)]]
        suffix += 1
    return names


class _Play:
    def __init__(
        self,
        fake: FakeDiscord,
        guild: Any,
        channel: Any,
        owner: SandboxMember,
        bot: SwissBot,
        strength: dict[int, float],
        rng: random.Random,
        *,
        out: TextIO | None = None,
    ) -> None:
        self.fake, self.guild, self.channel, self.owner = fake, guild, channel, owner
        self.bot, self.strength, self.rng = bot, strength, rng
        self.model = Milvang()
        self.out = out  # a big demo: print the phases and their timings here
        self.timings: list[tuple[str, float]] = []

    async def timed(self, what: str, work: Awaitable[T]) -> T:
        """Run ``work`` and record how long it took (printed at once in a big demo)."""
        started = time.perf_counter()
        result = await work
        seconds = time.perf_counter() - started
        self.timings.append((what, seconds))
        if self.out is not None:
            print(f"{what:46} {seconds:8.2f} s", file=self.out, flush=True)
        return result

    async def batched(self, calls: list[Callable[[], Awaitable[Any]]]) -> None:
        """Run the calls, ``BATCH`` at a time in a big demo (one by one otherwise: the
        printed channel then reads in order)."""
        size = BATCH if self.out is not None else 1
        for first in range(0, len(calls), size):
            await asyncio.gather(*(call() for call in calls[first:first + size]))

    async def posted(self, text: str) -> None:
        """Wait for the announcement ``text``, then for the whole outbox to be posted."""
        await self.announcement(text)
        while await self.bot.service.pending_announcements(limit=1):
            await asyncio.sleep(0.02)

    async def command(
        self, member: SandboxMember, command: str, /, **options: Any
    ) -> dict[str, Any]:
        inter = await self.fake.send_slash_command(
            self.guild, self.channel, member, command, options
        )
        return await self.fake.reply(inter, timeout=600)

    async def click(self, message: dict[str, Any], member: SandboxMember, label: str) -> None:
        inter = await self.fake.click_button(message, member, label=label)
        await self.fake.reply(inter, timeout=600)

    async def announcement(self, text: str) -> dict[str, Any]:
        def match(m: dict[str, Any]) -> bool:
            if m["channel_id"] != str(self.channel.id) or "interaction_metadata" in m:
                return False
            titles = " ".join((e.get("title") or "") for e in m.get("embeds") or [])
            return text in titles or text in (m.get("content") or "")

        return await self.fake.wait_for_message(match, timeout=600)

    async def run(
        self, members: list[SandboxMember], ratings: dict[int, int], *, rounds: int, system: str
    ) -> None:
        organisers = self.guild.role("Organisers")
        await self.command(self.owner, "config organiser-role", role=organisers)
        await self.command(
            self.owner, "tournament create", name=TOURNAMENT, rounds=rounds, system=system,
            deadline_minutes=60,
        )
        await self.timed(f"{len(members):,} members /join", self.batched([
            functools.partial(self.command, m, "join", rating=ratings[m.id]) for m in members]))

        async def start() -> None:
            await self.command(self.owner, "tournament start")
            await self.posted(f"Round 1 of {rounds} · pairings")

        await self.timed("/tournament start → round 1 all posted", start())
        for number in range(1, rounds + 1):
            await self.timed(f"round {number}: every game reported and confirmed",
                             self.play_round(number))
            if number < rounds:
                await self.announcement(f"standings after round {number}")

                async def next_round(number: int = number) -> None:
                    await self.command(self.owner, "round next")
                    await self.posted(f"Round {number + 1} of {rounds} · pairings")

                await self.timed(f"/round next → round {number + 1} all posted", next_round())
        await self.announcement("Final standings")
        await asyncio.sleep(0.2)  # let the last edits print before the summary

    async def play_round(self, number: int) -> None:
        view = await self.bot.service.pairings(self.guild.id)
        dispute_board = 1 if number == 2 and len(view.games) > 1 else None
        await self.batched([functools.partial(self.play_game, number, game, dispute_board)
                            for game in view.games])

    async def play_game(self, number: int, game: Any, dispute_board: int | None) -> None:
        white = self.guild.members[game.white.user_id]
        black = self.guild.members[game.black.user_id]
        probabilities = self.model.probabilities(
            self.strength[white.id], self.strength[black.id]
        )
        result = draw_result(probabilities, self.rng.random()).value
        reporter, opponent = (white, black) if self.rng.random() < 0.5 else (black, white)
        mine = {"1-0": "win", "0-1": "loss"}.get(result, "draw")
        if reporter is black:
            mine = {"win": "loss", "loss": "win"}.get(mine, "draw")
        if game.board == dispute_board:
            # a mis-click: the reporter claims a win, the opponent disputes, and an
            # organiser sets the true result
            claimed = "win" if mine != "win" else "draw"
            prompt = await self.command(reporter, "report", result=claimed)
            await self.click(prompt, opponent, "Dispute")
            await self.announcement("disputed")
            await self.command(
                self.owner, "result set", player=f"<@{reporter.id}>", round=number,
                result=mine,
            )
            return
        prompt = await self.command(reporter, "report", result=mine)
        await self.click(prompt, opponent, "Confirm")
