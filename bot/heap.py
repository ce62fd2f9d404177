"""The bot's start-up heap kept out of the cyclic garbage collector's full passes.

Python's cyclic collector runs a *full* pass (generation 2) every time the objects that
survived into the oldest generation since the last one exceed a quarter of it. A full pass
walks every tracked container of the process: in the bot that is ~90,000 objects, almost all
of them made at start-up and alive for good (modules, classes, functions, discord.py's
command tree, numpy), and the walk took **50-70 ms**, with the GIL, so the event loop stood
still meanwhile. A 3,000-player pairing window allocates enough (the snapshot built in a
thread, the round's view in turns, the delivery of its posts) to trigger one about every
other round: it was the longest pause of every guild's commands
(``benchmarks/loop_spans.py`` lists the collector's passes; docs/performance.md, "The bot
while it pairs").

:func:`settle_heap` collects once, then moves every object alive into the *permanent*
generation (``gc.freeze``), which no pass walks: later full passes only walk what was made
after it (a full pass of the frozen heap measured 0.002 ms instead of 50 ms). Reference
counting still frees frozen objects as usual; only a reference cycle among objects that
were alive at start-up and die later is never found (start-up objects live for the process;
the one collection just before the freeze frees the cycles that are already garbage).
Called once per process, when the bot is first ready (its command tree, cogs and first
guilds are built by then): a reconnection's ``on_ready`` does not collect again.
"""

from __future__ import annotations

import gc
import threading

_lock = threading.Lock()
_settled = False


def settle_heap() -> int:
    """Collect, then freeze every object alive (module docstring); the first call of the
    process only. Returns how many objects it froze (0 for a later call)."""
    global _settled
    with _lock:
        if _settled:
            return 0
        _settled = True
        gc.collect()
        gc.freeze()
        return gc.get_freeze_count()
