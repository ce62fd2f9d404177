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

from tests.e2e.fixtures import text_of
from tests.e2e.processes import (
    HUNG,
    club_and_bot,
    pairs_in_a_worker,
    running,
    start_hanging_pairing,
    wait_until,
)

EPHEMERAL = 64
INTERRUPTED = ("Pairing round 1 of 'Crash Open' was interrupted by a restart of the bot; "
               "nothing was changed: run /tournament start again.")


def _runs(database: Path) -> list[tuple[int, bool]]:
    """The pairing runs in the file: (round, whether the command's reply token is kept)."""
    with sqlite3.connect(database) as conn:
        rows = conn.execute("SELECT round_number, reply_token FROM pairing_runs").fetchall()
    return [(int(r[0]), r[1] is not None) for r in rows]


def _progress_posted(database: Path) -> bool:
    with sqlite3.connect(database) as conn:
        return conn.execute("SELECT COUNT(*) FROM outbox WHERE kind = 'pairing_progress'"
                            " AND delivered_at IS NOT NULL").fetchone() == (1,)


def _audit_reasons(database: Path) -> list[str]:
    with sqlite3.connect(database) as conn:
        rows = conn.execute("SELECT after FROM audit_log WHERE action ="
                            " 'round.pairing_failed'").fetchall()
    return [str(r[0]) for r in rows]


async def test_killed_while_pairing_inline_the_restarted_bot_answers_the_command(
    tmp_path: Path,
) -> None:
    async with club_and_bot(tmp_path, 4) as (fake, club, bot):
        await bot.start(HUNG)
        start = await start_hanging_pairing(club, "Crash Open", 4)
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
    log = bot.text()
    assert "Traceback" not in log, log
    assert start["token"] not in log  # the reply token is never logged


async def test_killed_while_a_worker_pairs_nothing_is_left_and_the_command_is_answered(
    tmp_path: Path,
) -> None:
    async with club_and_bot(tmp_path, 6,
                            SWISSBOT_PAIRING_INLINE_BELOW="0") as (fake, club, bot):
        await bot.start(HUNG)
        start = await start_hanging_pairing(club, "Crash Open", 6)
        progress = await club.wait_post(
            lambda m: "Pairing round 1" in (m.get("content") or ""), timeout=60)
        assert bot.process is not None
        pid = bot.process.pid
        await wait_until(lambda: pairs_in_a_worker(pid), 60, "the pairing worker")
        # killed once the progress line is marked posted (a line the dead process still held
        # would wait for its lease to expire, a minute, before the next start may post it)
        await wait_until(lambda: _progress_posted(bot.database), 30, "the progress line marked")
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
    assert "Traceback" not in bot.text(), bot.text()
