"""How long the write transactions of a big pairing hold the database, statement by
statement, and what another guild's ``/report`` transaction costs meanwhile (issue 13).

No Discord here: the service alone, on a fresh SQLite file (or ``--database
postgresql://...``). Guild A has an event of ``--players`` guests, round 1 complete; guild B a
4-player event whose player has reported his game (his ``/report`` again is the one
``benchmarks/bot_latency.py`` sends). Then ``--repeats`` times: A's ``/round next`` is paired
(in a worker process, as the bot does) while B reports every ~20 ms, and the round is undone
(not measured). Every transaction is timed: how long it waited for the connection, how long it
was held (to the end of its COMMIT), its COMMIT, its statements (count, and their time from
the call to the result: on SQLite one hop to aiosqlite's thread each) and the rest of the time
it was held (the event loop's Python between statements and its turns). Then the same report
with nothing else running.

Hold times depend less on the machine's load than B's latency: they say what a change did
to the database's busiest moments. ``benchmarks/loop_spans.py`` tells what held each slow
report of the end-to-end benchmark.

    nice python benchmarks/pairing_holds.py --players 3000 [--repeats 6] [--database URL]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import contextvars
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [str(_ROOT)] + [p for p in sys.path
                              if Path(p or ".").resolve() != _ROOT / "benchmarks"]

from service import Actor, TournamentService  # noqa: E402
from service.pairing_pool import PairingPool  # noqa: E402
from storage import db as sqlite_db  # noqa: E402
from storage.db import connect  # noqa: E402
from storage.dialects import postgresql as pg  # noqa: E402

BIG, SMALL = 1, 2


@dataclass
class Tx:
    name: str
    waited: float = 0.0
    held: float = 0.0
    commit: float = 0.0
    statements: list[tuple[str, float]] = field(default_factory=list)


_current: contextvars.ContextVar[Tx | None] = contextvars.ContextVar("tx", default=None)
_log: list[Tx] = []
_phase = {"name": "setup"}


def _timed_statement(statement: Any, sql: str) -> Any:
    tx = _current.get()
    if tx is None:
        return statement

    async def run() -> Any:
        began = time.perf_counter()
        try:
            return await statement
        finally:
            tx.statements.append((" ".join(sql.split())[:60], time.perf_counter() - began))

    return sqlite_db._Statement(run())


def _instrument() -> None:
    for cls in (sqlite_db.FetchingConnection, pg.PgConnection):
        execute, many = cls.execute, cls.executemany

        def timed_execute(self: Any, sql: str, parameters: Any = (), *, _run: Any = execute
                          ) -> Any:
            return _timed_statement(_run(self, sql, parameters), sql)

        async def timed_many(self: Any, sql: str, rows: Any, *, _run: Any = many) -> Any:
            tx = _current.get()
            began = time.perf_counter()
            try:
                return await _run(self, sql, rows)
            finally:
                if tx is not None:
                    tx.statements.append(("(many) " + " ".join(sql.split())[:53],
                                          time.perf_counter() - began))

        cls.execute = timed_execute  # type: ignore[method-assign]
        cls.executemany = timed_many  # type: ignore[method-assign]

    for cls in (sqlite_db.Database, pg.PgDatabase):
        opened = cls.transaction

        @contextlib.asynccontextmanager
        async def transaction(self: Any, *, readonly: bool = False, _open: Any = opened
                              ) -> AsyncIterator[Any]:
            caller = sys._getframe(2)
            tx = Tx(f"{_phase['name']:6} {Path(caller.f_code.co_filename).stem}."
                    f"{caller.f_code.co_name}" + (" (read)" if readonly else ""))
            asked = time.perf_counter()
            token = _current.set(tx)
            began = body_end = asked
            try:
                async with _open(self, readonly=readonly) as conn:
                    began = time.perf_counter()
                    try:
                        yield conn
                    finally:
                        body_end = time.perf_counter()
            finally:
                end = time.perf_counter()
                _current.reset(token)
                tx.waited, tx.held, tx.commit = began - asked, end - began, end - body_end
                _log.append(tx)

        cls.transaction = transaction  # type: ignore[method-assign,assignment]


async def _set_up(service: TournamentService, players: int) -> tuple[Actor, Actor]:
    from benchmarks.bot_latency import big_event  # (the latency benchmark's big event)

    org = await big_event(service, BIG, players, "dutch")
    small_org = Actor(1, SMALL, "Org", True)
    await service.create_tournament(small_org, "Small Cup", 3, seed=1)
    for user in range(10, 14):
        await service.join(Actor(user, SMALL, f"P{user}", False))
    small = await service.start_tournament(small_org)
    reporter = Actor(int(small.games[0].white.user_id), SMALL, "B", False)
    await service.report_result(reporter, "win")  # B's next ones repeat it (as bot_latency)
    return org, reporter


async def _measure(args: argparse.Namespace, target: str) -> None:
    db = await connect(target)
    pool = PairingPool()
    service = TournamentService(db, pairing=pool)
    try:
        org, reporter = await _set_up(service, args.players)
        await pool.warm_up()
        jitter = random.Random(1)
        for _ in range(args.repeats):
            done = asyncio.Event()

            async def reports(done: asyncio.Event = done) -> None:
                while not done.is_set():
                    await service.report_result(reporter, "win")
                    await asyncio.sleep(0.02 * jitter.uniform(0.5, 1.5))

            _phase["name"] = "window"
            task = asyncio.create_task(reports())
            await asyncio.sleep(0.05)
            await service.pair_next_round(org)
            done.set()
            await task
            _phase["name"] = "setup"
            await service.undo_round(org, round_number=2)
            await asyncio.sleep(0.2)
        _phase["name"] = "idle"
        for _ in range(args.repeats * 10):
            await service.report_result(reporter, "win")
            await asyncio.sleep(0.005)
    finally:
        pool.close()
        await db.close()


def _ms(values: list[float], q: float | None = None) -> str:
    if not values:
        return "-"
    if q is None:
        return f"{max(values) * 1000:.1f}"
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:.1f}"


def _print() -> None:
    groups: dict[str, list[Tx]] = {}
    for tx in _log:
        if not tx.name.startswith("setup"):
            groups.setdefault(tx.name, []).append(tx)
    print(f"{'transaction':58} {'n':>4} {'held p50':>8} {'p95':>6} {'max':>6} "
          f"{'commit p50':>10} {'max':>6} {'waited p95':>10} {'stmts':>5} {'in stmts':>8} "
          f"{'between':>7}")
    for name, txs in sorted(groups.items()):
        held = [t.held for t in txs]
        in_statements = [sum(s for _, s in t.statements) for t in txs]
        between = [h - s - t.commit for h, s, t in zip(held, in_statements, txs, strict=True)]
        print(f"{name[:58]:58} {len(txs):4d} {_ms(held, 0.5):>8} {_ms(held, 0.95):>6} "
              f"{_ms(held):>6} {_ms([t.commit for t in txs], 0.5):>10} "
              f"{_ms([t.commit for t in txs]):>6} {_ms([t.waited for t in txs], 0.95):>10} "
              f"{statistics.median(len(t.statements) for t in txs):5.0f} "
              f"{_ms(in_statements, 0.5):>8} "
              f"{_ms(between, 0.5):>7}")
    for what, ending in (("the store", "window pairing_runs._store_pairing"),
                         ("B's report in the windows", "window results.report_result")):
        txs = [t for t in _log if t.name == ending]
        if not txs:
            continue
        print(f"\n{what}: its statements (median ms, per transaction):")
        by_sql: dict[str, list[float]] = {}
        for t in txs:
            for sql, took in t.statements:
                by_sql.setdefault(sql, []).append(took)
        for sql, took in sorted(by_sql.items(), key=lambda kv: -statistics.median(kv[1])):
            print(f"    {statistics.median(took) * 1000:7.2f} x{len(took) / len(txs):<4.1f} {sql}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=6, help="pairing windows")
    parser.add_argument("--database", metavar="URL",
                        help="postgresql://... (default: a fresh SQLite file)")
    parser.add_argument("--postgresql", action="store_true",
                        help="on a throwaway PostgreSQL cluster (make postgresql)")
    args = parser.parse_args()
    _instrument()
    began = time.process_time()
    from benchmarks.bot_latency import _databases

    with tempfile.TemporaryDirectory(prefix="swissbot-holds-") as tmp, \
            _databases(args.postgresql) as new_database:
        target = args.database or new_database() or str(Path(tmp) / "holds.sqlite3")
        asyncio.run(_measure(args, target))
    _print()
    print(f"\n(this process: {time.process_time() - began:.1f} s CPU)")


if __name__ == "__main__":
    main()
