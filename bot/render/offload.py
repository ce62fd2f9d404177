"""Render big announcements in a worker process, so their formatting never holds the GIL.

A 3,000-player round's pairings post is ~1,500 board lines formatted and paginated into a
dozen messages: 30-100 ms of pure Python (more on a loaded machine). In a thread (as before)
that work shares the interpreter with the event loop: every other guild's command then gets
the GIL back only once per switch interval (5 ms) per hand-over, and a command makes several
(issue 13: B's ``/report`` p99 while A's round is posted). In a process it costs the event
loop only the payload's pickling (~1-2 ms for 1,500 boards: JSON-like data whose repeated
keys pickle once) and the messages' unpickling (~0.1 ms).

One warm worker (``forkserver``: a clean interpreter, none of the bot's sockets), started on
the first big post or by :meth:`RenderPool.warm_up`. The worker runs the very same
:func:`render_announcement`, so the messages are those the event loop would have made (tested).
If the worker cannot be used (it died, the machine cannot start one), the post is rendered in
a thread as before rather than not at all; the renderer's own errors pass through unchanged.
"""

from __future__ import annotations

import asyncio
import json
import logging
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.render.announcements import render_announcement
from bot.render.message import Outgoing
from service.workers import kill_executor, worker_context, worker_initializer

log = logging.getLogger(__name__)


class RenderPool:
    """Renders announcements in one warm worker process (thread fallback)."""

    def __init__(self, *, start_method: str | None = None) -> None:
        self._context = worker_context(start_method)
        self._executor: ProcessPoolExecutor | None = None
        self.in_process = 0  # renders done by the worker (tests and benchmarks read them)
        self.in_thread = 0  # renders that fell back to a thread

    def worker_pids(self) -> list[int]:
        """The worker process alive now (tests read its priority)."""
        processes = getattr(self._executor, "_processes", None) or {}
        return [p.pid for p in processes.values() if p.pid is not None]

    def _get(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # at a lower CPU priority than the bot, and dying with it, as the pairing workers
            self._executor = ProcessPoolExecutor(max_workers=1, mp_context=self._context,
                                                 initializer=worker_initializer)
        return self._executor

    async def render(self, kind: str, payload: dict[str, Any], *,
                     organiser_role_id: int | None = None,
                     owner_id: int | None = None,
                     language: str | None = None) -> list[Outgoing]:
        """``render_announcement(kind, payload, ...)`` in the worker process."""
        loop = asyncio.get_running_loop()
        args = (render_announcement, kind, payload, organiser_role_id, owner_id, language)
        try:
            future = loop.run_in_executor(self._get(), _render, *args)
        except Exception as exc:  # no worker can be started (or the last one died)
            return await self._in_thread(exc, args)
        try:
            messages: list[Outgoing] = await future
        except BrokenProcessPool as exc:  # the worker died while rendering
            return await self._in_thread(exc, args)
        self.in_process += 1
        return messages

    async def render_text(self, kind: str, text: str, *, organiser_role_id: int | None = None,
                          owner_id: int | None = None, language: str | None = None,
                          ) -> tuple[list[Outgoing], dict[str, Any]]:
        """:meth:`render` of the payload whose JSON is ``text``, parsed in the worker too
        (600 kB for a big round). Returns the messages and the payload without its boards
        (``games``: what else the delivery reads of it is small)."""
        loop = asyncio.get_running_loop()
        args = (render_announcement, kind, text, organiser_role_id, owner_id, language)
        try:
            future = loop.run_in_executor(self._get(), _render_text, *args)
        except Exception as exc:  # no worker can be started (or the last one died)
            return await self._in_thread(exc, args, _render_text)  # type: ignore[no-any-return]
        try:
            rendered: tuple[list[Outgoing], dict[str, Any]] = await future
        except BrokenProcessPool as exc:  # the worker died while rendering
            return await self._in_thread(exc, args, _render_text)  # type: ignore[no-any-return]
        self.in_process += 1
        return rendered

    async def _in_thread(self, exc: BaseException, args: tuple[Any, ...],
                         fn: Any = None) -> Any:
        """No usable worker: replace it for the next post, render this one in a thread."""
        log.warning("the render worker is unavailable (%s): rendering in a thread", exc)
        self.close()
        self.in_thread += 1
        return await asyncio.to_thread(fn or _render, *args)

    async def warm_up(self) -> None:
        """Start the worker and import the renderers now, not on the first big post."""
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._get(), _ready)
        except (BrokenProcessPool, OSError, RuntimeError):
            log.warning("the render worker could not start; big posts render in a thread",
                        exc_info=True)
            self.close()

    def close(self) -> None:
        """Stop the worker (the delivery's stop): killed, so that the bot's exit does not
        wait for it (a post it was rendering is rendered again after the next start)."""
        executor, self._executor = self._executor, None
        kill_executor(executor)


def _render(fn: Any, kind: str, payload: dict[str, Any], organiser_role_id: int | None,
            owner_id: int | None, language: str | None = None) -> list[Outgoing]:
    """The worker's entry point (importable by name; ``fn`` lets tests pass another one)."""
    # the server's locale only when there is one: a test's own renderer need not take it
    extra = {} if language is None else {"language": language}
    return fn(kind, payload, organiser_role_id=organiser_role_id,  # type: ignore[no-any-return]
              owner_id=owner_id, **extra)


def _render_text(fn: Any, kind: str, text: str, organiser_role_id: int | None,
                 owner_id: int | None, language: str | None = None,
                 ) -> tuple[list[Outgoing], dict[str, Any]]:
    """The worker's entry point for :meth:`RenderPool.render_text`."""
    payload = json.loads(text)
    messages = _render(fn, kind, payload, organiser_role_id, owner_id, language)
    return messages, {k: v for k, v in payload.items() if k != "games"}


def _ready() -> bool:
    from i18n import load_all

    load_all()  # the worker renders posts in every server's language
    return True
