"""Milliseconds per service operation on a real SQLite file (a figure, not a test).

A tournament of ``--players`` members is run for ``--rounds`` rounds through the service, as
the bot would: joins, start, each game reported by white and confirmed by black, then the next
round. Prints the mean and worst time of each operation kind.

    python benchmarks/service.py                        # 100 players, 5 rounds
    python benchmarks/service.py --players 400 --rounds 7

``--database URL`` prints the table of issue 17 instead, the same for either backend (report,
confirm, round start for 100 and 1,000 players, 100 guilds at once; benchmarks/backends.py):

    python benchmarks/service.py --database /tmp/bench.sqlite3
    python benchmarks/service.py --database postgresql://localhost/swissbot_bench

``--latency`` measures the bot while it pairs instead (issue 13, benchmarks/bot_latency.py):
through the sandbox with the real discord.py client, another guild's ``/report`` latency and
the gateway heartbeats while a big round is paired, and ``/round next`` from click to all
pairings posted, with the pairing in a worker process and inline (the old behaviour). The
fake Discord runs in a process of its own (as Discord is another machine);
``--sandbox-in-process`` puts it in the bot's event loop (the earlier tables), ``--both-modes``
measures each row both ways:

    python benchmarks/service.py --latency --sizes 1000,3000 [--repeats 8] [--worker-only]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable
from pathlib import Path
from typing import Any, TypeVar

# Run as a script, this folder comes first on sys.path and this file would shadow the
# ``service`` package: put the repository root there instead.
_ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [str(_ROOT)] + [p for p in sys.path
                              if Path(p or ".").resolve() != _ROOT / "benchmarks"]

from service import Actor, TournamentService  # noqa: E402
from storage.db import connect  # noqa: E402

T = TypeVar("T")
GUILD = 1


def member(uid: int) -> Actor:
    return Actor(uid, GUILD, f"Member {uid}", False)


async def run(players: int, rounds: int, path: Path) -> dict[str, list[float]]:
    timings: dict[str, list[float]] = defaultdict(list)

    async def timed(kind: str, call: Awaitable[T]) -> T:
        start = time.perf_counter()
        result = await call
        timings[kind].append((time.perf_counter() - start) * 1000)
        return result

    db = await connect(path)
    service = TournamentService(db)
    org = Actor(0, GUILD, "Org", True)
    await timed("create_tournament", service.create_tournament(org, "Bench", rounds, seed=1))
    for uid in range(1, players + 1):
        await timed("join", service.join(member(uid), rating=1000 + (uid * 7919) % 1800))
    view = await timed("start_tournament (pairs round 1)", service.start_tournament(org))
    while True:
        for index, game in enumerate(view.games):
            choice = ("win", "draw", "loss")[index % 3]
            await timed("report_result", service.report_result(member(game.white.user_id),
                                                               choice))
            await timed("confirm_result", service.confirm_result(member(game.black.user_id),
                                                                 game.id))
        await timed("standings", service.standings(GUILD))
        notes = await timed("pending_announcements", service.pending_announcements(500))
        for note in notes:
            await timed("mark_delivered", service.mark_delivered(note.id))
        if view.number == rounds:
            break
        # what /round next asks before it acts (a read transaction): beside the pairing
        await timed("preview_action next", service.preview_action(org, "next"))
        await timed("preview_action drop", service.preview_action(org, "drop", player=1))
        view = await timed("pair_next_round", service.pair_next_round(org))
    for fmt in ("trf", "csv", "json"):  # every file of /tournament export what:all
        await timed(f"export_files {fmt} all", service.export_files(GUILD, fmt, what="all"))
    await db.close()
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--database", metavar="URL",
                        help="the backend table (issue 17): a SQLite path or sqlite:///path, "
                        "or postgresql://...")
    parser.add_argument("--big", type=int, default=1000,
                        help="--database: players of the big event (default 1000)")
    parser.add_argument("--guilds", type=int, default=100,
                        help="--database: guilds playing at once (default 100)")
    parser.add_argument("--latency", action="store_true",
                        help="the bot while it pairs (see the module docstring)")
    parser.add_argument("--sizes", default="1000,3000",
                        help="--latency: players of the paired event, comma-separated")
    parser.add_argument("--system", default="dutch", help="--latency: the pairing system")
    parser.add_argument("--repeats", type=int, default=8,
                        help="--latency: pairing windows per row (B's sample spans them all)")
    parser.add_argument("--worker-only", action="store_true",
                        help="--latency: skip the inline (old) rows")
    parser.add_argument("--sandbox-in-process", action="store_true",
                        help="--latency: the fake Discord in the bot's process and event loop")
    parser.add_argument("--both-modes", action="store_true",
                        help="--latency: each row with the fake Discord apart and in-process")
    parser.add_argument("--postgresql", action="store_true",
                        help="--latency: on a throwaway PostgreSQL cluster (make postgresql)")
    args = parser.parse_args()
    if args.database is not None:
        from benchmarks.backends import run_backends

        run_backends(args.database or None, big=args.big, guilds=args.guilds)
        return
    if args.latency:
        from benchmarks.bot_latency import HEADER, run_latency

        print(HEADER)
        modes = ((True, False) if args.both_modes
                 else (False,) if args.sandbox_in_process else (True,))
        run_latency([int(s) for s in args.sizes.split(",")], args.system,
                    repeats=args.repeats, inline_too=not args.worker_only, modes=modes,
                    postgresql=args.postgresql)
        return
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        timings: Any = asyncio.run(run(args.players, args.rounds, Path(folder) / "b.sqlite3"))
        total = time.perf_counter() - start
    print(f"{args.players} players, {args.rounds} rounds, total {total:.1f} s")
    print(f"{'operation':36} {'calls':>6} {'mean ms':>9} {'max ms':>9}")
    for kind, values in timings.items():
        print(f"{kind:36} {len(values):6d} {statistics.fmean(values):9.2f} {max(values):9.2f}")


if __name__ == "__main__":
    main()
