"""What ``/privacy forget`` costs in a server with big events: the member is a player of an
event whose announcements (pairings, results, standings) name him in every round.

The outbox holds ``--rounds`` announcements of ``--players`` seats each (the payloads a
3,000-player round posts are about 600 kB); the forget rewrites every one that names him.
Printed: the forget's wall and CPU time, and the longest the event loop waited meanwhile
(a ticker every millisecond), beside the reference (nothing should hold the loop over
~50 ms) and the same ticker's figure with nothing running (the machine's own noise).

    python benchmarks/privacy.py --players 3000 --rounds 9
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

# Run as a script, this folder comes first on sys.path and benchmarks/service.py would
# shadow the ``service`` package: put the repository root there instead.
_ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [str(_ROOT)] + [p for p in sys.path
                              if Path(p or ".").resolve() != _ROOT / "benchmarks"]

from service import Actor, TournamentService  # noqa: E402
from storage import journal  # noqa: E402
from storage.db import connect  # noqa: E402

GUILD = 77
TARGET = 734512987654321098
LOOP_REFERENCE_MS = 50.0


async def _fill(service: TournamentService, players: int, rounds: int) -> None:
    organiser = Actor(user_id=1, guild_id=GUILD, display_name="Orla", is_organiser=True)
    info = await service.create_tournament(organiser, "Big Open", 9)
    await service.join(Actor(user_id=TARGET, guild_id=GUILD, display_name="Zed Quill",
                             is_organiser=False), "Big Open")
    seats = [{"player_id": i, "number": i, "name": f"Player {i}", "user_id": 10**17 + i}
             for i in range(1, players)]
    seats.append({"player_id": players, "number": players, "name": "Zed Quill",
                  "user_id": TARGET})
    now = datetime.now(UTC)
    async with service.db.transaction() as conn:
        for number in range(1, rounds + 1):
            boards = [{"board": b + 1, "white": seats[2 * b], "black": seats[2 * b + 1],
                       "result": "1-0"} for b in range(players // 2)]
            await journal.enqueue(conn, guild_id=GUILD, channel_id=5, tournament_id=info.id,
                                  kind="round_results", payload={"round": number,
                                                                 "games": boards}, now=now)


async def _longest_stall(stop: asyncio.Event) -> float:
    longest, loop = 0.0, asyncio.get_running_loop()
    last = loop.time()
    while not stop.is_set():
        await asyncio.sleep(0.001)
        now = loop.time()
        longest, last = max(longest, now - last), now
    return longest


async def _idle_stall(seconds: float) -> float:
    stop = asyncio.Event()
    ticker = asyncio.create_task(_longest_stall(stop))
    await asyncio.sleep(seconds)
    stop.set()
    return await ticker


async def main(players: int, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = await connect(Path(folder) / "privacy.sqlite3")
        service = TournamentService(db)
        await _fill(service, players, rounds)
        size = sum(len(json.dumps(a.payload)) for a in await service.announcements())
        idle = await _idle_stall(1.0)
        stop = asyncio.Event()
        ticker = asyncio.create_task(_longest_stall(stop))
        await asyncio.sleep(0.01)
        wall, cpu = time.perf_counter(), time.process_time()
        outcome = await service.privacy_forget(Actor(user_id=TARGET, guild_id=GUILD,
                                                     display_name="Zed Quill",
                                                     is_organiser=False))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        stop.set()
        stall = await ticker
        await db.close()
    print(f"outbox: {rounds} announcements of {players:,} seats ({size / 1e6:.1f} MB)")
    print(f"forget: {outcome.rows} rows changed, wall {wall * 1000:.0f} ms, "
          f"CPU (user+sys) {cpu * 1000:.0f} ms")
    print(f"longest event-loop wait meanwhile: {stall * 1000:.0f} ms "
          f"(reference: under {LOOP_REFERENCE_MS:.0f} ms; the same ticker with nothing "
          f"running: {idle * 1000:.0f} ms, the machine's own noise)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=9)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.players, arguments.rounds))
