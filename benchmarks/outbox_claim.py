"""The outbox claim with thousands of rows queued: what keeping each channel's order costs.

The claim is one statement; a row is due only when every earlier row of its channel is
delivered or given up (``storage.journal``). Each figure is printed beside its reference: the
same claim without the channel-order test (what a claim costs at all).

Scenarios (milliseconds per claim of 20 rows, median of the runs):

* ``due``: N rows due in 50 channels (a burst: a big event's boards in game threads);
* ``held``: one channel's first row failed and waits for its retry, N rows of that channel
  wait behind it, and 20 rows of another channel are due (the claim must skip the held ones);
* ``given-up``: N given-up rows in a channel (kept forever) and 20 rows due after them.

    python benchmarks/outbox_claim.py                    # SQLite, in a temporary folder
    python benchmarks/outbox_claim.py --rows 20000
    python benchmarks/outbox_claim.py --database postgresql://user@localhost/swissbot_bench
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

# Run as a script, this folder comes first on sys.path and would shadow the ``service``
# package: put the repository root there instead.
_ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [str(_ROOT)] + [p for p in sys.path
                              if Path(p or ".").resolve() != _ROOT / "benchmarks"]

from service.outbox import GIVEN_UP  # noqa: E402
from storage import journal  # noqa: E402
from storage.db import connect  # noqa: E402
from storage.shards import ALL  # noqa: E402
from storage.timefmt import to_text  # noqa: E402

NOW = datetime(2030, 1, 1, tzinfo=UTC)
GUILD = 77
RUNS = 15


async def _fill(db: Any, rows: list[tuple[int, datetime]]) -> None:
    """(channel, next attempt) rows, in one transaction."""
    async with db.transaction() as conn:
        await conn.executemany(
            "INSERT INTO outbox (guild_id, channel_id, tournament_id, kind, payload, created_at,"
            " next_attempt_at) VALUES (?, ?, NULL, 'pairings', '{}', ?, ?)",
            [(GUILD, channel, to_text(NOW), to_text(due)) for channel, due in rows])


async def _claim_ms(db: Any, *, ordered: bool) -> float:
    """One claim of 20 rows, rolled back (every run sees the same rows); milliseconds."""
    async with db.transaction() as conn:
        sql, args = journal._claim_statement(conn, "bench", NOW, NOW + timedelta(seconds=10),
                                             20, ALL)
        if not ordered:  # the reference: the same claim without the channel-order test
            sql = sql.replace(journal._IN_CHANNEL_ORDER, "")
            args = args[:-4] + args[-1:]
        started = time.perf_counter()
        async with conn.execute(sql, args) as cur:
            await cur.fetchall()
        elapsed = (time.perf_counter() - started) * 1000
        raise _Rollback(elapsed)


class _Rollback(Exception):
    def __init__(self, elapsed: float) -> None:
        super().__init__()
        self.elapsed = elapsed


async def _median(db: Any, *, ordered: bool) -> float:
    times = []
    for _ in range(RUNS):
        try:
            await _claim_ms(db, ordered=ordered)
        except _Rollback as done:
            times.append(done.elapsed)
    return statistics.median(times)


async def scenario(target: str, name: str, rows: int) -> tuple[float, float]:
    db = await connect(target)
    try:
        async with db.transaction() as conn:
            await conn.execute("DELETE FROM outbox")
        later = NOW + timedelta(minutes=5)
        if name == "due":
            await _fill(db, [(100 + i % 50, NOW) for i in range(rows)])
        elif name == "held":
            await _fill(db, [(100, later)] + [(100, NOW)] * rows + [(200, NOW)] * 20)
        else:
            await _fill(db, [(100, GIVEN_UP)] * rows + [(100, NOW)] * 20)
        return await _median(db, ordered=True), await _median(db, ordered=False)
    finally:
        await db.close()


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", help="a SQLite path or a postgresql:// URL")
    parser.add_argument("--rows", type=int, default=5000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        target = args.database or str(Path(folder) / "claim.sqlite3")
        print(f"{args.rows} rows, claim of 20, median of {RUNS} (ms); reference: the same "
              "claim without the channel-order test")
        for name in ("due", "held", "given-up"):
            ordered, plain = await scenario(target, name, args.rows)
            print(f"  {name:9s} {ordered:8.2f} ms   (reference {plain:8.2f} ms)")


if __name__ == "__main__":
    asyncio.run(main())
