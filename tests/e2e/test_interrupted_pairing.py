"""A bot killed (SIGKILL) while it pairs a round: the organiser is told, nothing outlives it.

``swissbot run`` runs as a real process against the sandbox with pairings that never end
(tests/e2e/hung_bot.py), is killed mid-pairing and started again (the real entry point):

1. a small event paired in the bot's own process: the restarted bot edits the organiser's
   "thinking..." answer into "interrupted by a restart ... run /tournament start again" at
   once (the run's marker would only expire minutes later), and the command then works;
2. an event paired in a worker process: within two seconds of the kill no process the bot
   started is left (worker, fork server, resource tracker), and after the restart the
   deferred answer is edited and the channel's progress line says what happened.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from sandbox import FakeDiscord
from tests.e2e.fixtures import Club, text_of
from tests.e2e.processes import BotProcess, descendants, running, wait_until

EPHEMERAL = 64
HUNG = ("-m", "tests.e2e.hung_bot")
INTERRUPTED = ("Pairing round 1 of 'Crash Open' was interrupted by a restart of the bot; "
               "nothing was changed: run /tournament start again.")


def _runs(database: Path) -> list[tuple[int, bool]]:
    """The pairing runs in the file: (round, whether the command's reply token is kept)."""
    with sqlite3.connect(database) as conn:
        rows = conn.execute("SELECT round_number, reply_token FROM pairing_runs").fetchall()
    return [(int(r[0]), r[1] is not None) for r in rows]


def _audit_reasons(database: Path) -> list[str]:
    with sqlite3.connect(database) as conn:
        rows = conn.execute("SELECT after FROM audit_log WHERE action ="
                            " 'round.pairing_failed'").fetchall()
    return [str(r[0]) for r in rows]


async def _deferred(fake: FakeDiscord, interaction: dict[str, Any]) -> None:
    """Wait until the bot answered ``interaction`` with "thinking..." (and not yet more)."""
    record = fake.interactions[interaction["token"]]
    await wait_until(lambda: record.original_message_id is not None, 30,
                     "the command's thinking answer")
    assert not record.answered.is_set()


async def test_killed_while_pairing_inline_the_restarted_bot_answers_the_command(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Crash Club", players=4)
        club = Club(fake, guild)
        bot = BotProcess(fake, guild, tmp_path)
        await bot.start(HUNG)
        try:
            await club.run(club.owner, "tournament create", name="Crash Open", rounds=3)
            for player in club.players[:4]:
                assert "joined" in (await club.run(player, "join"))["content"]
            start = await fake.send_slash_command(guild, club.channel, club.owner,
                                                  "tournament start", {})
            await _deferred(fake, start)
            # the run is marked, with the command's reply token, and the pairing hangs
            await wait_until(lambda: _runs(bot.database) == [(1, True)], 30, "the marker")
            await bot.kill()
            restarted = time.monotonic()
            await bot.start()
            reply = await fake.reply(start, timeout=30)
            took = time.monotonic() - restarted
            assert reply["content"] == INTERRUPTED, reply
            assert reply["flags"] & EPHEMERAL  # the answer stays private, as the defer was
            assert took < 30  # at start-up, not after the marker's 210 s expiry
            assert _runs(bot.database) == []  # the marker and the token are gone
            assert any("interrupted by a restart" in r for r in _audit_reasons(bot.database))
            # the organiser was answered: no post in the channel about it
            assert not any("was not paired" in text_of(m) for m in club.posts())
            again = await club.run(club.owner, "tournament start")
            assert "has started" in again["content"], again
        finally:
            await bot.stop()
    log = bot.text()
    assert "Traceback" not in log, log
    assert start["token"] not in log  # the reply token is never logged


async def test_killed_while_a_worker_pairs_nothing_is_left_and_the_command_is_answered(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Crash Club", players=6)
        club = Club(fake, guild)
        bot = BotProcess(fake, guild, tmp_path, SWISSBOT_PAIRING_INLINE_BELOW="0")
        await bot.start(HUNG)
        try:
            await club.run(club.owner, "tournament create", name="Crash Open", rounds=3)
            for player in club.players[:6]:
                assert "joined" in (await club.run(player, "join"))["content"]
            start = await fake.send_slash_command(guild, club.channel, club.owner,
                                                  "tournament start", {})
            await _deferred(fake, start)
            progress = await club.wait_post(
                lambda m: "Pairing round 1" in (m.get("content") or ""), timeout=60)
            assert bot.process is not None
            pid = bot.process.pid
            # the worker is up (a fork server's child) and pairing
            await wait_until(lambda: any(_is_worker(p, pid) for p in descendants(pid)), 60,
                             "the pairing worker")
            started = await bot.kill()
            assert len(started) >= 2, started  # the fork server and the worker at least
            await wait_until(lambda: not any(running(p) for p in started), 2,
                             "every process the bot started to end")
            await bot.start()
            reply = await fake.reply(start, timeout=30)
            assert reply["content"] == INTERRUPTED, reply
            # the channel's progress line became the reason (a failure embed, edited)
            await wait_until(lambda: bool(progress.get("embeds")), 30, "the progress line edit")
            assert "was interrupted by a restart" in text_of(progress)
            assert _runs(bot.database) == []
        finally:
            await bot.stop()
    assert "Traceback" not in bot.text(), bot.text()


def _is_worker(pid: int, bot: int) -> bool:
    """A process two levels below the bot: the fork server's child, i.e. the worker."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    parent = int(stat[stat.rindex(")") + 2:].split()[1])
    return parent != bot and parent in descendants(bot)
