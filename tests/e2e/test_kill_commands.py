"""SIGKILL in the middle of a /report flow, driven through slash commands: ``swissbot run`` as a
real process with the real discord.py client against the sandbox, killed and started again.

1. Killed between a /report (its prompt posted) and the opponent's confirmation: after the
   restart the prompt's Confirm button, sent by the dead process, records the result once.
2. Killed inside /report, after the report was stored but before the bot answered (the
   sandbox holds the answer; the user saw "The application did not respond"): after the
   restart the report is fully there (stored, its DM and audit entry with it) and the same
   /report again gives the reporter the prompt with the buttons, so the opponent can confirm.

The database is checked (``swissbot db check`` and SQLite's integrity_check) and no
traceback reached the bot's log.
"""

from __future__ import annotations

import asyncio
import signal
import sqlite3
from pathlib import Path
from typing import Any

from sandbox import FakeDiscord
from service import TournamentService
from storage import journal
from storage.db import connect
from storage.moving import check_database
from tests.e2e.fixtures import Club, text_of
from tests.e2e.processes import bot_env, start_process, stop_process, wait_until

EPHEMERAL = 64


def _buttons(message: dict[str, Any]) -> list[str]:
    return [b["label"] for row in message.get("components") or [] for b in row["components"]]


async def _game_state(database: Path, game_id: int) -> tuple[str, str | None]:
    """Read straight from the file (no bot involved): (state, reported result)."""
    db = await connect(database, migrate=False)
    try:
        async with db.transaction(readonly=True) as conn, conn.execute(
            "SELECT state, reported_result FROM games WHERE id = ?", (game_id,)
        ) as cur:
            row = await cur.fetchone()
    finally:
        await db.close()
    assert row is not None
    return str(row[0]), row[1]


async def test_killed_around_a_report_the_flow_finishes_after_the_restart(
    tmp_path: Path,
) -> None:
    database = tmp_path / "bot.sqlite3"
    log = tmp_path / "bot.log"
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Kill Club", players=4)
        club = Club(fake, guild)
        env = bot_env(fake, database, SWISSBOT_DELIVERY_INTERVAL="0.1")

        async def start() -> asyncio.subprocess.Process:
            before = fake.connected
            process = await start_process(env, tmp_path, log)
            await wait_until(lambda: fake.connected > before and guild.id in fake.guild_commands,
                             90, "the bot connected and synced its commands")
            return process

        async def kill(process: asyncio.subprocess.Process) -> None:
            process.send_signal(signal.SIGKILL)  # no shutdown: whatever was in flight is cut
            assert await process.wait() == -signal.SIGKILL
            await wait_until(lambda: fake.connected == 0, 30, "the gateway noticed the kill")

        process = await start()
        try:
            await club.run(club.owner, "tournament create", name="Kill Open", rounds=2)
            for player in club.players[:4]:
                assert "joined" in (await club.run(player, "join"))["content"]
            assert "has started" in (await club.run(club.owner, "tournament start"))["content"]
            await club.wait_post(lambda m: "pairings" in text_of(m), timeout=30)
            db = await connect(database, migrate=False)
            try:
                view = await TournamentService(db).pairings(guild.id)
            finally:
                await db.close()
            first, second = view.games

            # 1. killed between the report and its confirmation
            white = guild.members[first.white.user_id]
            black = guild.members[first.black.user_id]
            prompt = await club.run(white, "report", result="win")
            assert _buttons(prompt) == ["Confirm", "Dispute"], prompt
            await kill(process)
            assert await _game_state(database, first.id) == ("reported", "1-0")
            process = await start()
            answer = await club.click(prompt, black, "Confirm")
            assert "final" in answer["content"], answer["content"]
            assert (await _game_state(database, first.id))[0] == "final"

            # 2. killed inside /report: stored, never answered
            white = guild.members[second.white.user_id]
            black = guild.members[second.black.user_id]
            fake.hold_callbacks = True
            sent = await fake.send_slash_command(guild, club.channel, black, "report",
                                                 {"result": "draw"})
            for _ in range(600):
                if (await _game_state(database, second.id))[0] == "reported":
                    break
                await asyncio.sleep(0.05)
            assert await _game_state(database, second.id) == ("reported", "1/2-1/2")
            await kill(process)
            fake.expire_interaction(sent)  # Discord gave up on that answer
            fake.hold_callbacks = False
            process = await start()
            again = await club.run(black, "report", result="draw")
            assert _buttons(again) == ["Confirm", "Dispute"], again  # the prompt, not a refusal
            assert not again["flags"] & EPHEMERAL
            # a different result is still refused: the first report stands
            other = await club.run(black, "report", result="win")
            assert other["flags"] & EPHEMERAL and "already reported" in other["content"]
            answer = await club.click(again, white, "Confirm")
            assert "final" in answer["content"], answer["content"]
            await club.wait_post(lambda m: "standings after round 1" in text_of(m), timeout=30)
        finally:
            await stop_process(process)

        db = await connect(database, migrate=False)
        try:
            service = TournamentService(db)
            tid = (await service.tournament_info(guild.id)).id
            async with db.transaction(readonly=True) as conn:
                audit = await journal.list_audit(conn, tid)
                outbox = await journal.list_outbox(conn, tid)
            assert (await service.get_game(guild.id, second.id)).result == "1/2-1/2"
        finally:
            await db.close()
        reports = [a for a in audit if a.action == "result.report"]
        assert sorted(a.after["game"] for a in reports) == sorted([first.id, second.id])
        # the round's results and standings were announced once each
        kinds = [r.kind for r in outbox]
        assert kinds.count("round_results") == 1 and kinds.count("standings") == 1

    report = await check_database(str(database))
    assert report.ok, report.problems
    with sqlite3.connect(database) as check:
        assert check.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    text = log.read_text() if log.exists() else ""
    assert "Traceback" not in text, text[-3000:]
