"""Python's cyclic garbage collector paused while a big round is paired.

Pairing 10,000 players allocates a few hundred thousand small objects (player states,
entrants, the result's games and explanations) that all live until the result is returned:
the collections that those allocations trigger find nothing to free, yet each walks the young
objects and, now and then, the whole heap (the tournament's history). At round 1 with 10,000
players they were 6-7 % of the CPU time of the round (perf). Reference counting still frees
everything as usual; only the cycle detector waits until the round is done.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_holders = 0
_restore = False  # whether the collector was enabled when the first holder paused it


@contextmanager
def collector_paused() -> Iterator[None]:
    """Disable the cyclic collector inside the block; re-enable it when the last block that
    paused it ends (blocks may overlap across threads), and only if it was enabled before."""
    global _holders, _restore
    with _lock:
        if _holders == 0:
            _restore = gc.isenabled()
            gc.disable()
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _holders == 0 and _restore:
                gc.enable()
