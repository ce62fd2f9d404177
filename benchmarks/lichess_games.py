"""Lichess games per board: from a round's start to every board's game created and stored,
and from the games' end to every result recorded, against the fake Lichess
(sandbox/lichess.py) on a fresh SQLite file.

    python benchmarks/lichess_games.py [--boards 16 500]

The players are linked and joined through the service (not measured). Measured: the worker's
pass that makes the round's games (one request at a time, as Lichess asks), and the pass that
reads their results (300 games a request). The reference is what Lichess itself would add:
its answer time per request (not included here: the fake answers on this machine).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.lichess.client import LichessClient
from bot.lichess.games import LichessGames
from sandbox.lichess import FakeLichess
from service import Actor, TournamentService
from storage import lichess as repo
from storage.db import connect
from tests.lichess_helpers import StubLichess

GUILD = 1
ORG = Actor(user_id=1, guild_id=GUILD, display_name="Org", is_organiser=True)


async def one(boards: int) -> tuple[float, float]:
    fake = await FakeLichess().start()
    client = LichessClient(fake.url)
    with tempfile.TemporaryDirectory() as folder:
        db = await connect(Path(folder) / "bench.sqlite3")
        service = TournamentService(db)
        stub = StubLichess()
        service.lichess = stub
        await service.create_tournament(ORG, "Bench", 5)
        await service.lichess_event(ORG, "Bench", clock="3+2")
        for uid in range(100, 100 + 2 * boards):
            name = f"p{uid}"
            stub.add(name, rating=1000 + uid % 1000)
            async with service.db.transaction() as conn:
                await repo.insert_link(conn, repo.LinkRow(GUILD, uid, name, name, "profile",
                                                          service.now()))
            await service.join(Actor(uid, GUILD, name))
        await service.start_tournament(ORG, "Bench")
        worker = LichessGames(service, client)
        began = time.perf_counter()
        assert await worker.run_once() == boards
        create = time.perf_counter() - began
        for index, challenge in enumerate(fake.challenges):
            fake.play(challenge["id"], "mate", ("white", "black")[index % 2])
        began = time.perf_counter()
        assert await worker.follow_once() == boards
        read = time.perf_counter() - began
        await db.close()
    await client.close()
    await fake.stop()
    return create, read


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, nargs="+", default=[16, 500])
    args = parser.parse_args()
    print("boards | games created and stored | per board | results read and recorded")
    for boards in args.boards:
        create, read = asyncio.run(one(boards))
        print(f"{boards:6d} | {create:8.2f} s | {1000 * create / boards:7.1f} ms | "
              f"{read:8.2f} s   (reference: plus Lichess's answer time per game, one at a "
              "time)")


if __name__ == "__main__":
    main()
