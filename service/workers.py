"""Worker processes that never outlive the bot.

The pairing workers (``service.pairing_pool``), the render worker (``bot.render.offload``) and
the advisor's worker (``service.advice``) are ``ProcessPoolExecutor`` processes. When the bot
is killed outright (``kill -9``, the out-of-memory killer, a crash) nothing tells them: a
worker blocked on its task queue, or computing a 10,000-player round, would run on for good,
holding its memory, and every restart would add more. Each worker therefore runs
:func:`worker_initializer`, which makes it die with its parent in two ways:

* on Linux, ``prctl(PR_SET_PDEATHSIG, SIGKILL)``: the kernel kills the worker the moment its
  parent ends. Under ``forkserver`` the parent is the fork server, which itself exits as soon
  as the bot's end of its pipe closes, so the worker follows the bot within milliseconds;
* everywhere, a daemon thread that checks every :data:`WATCH_INTERVAL` seconds whether the
  worker was re-parented (``os.getppid()`` changed: the parent is gone) and then ends the
  process. It needs no signal support and catches what the first way misses (a system without
  ``prctl``, a parent that died before the initializer ran).

multiprocessing's own helpers end by themselves once the workers are gone: the fork server
exits when the bot's end of its pipe closes, the resource tracker when the last process that
holds its pipe (the bot, the fork server, the workers) has ended.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time

#: Seconds between two checks of the watchdog thread (a dead parent is noticed within this).
WATCH_INTERVAL = 0.5
#: How much lower the worker processes' CPU priority is than the bot's (``nice`` steps; 19 at
#: most): a pairing is seconds of CPU, the event loop's turns are milliseconds that every guild
#: waits for (docs/performance.md, "What held B's slow reports").
WORKER_NICE = 10

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def worker_initializer(nice_step: int = WORKER_NICE) -> None:
    """The initializer of every worker process: die with the parent, run at a lower priority."""
    die_with_parent()
    lower_priority(nice_step)


def die_with_parent() -> None:
    """Make this process end when its parent does (see the module docstring)."""
    parent = os.getppid()
    _parent_death_signal()
    if os.getppid() != parent:
        os._exit(1)  # the parent ended before the signal was armed: nobody waits for us
    watchdog = threading.Thread(target=_watch_parent, args=(parent,),
                                name="swissbot-parent-watchdog", daemon=True)
    watchdog.start()


def lower_priority(step: int = WORKER_NICE) -> None:
    """Lower this process's CPU priority by ``step``. Where the system refuses (no
    ``os.nice``), the worker runs at the bot's priority."""
    nice = getattr(os, "nice", None)
    if nice is not None and step > 0:
        with contextlib.suppress(OSError):
            nice(step)


def _parent_death_signal() -> bool:
    """Ask the Linux kernel for SIGKILL when the parent ends. False where that is not
    available (other systems: the watchdog thread alone does it)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int, interval: float = WATCH_INTERVAL) -> None:
    """End the process once it has been re-parented (its parent is gone). ``os._exit``, not
    ``sys.exit``: the main thread may be deep in a pairing and must not finish it."""
    while os.getppid() == parent:
        time.sleep(interval)
    os._exit(1)
