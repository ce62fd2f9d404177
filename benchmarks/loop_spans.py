"""What held another guild's ``/report`` while a big round was paired: a diagnostic, not a
figure table.

Runs one ``benchmarks/bot_latency.py`` measurement (pairing in a worker process, the fake
Discord in its own process unless ``--sandbox-in-process``) and, from the first click on
``/round next`` on, records in the bot's process:

* every event-loop callback (start and length), and for those over ``--list`` ms what it
  was: a task's name, its coroutine and where it stopped (``TaskStepMethWrapper`` hides the
  task; ``gc.get_referents`` finds it), the event loop thread's own CPU time in it and the
  process's (the difference is other threads: aiosqlite's, the ``to_thread`` pool), and,
  sampled from another thread while it ran over ``--slow``/2 ms, the loop thread's stack and
  which other threads were busy;
* every database transaction (its wait for the connection and how long it was held, where it
  was opened; "(read)" marks the reading connections, which make no writer wait).

Then, for every B report over ``--report`` ms sent inside a pairing window: how much of its
time the event loop was busy, the callbacks over ``--list`` ms and the transactions that
overlapped it. Callbacks over ``--slow`` ms are listed once more with their stacks.

    nice python benchmarks/loop_spans.py --players 3000 [--repeats 3] [--sandbox-in-process]

How docs/performance.md ("Where the time went", "What held B's slow reports") found what to
move off the loop (issue 13).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import sys
import tempfile
import threading
import time
import traceback
from array import array
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [str(_ROOT)] + [p for p in sys.path
                              if Path(p or ".").resolve() != _ROOT / "benchmarks"]

from asyncio import events  # noqa: E402

# Functions a thread sits in when it is idle (waiting for work, a lock, a socket).
_IDLE = {"wait", "_wait_for_tstate_lock", "get", "select", "poll", "recv", "recv_bytes",
         "_recv", "_recv_bytes", "accept", "sleep", "_worker", "run", "readinto", "acquire"}
# Where an idle thread's top frame stops when it blocks inside C (aiosqlite's
# ``tx.get()`` on a SimpleQueue): (function, line) pairs found at run time.
_BLOCKED_IN_C = {"_connection_worker_thread"}


@dataclass
class Callback:
    start: float
    wall: float
    loop_cpu: float
    process_cpu: float
    what: str
    stack: tuple[str, ...] | None = None
    busy_threads: dict[str, str] = field(default_factory=dict)


@dataclass
class Transaction:
    start: float
    waited: float
    held: float
    name: str
    commit: float = 0.0  # of ``held``: the COMMIT (or ROLLBACK) itself


_state: dict[str, Any] = {"on": False, "start": None, "stack": None, "threads": None}
_starts, _walls = array("d"), array("d")  # every callback while on
_listed: list[Callback] = []
_transactions: list[Transaction] = []
# the cyclic collector's passes in this process: (start, wall, generation, objects collected)
_collections: list[tuple[float, float, int, int]] = []


def _where(frame: Any, depth: int = 9) -> tuple[str, ...]:
    return tuple(f"{Path(f.filename).name}:{f.lineno}:{f.name}"
                 for f in traceback.extract_stack(frame))[-depth:]


def _line(frame: Any) -> str:
    import linecache

    return linecache.getline(frame.f_code.co_filename, frame.f_lineno)


def _describe(callback: Any) -> str:
    """A task's name, coroutine and where it is suspended now; else the callback's repr."""
    task = None
    if type(callback).__name__ == "TaskStepMethWrapper":
        task = next((r for r in gc.get_referents(callback) if isinstance(r, asyncio.Task)),
                    None)
    elif isinstance(getattr(callback, "__self__", None), asyncio.Task):
        task = callback.__self__
    if task is None:
        return repr(callback)[:140]
    coro = task.get_coro()
    chain = []
    while coro is not None and len(chain) < 8:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        name = getattr(coro, "__qualname__", type(coro).__name__)
        chain.append(f"{name}:{frame.f_lineno}" if frame is not None else name)
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return f"task {task.get_name()!r} " + (" > ".join(chain) if chain else "(done)")


def _instrument(slow: float, listed: float) -> None:
    main = threading.get_ident()
    run = events.Handle._run

    def timed(self: Any) -> None:
        if not _state["on"]:
            run(self)
            return
        _state["stack"] = _state["threads"] = None
        cpu, process = time.thread_time(), time.process_time()
        _state["start"] = began = time.monotonic()
        try:
            run(self)
        finally:
            wall = time.monotonic() - began
            _state["start"] = None
            _starts.append(began)
            _walls.append(wall)
            if wall > listed:
                _listed.append(Callback(began, wall, time.thread_time() - cpu,
                                        time.process_time() - process,
                                        _describe(self._callback), _state["stack"],
                                        _state["threads"] or {}))

    def sample() -> None:  # the last stacks seen while a long callback runs
        names = {}
        while True:
            time.sleep(0.004)
            began = _state["start"]
            if began is None or time.monotonic() - began < slow / 2:
                continue
            frames = sys._current_frames()
            frame = frames.get(main)
            if frame is not None:
                _state["stack"] = _where(frame)
            busy = {}
            for ident, other in frames.items():
                if ident in (main, threading.get_ident()):
                    continue
                if other.f_code.co_name in _IDLE:
                    continue
                if other.f_code.co_name in _BLOCKED_IN_C and "tx.get()" in _line(other):
                    continue
                if ident not in names:
                    names = {t.ident: t.name for t in threading.enumerate()}
                busy[names.get(ident, str(ident))] = " <- ".join(reversed(_where(other, 4)))
            _state["threads"] = busy

    events.Handle._run = timed  # type: ignore[method-assign]
    sys.setswitchinterval(0.001)  # let the sampler in while the loop computes
    threading.Thread(target=sample, daemon=True, name="loop-sampler").start()

    import storage.db as db

    opened = db.Database.transaction

    @contextlib.asynccontextmanager
    async def transaction(self: Any, *, readonly: bool = False) -> AsyncIterator[Any]:
        if not _state["on"]:
            async with opened(self, readonly=readonly) as conn:
                yield conn
            return
        # (inspect.stack() resolves every file's path: tens of ms in the loop, it skewed
        # the first version of these figures)
        caller = sys._getframe(2)
        name = (f"{Path(caller.f_code.co_filename).name}:{caller.f_lineno}:"
                f"{caller.f_code.co_name}" + (" (read)" if readonly else ""))
        asked = time.monotonic()
        began = body_end = asked
        try:
            async with opened(self, readonly=readonly) as conn:
                began = time.monotonic()
                try:
                    yield conn
                finally:
                    body_end = time.monotonic()
        finally:  # held: to the end of its COMMIT (a WAL checkpoint runs in one)
            end = time.monotonic()
            _transactions.append(Transaction(began, began - asked, end - began, name,
                                             end - body_end))

    db.Database.transaction = transaction  # type: ignore[method-assign,assignment]

    collecting: dict[str, float] = {}

    def collector(phase: str, info: dict[str, int]) -> None:  # gc.callbacks: its passes
        if phase == "start":
            collecting["start"] = time.monotonic()
        elif _state["on"] and "start" in collecting:
            began = collecting.pop("start")
            _collections.append((began, time.monotonic() - began, info["generation"],
                                 info["collected"]))

    gc.callbacks.append(collector)


def _overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return max(0.0, min(a1, b1) - max(a0, b0))


def _report(rows: Any, args: argparse.Namespace) -> None:
    from benchmarks import bot_latency

    print(bot_latency.HEADER)
    bot_latency.print_row(rows)
    inside = [(sent, took) for sent, took in rows.sent_and_took
              if any(a <= sent <= b for a, b in rows.windows)]
    slow = sorted((r for r in inside if r[1] > args.report), key=lambda r: -r[1])
    print(f"\nB reports in the windows: {len(inside)}, over {args.report:g} ms: {len(slow)}")
    for sent, took in slow:
        end = sent + took / 1000
        busy = sum(_overlap(sent, end, s, s + w) for s, w in zip(_starts, _walls, strict=True))
        print(f"\n{took:7.1f} ms report at +{sent - rows.windows[0][0]:.3f} s: event loop busy "
              f"{busy * 1000:.1f} ms of it")
        for c in _listed:
            if _overlap(sent, end, c.start, c.start + c.wall) > 0:
                print(f"    callback {c.wall * 1000:6.1f} ms (loop CPU {c.loop_cpu * 1000:5.1f}, "
                      f"process CPU {c.process_cpu * 1000:5.1f}) at "
                      f"+{(c.start - sent) * 1000:6.1f}: {c.what}")
        for began, wall, generation in rows.discord_collections:
            if _overlap(sent, end, began, began + wall) > 0 and wall > args.list / 1000:
                print(f"    the fake Discord's collector pass {wall * 1000:6.1f} ms (generation "
                      f"{generation}) at +{(began - sent) * 1000:6.1f}")
        for began, wall, generation, collected in _collections:
            if _overlap(sent, end, began, began + wall) > 0 and wall > args.list / 1000:
                print(f"    collector pass {wall * 1000:6.1f} ms (generation {generation}, "
                      f"{collected} freed) at +{(began - sent) * 1000:6.1f}")
        for t in _transactions:
            if _overlap(sent, end, t.start - t.waited, t.start + t.held) > 0 and (
                    t.held + t.waited > args.list / 1000):
                print(f"    transaction held {t.held * 1000:6.1f} ms (commit "
                      f"{t.commit * 1000:5.1f}, waited {t.waited * 1000:5.1f}) at "
                      f"+{(t.start - sent) * 1000:6.1f}: {t.name}")
    print(f"\nevent-loop callbacks over {args.slow:g} ms (wall, loop thread CPU, process CPU):")
    for c in sorted(_listed, key=lambda c: -c.wall):
        if c.wall * 1000 <= args.slow:
            continue
        print(f"{c.wall * 1000:8.1f} ms {c.loop_cpu * 1000:6.1f} {c.process_cpu * 1000:6.1f}"
              f"  {c.what}")
        if c.stack:
            print("           loop: " + " <- ".join(reversed(c.stack)))
        for thread, where in c.busy_threads.items():
            print(f"           busy {thread}: {where}")
    print("\nthe cyclic collector's passes (count, longest ms, total ms) by generation:")
    for generation in (0, 1, 2):
        walls = [w for _b, w, g, _c in _collections if g == generation]
        print(f"    {generation}: {len(walls):5d} {max(walls, default=0) * 1000:7.1f} "
              f"{sum(walls) * 1000:8.1f}")
    if not args.sandbox_in_process:
        print("the fake Discord's process, the same:")
        for generation in (0, 1, 2):
            walls = [w for _b, w, g in rows.discord_collections if g == generation]
            print(f"    {generation}: {len(walls):5d} {max(walls, default=0) * 1000:7.1f} "
                  f"{sum(walls) * 1000:8.1f}")
    print(f"\ntransactions held over {args.slow_tx:g} ms:")
    for t in sorted(_transactions, key=lambda t: -t.held):
        if t.held * 1000 > args.slow_tx:
            print(f"{t.held * 1000:8.1f} ms (commit {t.commit * 1000:5.1f}, waited "
                  f"{t.waited * 1000:5.1f})  {t.name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3000)
    parser.add_argument("--system", default="dutch")
    parser.add_argument("--repeats", type=int, default=1, help="pairing windows")
    parser.add_argument("--slow", type=float, default=20, help="callbacks shown with stacks, ms")
    parser.add_argument("--list", type=float, default=5,
                        help="callbacks and transactions listed under a slow report, ms")
    parser.add_argument("--report", type=float, default=50, help="a slow B report, ms")
    parser.add_argument("--slow-tx", type=float, default=20, help="transaction threshold, ms")
    parser.add_argument("--sandbox-in-process", action="store_true",
                        help="the fake Discord in the bot's process and event loop")
    args = parser.parse_args()
    _instrument(args.slow / 1000, args.list / 1000)

    from benchmarks import bot_latency

    def clicked() -> None:
        _state["on"] = True  # measure from the first click on

    bot_latency.MIN_REPORTS = 0  # the windows asked for are enough here
    with tempfile.TemporaryDirectory(prefix="swissbot-spans-") as tmp:
        row = asyncio.run(bot_latency.measure(
            args.players, False, Path(tmp), system=args.system, repeats=args.repeats,
            sandbox_process=not args.sandbox_in_process, on_click=clicked))
    _state["on"] = False
    _report(row, args)


if __name__ == "__main__":
    main()
