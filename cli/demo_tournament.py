"""The demo: the real bot against the sandbox, with simulated members playing a tournament.

Everything runs on 127.0.0.1: no token, no network. The bot is ``swissbot run`` in a process
of its own (:mod:`cli.demo_bot`); this process holds the sandbox and the simulated members.
Results come from Milvang's outcome model (``swiss.sim.outcomes``) on each player's true
strength; the players report through ``/report`` and the opponents confirm with the button,
as people would. A step the bot refuses stops the demo at once with the bot's answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import random
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO, TypeVar

from bot.client import open_service
from bot.settings import Settings
from cli.demo_bot import DemoBot, DemoBotStopped
from sandbox.payloads import SandboxMember
from sandbox.server import FakeDiscord, SandboxError
from sandbox.transcript import Transcript
from swiss.sim.outcomes import Milvang, draw_result
from swiss.wording import plural

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
#: The gateway's heartbeat interval in the demo (Discord's is 41.25 s): short, so that a bot
#: whose event loop falls behind shows it within a second.
HEARTBEAT_MS = 1000
#: How long a command's answer may take (a big round is paired within it) and how long the
#: demo waits for an announcement (a round's pairings posted in full).
ANSWER_SECONDS = 120.0
ANNOUNCEMENT_SECONDS = 600.0


@dataclass
class DemoResult:
    rounds: int
    players: int
    messages: int
    requests: int
    seconds: float
    errors: list[str]
    timings: list[tuple[str, float]] = field(default_factory=list)
    #: the step the bot refused or did not answer (the demo stopped there), with its answer
    failure: str | None = None
    #: the longest a heartbeat came after its interval (the bot's event loop falling behind)
    heartbeat_lag: float = 0.0
    #: the bot process's exit code after SIGTERM (None: it had to be killed)
    exit_code: int | None = 0


class DemoStepFailed(Exception):
    """A step of the demo the bot refused or did not answer; the message quotes its answer."""


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
    rules: str | None = None,
    seed: int = 1,
    out: TextIO,
    show_private: bool = False,
    play_as: Callable[..., Play] | None = None,
    environment: dict[str, str] | None = None,
) -> DemoResult:
    """Play a whole tournament in the sandbox, printing the channel to ``out``; ``play_as``
    makes the members' :class:`Play` (another way to play: :mod:`cli.demo_lichess`), and
    ``environment`` adds to the bot's."""
    started = time.perf_counter()
    rng = random.Random(seed)
    catcher = _ErrorCatcher()  # the sandbox's own errors (the bot's are in its log)
    logging.getLogger("sandbox").addHandler(catcher)
    fake = FakeDiscord(heartbeat_interval_ms=HEARTBEAT_MS)
    await fake.start()
    failure: str | None = None
    play: Play | None = None
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
        with tempfile.TemporaryDirectory(prefix="swissbot-demo-") as tmp:
            bot = DemoBot(fake, guild.id, Path(tmp) / "demo.sqlite3", Path(tmp) / "bot.log")
            bot.extra_environment.update(environment or {})
            edition = f" ({rules} rules)" if rules else ""
            print(f"swissbot demo · {players} players · {plural(rounds, 'round')} · "
                  f"{system}{edition} · sandbox on {fake.api_base}\n", file=out, flush=True)
            big = players > BIG_DEMO
            # a big event's channel is thousands of lines: print the timings instead
            transcript = None if big else Transcript(fake, out, show_ephemeral=show_private)
            try:
                await bot.start()
                # this process reads the bot's database (the pairings, the outbox) to know
                # what to play and when the channel is up to date; the bot does the writing
                database, service = await open_service(Settings(
                    _env_file=None,  # type: ignore[call-arg]
                    discord_token=fake.token, database=bot.database))
                try:
                    play = (play_as or Play)(fake, guild, channel, owner, service, strength,
                                             rng, out=out if big else None)
                    failure = await _until_the_bot_stops(bot, play.run(
                        members, ratings, rounds=rounds, system=system, rules=rules))
                finally:
                    service.pairing.close()
                    await database.close()
            except DemoBotStopped as stopped:
                failure = str(stopped)
            finally:
                exit_code = await bot.stop()
                if transcript is not None:
                    transcript.detach()
                problems = bot.problems()
    finally:
        await fake.stop()
        logging.getLogger("sandbox").removeHandler(catcher)
    return DemoResult(
        rounds=rounds,
        players=players,
        messages=len(fake.messages),
        requests=len(fake.requests),
        seconds=time.perf_counter() - started,
        errors=problems + catcher.messages,
        timings=play.timings if play is not None else [],
        failure=failure,
        heartbeat_lag=heartbeat_lag(fake.heartbeats, HEARTBEAT_MS / 1000),
        exit_code=exit_code,
    )


async def _until_the_bot_stops(bot: DemoBot, work: Awaitable[None]) -> str | None:
    """Run the demo's ``work``; None when it ends, the reason when a step failed or the bot
    process ended under it (the demo does not wait out its timeouts then)."""
    playing = asyncio.ensure_future(work)
    ended = asyncio.ensure_future(bot.ended())
    try:
        await asyncio.wait({playing, ended}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (playing, ended):
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await ended
    if not playing.cancelled() and playing.done():
        try:
            playing.result()
        except DemoStepFailed as exc:
            return str(exc)
        return None
    with contextlib.suppress(asyncio.CancelledError, DemoStepFailed):
        await playing
    return str(ended.result()) if ended.done() and not ended.cancelled() else "stopped"


def heartbeat_lag(beats: list[float], interval: float) -> float:
    """The longest a heartbeat came after its interval: the time the bot's event loop could
    not send it (discord.py sends it from a thread, through the loop)."""
    return max((later - earlier - interval for earlier, later in itertools.pairwise(beats)
                if later - earlier > interval), default=0.0)


def _names(count: int) -> list[str]:
    names = list(NAMES[:count])
    suffix = 2
    while len(names) < count:
        names += [f"{n}{suffix}" for n in NAMES[: count - len(names)]]
        suffix += 1
    return names


class Play:
    def __init__(
        self,
        fake: FakeDiscord,
        guild: Any,
        channel: Any,
        owner: SandboxMember,
        service: Any,
        strength: dict[int, float],
        rng: random.Random,
        *,
        out: TextIO | None = None,
    ) -> None:
        self.fake, self.guild, self.channel, self.owner = fake, guild, channel, owner
        self.service, self.strength, self.rng = service, strength, rng
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
        while await self.service.pending_announcements(limit=1):
            await asyncio.sleep(0.02)

    async def command(
        self, member: SandboxMember, command: str, /, *, expect: str, **options: Any
    ) -> dict[str, Any]:
        """Send ``/command`` as ``member``; its answer, which must contain ``expect``
        (otherwise the bot refused: :class:`DemoStepFailed` quotes its answer)."""
        try:
            inter = await self.fake.send_slash_command(
                self.guild, self.channel, member, command, options
            )
            reply = await self.fake.reply(inter, timeout=ANSWER_SECONDS)
        except SandboxError as exc:
            raise DemoStepFailed(f"/{command}: {exc}") from None
        if expect not in _shown_text(reply):
            raise DemoStepFailed(f"/{command} was refused: {_shown_text(reply) or reply}")
        return reply

    async def click(self, message: dict[str, Any], member: SandboxMember, label: str) -> None:
        try:
            inter = await self.fake.click_button(message, member, label=label)
            await self.fake.reply(inter, timeout=ANSWER_SECONDS)
        except SandboxError as exc:
            raise DemoStepFailed(f"[{label}]: {exc}") from None

    async def announcement(self, text: str) -> dict[str, Any]:
        def match(m: dict[str, Any]) -> bool:
            if m["channel_id"] != str(self.channel.id) or "interaction_metadata" in m:
                return False
            titles = " ".join((e.get("title") or "") for e in m.get("embeds") or [])
            return text in titles or text in (m.get("content") or "")

        try:
            return await self.fake.wait_for_message(match, timeout=ANNOUNCEMENT_SECONDS)
        except SandboxError as exc:
            raise DemoStepFailed(f"waiting for {text!r}: {exc}") from None

    async def run(
        self, members: list[SandboxMember], ratings: dict[int, int], *, rounds: int,
        system: str, rules: str | None = None,
    ) -> None:
        organisers = self.guild.role("Organisers")
        await self.command(self.owner, "config organiser-role", role=organisers,
                           expect="Organisers are now")
        edition = {"rules": rules} if rules is not None else {}
        await self.command(
            self.owner, "tournament create", name=TOURNAMENT, rounds=rounds, system=system,
            expect="Created", **edition,
        )
        await self.command(self.owner, "tournament settings", setting="deadline_minutes",
                           value="60", expect="settings saved")
        await self.timed(f"{len(members):,} members /join", self.batched([
            functools.partial(self.command, m, "join", rating=ratings[m.id], expect="joined")
            for m in members]))

        async def start() -> None:
            await self.command(self.owner, "tournament start", expect="has started")
            await self.posted(f"Round 1 of {rounds} · pairings")

        await self.timed("/tournament start → round 1 all posted", start())
        for number in range(1, rounds + 1):
            await self.timed(f"round {number}: every game reported and confirmed",
                             self.play_round(number))
            if number < rounds:
                await self.announcement(f"standings after round {number}")

                async def next_round(number: int = number) -> None:
                    await self.command(self.owner, "round next", expect="is paired")
                    await self.posted(f"Round {number + 1} of {rounds} · pairings")

                await self.timed(f"/round next → round {number + 1} all posted", next_round())
        await self.announcement("Final standings")
        await asyncio.sleep(0.2)  # let the last edits print before the summary

    async def play_round(self, number: int) -> None:
        view = await self.service.pairings(self.guild.id)
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
            prompt = await self.command(reporter, "report", result=claimed, expect="Dispute")
            await self.click(prompt, opponent, "Dispute")
            await self.announcement("disputed")
            await self.command(
                self.owner, "result set", player=f"<@{reporter.id}>", round=number,
                result=mine, expect="board",
            )
            return
        prompt = await self.command(reporter, "report", result=mine, expect="Confirm")
        await self.click(prompt, opponent, "Confirm")


def _shown_text(message: dict[str, Any]) -> str:
    """What a reply shows: its text, its embeds' titles, descriptions and fields, and its
    buttons' labels."""
    parts = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields") or []]
    for row in message.get("components") or []:
        parts += [c.get("label") or "" for c in row.get("components") or []]
    return " ".join(part for part in parts if part).strip()
