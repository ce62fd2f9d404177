"""Worker processes that never outlive the bot.

The pairing workers (``service.pairing_pool``), the render worker (``bot.render.offload``) and
the advisor's worker (``service.advice``) are ``ProcessPoolExecutor`` processes. When the bot
is killed outright (``kill -9``, the out-of-memory killer, a crash) nothing tells them: a
worker blocked on its task queue, or computing a 10,000-player round, would run on for good,
holding its memory, and every restart would add more. Their own parent is no guide: under
``forkserver`` it is the fork server, which exits only once no process holds its "alive" pipe,
and every worker holds it. Each worker therefore runs :func:`worker_initializer`, which ties
it to the bot itself (the process that asked for it, ``multiprocessing.parent_process()``):

* a daemon thread waits for the bot to end and then ends the worker at once: on Linux on a
  pidfd of the bot (readable the moment it exits; no polling, no pid reuse), elsewhere by
  checking every :data:`WATCH_INTERVAL` seconds;
* on Linux, ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` as well: the kernel kills the worker when
  its parent ends (the bot itself under ``spawn``), even if its interpreter is stuck.

Once the workers are gone, multiprocessing's helpers end by themselves: the fork server when
the last holder of its pipe has ended, the resource tracker likewise.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import multiprocessing
import os
import select
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

#: Seconds between two checks of the watchdog where no pidfd exists (a dead bot is noticed
#: within this).
WATCH_INTERVAL = 0.5
#: How much lower the worker processes' CPU priority is than the bot's (``nice`` steps; 19 at
#: most): a pairing is seconds of CPU, the event loop's turns are milliseconds that every guild
#: waits for (docs/performance.md, "What held B's slow reports").
WORKER_NICE = 10

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def worker_context(start_method: str | None = None) -> Any:
    """The multiprocessing context of the worker processes: ``forkserver`` on Linux (a clean
    interpreter, none of the bot's sockets or threads), ``spawn`` elsewhere. The fork server
    imports this module (and so the service) once: a worker forked from it then runs
    :func:`worker_initializer`, and is tied to the bot, within milliseconds of its start,
    rather than after the seconds of imports that would otherwise come first (a bot killed
    meanwhile would leave it running until then)."""
    method = start_method or ("forkserver" if sys.platform.startswith("linux") else "spawn")
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload(["__main__", __name__])
    return context


def worker_initializer(nice_step: int = WORKER_NICE) -> None:
    """The initializer of every worker process: die with the bot, run at a lower priority."""
    die_with_bot()
    lower_priority(nice_step)


def die_with_bot() -> None:
    """Make this worker end when the bot that started it does (see the module docstring)."""
    bot = multiprocessing.parent_process()
    if bot is None or bot.pid is None:
        return  # not a worker: nothing to follow
    _parent_death_signal()
    watchdog = threading.Thread(target=_follow, args=(bot.pid, os.getppid()),
                                name="swissbot-bot-watchdog", daemon=True)
    watchdog.start()


def kill_executor(executor: ProcessPoolExecutor | None, join_seconds: float = 5.0) -> None:
    """Stop ``executor``'s worker processes now and let go of it. They are killed: the
    executor offers no way to cancel a running call, and a graceful shutdown would hold the
    bot's exit until each worker (running at a lower priority, on a busy machine) got the CPU
    to read its stop message."""
    if executor is None:
        return
    processes = list((getattr(executor, "_processes", None) or {}).values())
    for process in processes:
        if process.is_alive():
            process.kill()
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join(timeout=join_seconds)


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


def _follow(bot: int, parent: int, interval: float = WATCH_INTERVAL) -> None:
    """Wait until process ``bot`` ends (or this worker was re-parented), then end this
    process. ``os._exit``, not ``sys.exit``: the main thread may be deep in a pairing and must
    not finish it."""
    try:
        handle = os.pidfd_open(bot)  # Linux 5.3 and later
    except ProcessLookupError:
        os._exit(1)  # the bot is gone already
    except (AttributeError, OSError):
        handle = None
    if handle is not None:
        select.select([handle], [], [])  # readable once the process has exited
        os._exit(1)
    while os.getppid() == parent and _exists(bot):
        time.sleep(interval)
    os._exit(1)


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: ours would not refuse us
    return True
