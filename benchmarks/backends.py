"""Service figures per database backend (issue 17): the same table for SQLite and PostgreSQL.

Sections: one tournament of 100 and one of 1,000 players (report, confirm, round start =
pairing and storing a round), and 100 guilds playing at once (each guild's 16-player event
through two rounds, all guilds concurrently through one ``Database``: one SQLite connection,
or PostgreSQL's pool of connections; what one bot process serving 100 busy servers sees).
Times are milliseconds per service call, each call one transaction.

    python benchmarks/service.py --database /tmp/bench.sqlite3
    python benchmarks/service.py --database postgresql://user@localhost/swissbot_bench
"""

from __future__ import annotations

import asyncio
import itertools
import math
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable
from pathlib import Path
from typing import Any, TypeVar

from service import Actor, TournamentService
from storage.db import UnusableDatabase, connect

T = TypeVar("T")
Timings = dict[str, list[float]]

# Each run uses fresh guild ids, so a benchmark database (a PostgreSQL one especially) may
# be reused: the tournaments of an earlier run are in other guilds.
_GUILDS = itertools.count(int(time.time() * 1000) % 1_000_000_000 * 1000)


async def open_database(url: str) -> Any:
    """A file path or ``sqlite:///path`` (SQLite), or ``postgresql://...`` when this build has
    the PostgreSQL backend."""
    target = url.removeprefix("sqlite:///") if url.startswith("sqlite:///") else url
    try:
        return await connect(target)
    except UnusableDatabase as exc:
        if url.startswith(("postgresql://", "postgres://")):
            raise SystemExit(
                f"cannot open {url.split('@')[-1]}: this build has no PostgreSQL backend or "
                f"the server refused ({exc})"
            ) from None
        raise SystemExit(str(exc)) from None


class Recorder:
    def __init__(self) -> None:
        self.timings: Timings = defaultdict(list)

    async def timed(self, kind: str, call: Awaitable[T]) -> T:
        start = time.perf_counter()
        result = await call
        self.timings[kind].append((time.perf_counter() - start) * 1000)
        return result


async def _event(service: TournamentService, rec: Recorder | None, guild: int, players: int,
                 rounds: int) -> None:
    """One tournament in ``guild``: joins and creation untimed, then ``rounds`` rounds with
    every game reported by white and confirmed by black; ``rec`` times the round play."""

    def member(uid: int) -> Actor:
        return Actor(uid, guild, f"Member {uid}", False)

    async def timed(kind: str, call: Awaitable[T]) -> T:
        return await (rec.timed(kind, call) if rec is not None else call)

    org = Actor(0, guild, "Org", True)
    await service.create_tournament(org, "Bench", rounds, seed=1)
    for uid in range(1, players + 1):
        await service.join(member(uid), rating=1000 + (uid * 7919) % 1800)
    view = await timed("round start (pair + store)", service.start_tournament(org))
    while True:
        for index, game in enumerate(view.games):
            choice = ("win", "draw", "loss")[index % 3]
            assert game.white.user_id is not None and game.black.user_id is not None
            await timed("report", service.report_result(member(game.white.user_id), choice))
            await timed("confirm", service.confirm_result(member(game.black.user_id),
                                                          game.id))
        if view.number == rounds:
            return
        view = await timed("round start (pair + store)", service.pair_next_round(org))


async def scale_section(url: str, players: int, rounds: int) -> Timings:
    db = await open_database(url)
    try:
        rec = Recorder()
        await _event(TournamentService(db), rec, next(_GUILDS), players, rounds)
        return rec.timings
    finally:
        await db.close()


async def guilds_section(url: str, guilds: int, players: int, rounds: int
                         ) -> tuple[Timings, float]:
    """``guilds`` events at once; returns the timings and the wall time of the play."""
    db = await open_database(url)
    try:
        service = TournamentService(db)
        rec = Recorder()
        ids = [next(_GUILDS) for _ in range(guilds)]
        start = time.perf_counter()
        await asyncio.gather(*(_event(service, rec, g, players, rounds) for g in ids))
        return rec.timings, time.perf_counter() - start
    finally:
        await db.close()


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


def print_table(backend: str, sections: list[tuple[str, Timings]]) -> None:
    print(f"backend: {backend}")
    print(f"{'section':28} {'operation':28} {'calls':>6} {'mean ms':>8} {'p95 ms':>8} "
          f"{'max ms':>8}")
    for name, timings in sections:
        for kind, values in timings.items():
            print(f"{name:28} {kind:28} {len(values):6d} {statistics.fmean(values):8.2f} "
                  f"{_p95(values):8.2f} {max(values):8.2f}")


def run_backends(url: str | None, *, big: int = 1000, guilds: int = 100) -> None:
    """Print the table for ``url`` (default: a new SQLite file in a temporary folder)."""
    with tempfile.TemporaryDirectory() as folder:
        target = url or str(Path(folder) / "bench.sqlite3")
        backend = "PostgreSQL" if target.startswith(("postgresql://", "postgres://")) \
            else "SQLite"
        begin = time.perf_counter()
        sections: list[tuple[str, Timings]] = []
        for players, rounds in ((100, 5), (big, 3)):
            sections.append((f"{players} players, {rounds} rounds",
                             asyncio.run(scale_section(target, players, rounds))))
        timings, wall = asyncio.run(guilds_section(target, guilds, 16, 2))
        sections.append((f"{guilds} guilds at once", timings))
        print_table(backend, sections)
        calls = sum(len(v) for v in timings.values())
        print(f"{guilds} guilds at once: {calls} calls in {wall:.1f} s = {calls / wall:.0f} "
              f"calls/s in one process; whole run {time.perf_counter() - begin:.0f} s")
