"""``@operation``: what every public operation of the service does around its body.

Each part of the service (``service.facade``) marks its public operations with it, where they
are defined. Around the body, in this order:

1. the arguments are checked against the annotations (``service.boundary``) before any
   transaction: a refusal writes nothing;
2. the body runs under ``db.retrying``: on PostgreSQL a deadlock or a serialization failure
   before the operation committed anything runs it again (a few times, with a random pause);
   on SQLite it runs once;
3. the deferred standings the operation wrote are completed after it, once, not once per
   retry (:func:`completing`).

An operation that needs another one's work calls that part's undecorated method (a private
``_name`` beside the operation), so retries and completions never nest: only the outer
operation retries, as a whole.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import TYPE_CHECKING, Concatenate, ParamSpec, Protocol, TypeVar

from service.boundary import checked

if TYPE_CHECKING:
    from service.base import Context

T = TypeVar("T")
P = ParamSpec("P")
PartT = TypeVar("PartT", bound="Part")

#: Deferred announcements written by the operation running in this task (None outside one).
_written: ContextVar[list[int] | None] = ContextVar("swissbot_deferred", default=None)


class Part(Protocol):
    ctx: Context


def operation(method: Callable[Concatenate[PartT, P], Awaitable[T]]
              ) -> Callable[Concatenate[PartT, P], Awaitable[T]]:
    """Check the arguments, retry, complete the deferred standings (module docstring)."""
    check_arguments = checked(method)

    @functools.wraps(method)
    async def run(self: PartT, *args: P.args, **kwargs: P.kwargs) -> T:
        check_arguments(args, kwargs)  # before any transaction: a refusal writes nothing
        ctx = self.ctx

        def body() -> Awaitable[T]:
            return method(self, *args, **kwargs)

        retrying = getattr(ctx.db, "retrying", None)
        if retrying is None:  # a test double without it
            return await completing(ctx.complete_deferred, body)
        return await completing(ctx.complete_deferred, lambda: retrying(body))

    run.__operation__ = True  # type: ignore[attr-defined]
    return run


def written_now() -> list[int] | None:
    """Where the operation running in this task lists the deferred announcements it writes
    (None outside one: the recovery completes them)."""
    return _written.get()


async def completing(complete: Callable[[list[int]], Awaitable[None]] | None,
                     operation: Callable[[], Awaitable[T]]) -> T:
    """Run ``operation()``, then ``complete`` the deferred announcements it wrote (whether it
    returned or raised after committing them). The outermost operation of a task does it;
    a cancelled one leaves them to the recovery. ``complete`` is
    :meth:`DeferredCompletion.complete_all` (None before the service is built)."""
    if _written.get() is not None or complete is None:
        return await operation()
    written: list[int] = []
    token = _written.set(written)
    try:
        result = await operation()
    except asyncio.CancelledError:
        raise
    except BaseException:
        _written.reset(token)
        await complete(written)
        raise
    _written.reset(token)
    await complete(written)
    return result
