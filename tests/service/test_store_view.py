"""The store of a big round builds the round's view it returns after its commit, from what
the worker built (issue 13: ~17 ms of 1,500 boards no longer hold the database), and that
view is the round read back."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from service.present import round_view
from service.stored_round import StoredRound
from storage import tournaments as tournament_repo
from tests.service.test_pairing_offload import ORG, _running, pooled

pytestmark = pytest.mark.usefixtures("backend")


async def test_the_stored_round_view_is_built_after_the_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with pooled(tmp_path / "v.sqlite3") as service:
        tid = await _running(service, players=9, deadline_minutes=90)
        writing = 0
        original = service.db.transaction

        @asynccontextmanager
        async def counted(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
            nonlocal writing
            readonly = kwargs.get("readonly", False)
            async with original(*args, **kwargs) as conn:
                writing += 0 if readonly else 1
                try:
                    yield conn
                finally:
                    writing -= 0 if readonly else 1

        built_in_transaction: list[bool] = []
        view_in_turns = StoredRound.view_in_turns

        async def recorded(self: StoredRound, *args: Any, **kwargs: Any) -> Any:
            built_in_transaction.append(writing > 0)
            return await view_in_turns(self, *args, **kwargs)

        monkeypatch.setattr(service.db, "transaction", counted)
        monkeypatch.setattr(StoredRound, "view_in_turns", recorded)
        view = await service.pair_next_round(ORG, round_number=2)
        assert built_in_transaction == [False]
        async with original(readonly=True) as conn:
            t = await tournament_repo.get_tournament(conn, tid)
            assert t is not None
            assert view == await round_view(conn, t, 2)


@pytest.mark.slow
async def test_the_view_is_built_in_turns_of_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A big round's view (1,500 boards: tens of ms of Python) gives other guilds' commands
    their turns while it is built, and is the same view as built in one piece."""
    async with pooled(tmp_path / "t.sqlite3") as service:
        await _running(service, players=40)
        calls: list[StoredRound] = []
        turns: list[int] = []  # the other guild's turns while the view was built
        view_in_turns = StoredRound.view_in_turns

        async def recorded(self: StoredRound, *args: Any, **kwargs: Any) -> Any:
            calls.append(self)
            start = ticks
            view = await view_in_turns(self, *args, chunk=4)
            turns.append(ticks - start)
            return view

        monkeypatch.setattr(StoredRound, "view_in_turns", recorded)
        ticks = 0
        built = asyncio.Event()

        async def other_guild() -> None:
            nonlocal ticks
            while not built.is_set():
                ticks += 1
                await asyncio.sleep(0)

        ticking = asyncio.create_task(other_guild())
        view = await service.pair_next_round(ORG, round_number=2)
        built.set()
        await ticking
        assert len(calls) == 1 and len(view.games) == 20
        # 20 boards by 4: the loop had 4 turns while the view was built, the other guild too
        assert turns[0] >= 4
        stored = calls[0]
        ids = [g.id for g in view.games]
        assert view == stored.view_for(ids, view.paired_at, view.deadline)
