"""What blocks the event loop while a big round is paired: a diagnostic, not a figure table.

Runs one ``benchmarks/bot_latency.py`` measurement (pairing in a worker process) and, from
the click on ``/round next`` to the last post, records:

* every event-loop callback that ran longer than ``--slow`` ms (a wrapper around
  ``asyncio.Handle._run``), with the event loop thread's stack sampled while it ran;
* every database transaction held longer than ``--slow-tx`` ms (SQLite has one writing
  connection: another guild's command waits for it; "(read)" marks one on the reading
  connection, which makes no writer wait), with where it was opened.

    nice python benchmarks/loop_spans.py --players 3000

How docs/performance.md ("Where the time went") found what to move off the loop (issue 13).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import inspect
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [str(_ROOT)] + [p for p in sys.path
                              if Path(p or ".").resolve() != _ROOT / "benchmarks"]

from asyncio import events  # noqa: E402

_state: dict[str, Any] = {"on": False, "start": None, "stack": None}
_slow: list[tuple[float, str, tuple[str, ...] | None]] = []
_transactions: list[tuple[float, str]] = []


def _where(frame: Any) -> tuple[str, ...]:
    return tuple(f"{Path(f.filename).name}:{f.lineno}:{f.name}"
                 for f in traceback.extract_stack(frame))[-9:]


def _instrument(slow: float, slow_tx: float) -> None:
    main = threading.get_ident()
    run = events.Handle._run

    def timed(self: Any) -> None:
        _state["start"], _state["stack"] = time.perf_counter(), None
        try:
            run(self)
        finally:
            spent = time.perf_counter() - _state["start"]
            _state["start"] = None
            if _state["on"] and spent > slow:
                _slow.append((spent, repr(self._callback)[:120], _state["stack"]))

    def sample() -> None:  # the last stack seen while a long callback runs
        while True:
            time.sleep(0.005)
            began = _state["start"]
            if began is not None and _state["on"] and time.perf_counter() - began > slow / 2:
                frame = sys._current_frames().get(main)
                if frame is not None:
                    _state["stack"] = _where(frame)

    events.Handle._run = timed  # type: ignore[method-assign]
    sys.setswitchinterval(0.001)  # let the sampler in while the loop computes
    threading.Thread(target=sample, daemon=True).start()

    import storage.db as db

    opened = db.Database.transaction

    @contextlib.asynccontextmanager
    async def transaction(self: Any, *, readonly: bool = False) -> AsyncIterator[Any]:
        caller = inspect.stack()[2]
        name = (f"{Path(caller.filename).name}:{caller.lineno}:{caller.function}"
                + (" (read)" if readonly else ""))
        async with opened(self, readonly=readonly) as conn:
            began = time.perf_counter()
            try:
                yield conn
            finally:
                spent = time.perf_counter() - began
                if _state["on"] and spent > slow_tx:
                    _transactions.append((spent, name))

    db.Database.transaction = transaction  # type: ignore[method-assign,assignment]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3000)
    parser.add_argument("--system", default="dutch")
    parser.add_argument("--slow", type=float, default=50, help="callback threshold, ms")
    parser.add_argument("--slow-tx", type=float, default=30, help="transaction threshold, ms")
    args = parser.parse_args()
    _instrument(args.slow / 1000, args.slow_tx / 1000)

    from benchmarks import bot_latency
    from sandbox.server import FakeDiscord

    send = FakeDiscord.send_slash_command

    async def clicked(self: Any, *a: Any, **k: Any) -> Any:
        if len(a) > 3 and a[3] == "round next":
            _state["on"] = True  # measure from the click on
        return await send(self, *a, **k)

    FakeDiscord.send_slash_command = clicked  # type: ignore[method-assign]
    bot_latency.MIN_REPORTS = 0  # one pairing window is enough here
    with tempfile.TemporaryDirectory(prefix="swissbot-spans-") as tmp:
        row = asyncio.run(bot_latency.measure(args.players, False, Path(tmp),
                                              system=args.system, repeats=1))
    _state["on"] = False
    print(bot_latency.HEADER)
    bot_latency.print_row(row)
    print(f"\nevent-loop callbacks over {args.slow:g} ms:")
    for spent, callback, stack in sorted(_slow, reverse=True):
        print(f"{spent * 1000:8.1f} ms  {callback}")
        if stack:
            print("           " + " <- ".join(reversed(stack)))
    print(f"\ntransactions held over {args.slow_tx:g} ms:")
    for spent, name in sorted(_transactions, reverse=True):
        print(f"{spent * 1000:8.1f} ms  {name}")


if __name__ == "__main__":
    main()
