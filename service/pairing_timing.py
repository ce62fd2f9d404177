"""Who is told how long each pairing run took: the bot's metrics subscribe here, so the
service knows nothing of how they are exported."""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

#: ``observer(where, outcome, seconds)`` after each run: ``where`` is "inline" (in the event
#: loop's process) or "worker" (a worker process); ``outcome`` "ok" or "failed" (the engine
#: found no pairing, the worker died or overran, or the run was cancelled).
RunObserver = Callable[[str, str, float], None]
run_observers: list[RunObserver] = []

R = TypeVar("R")


def observed_run(
    method: Callable[..., Awaitable[R]],
) -> Callable[..., Awaitable[R]]:
    """Time a ``PairingPool`` run method whose first argument is the reserved worker slot
    (None: the run is inline)."""

    @functools.wraps(method)
    async def run(self: Any, slot: Any, *args: Any, **kwargs: Any) -> R:
        where = "inline" if slot is None else "worker"
        started = time.perf_counter()
        outcome = "failed"
        try:
            result = await method(self, slot, *args, **kwargs)
            outcome = "ok"
            return result
        finally:
            seconds = time.perf_counter() - started
            for observer in run_observers:
                observer(where, outcome, seconds)

    return run
