"""A per-call time limit for tests that must fail, not hang, when the code under test hangs."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator


class Hang(Exception):
    """The code under test did not finish within its time limit."""


@contextlib.contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """Raise :class:`Hang` in the main thread after ``seconds`` (SIGALRM; Unix only)."""

    def expire(signum: int, frame: object) -> None:
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
