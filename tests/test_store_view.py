"""The store of a big round builds the round's view it returns after its commit, from what
the worker built (issue 13: ~17 ms of 1,500 boards no longer hold the database), and that
view is the round read back."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from service.present import round_view
from service.stored_round import StoredRound
from storage import tournaments as tournament_repo
from tests.test_pairing_offload import ORG, _running, pooled

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
        view_for = StoredRound.view_for

        def recorded(self: StoredRound, *args: Any) -> Any:
            built_in_transaction.append(writing > 0)
            return view_for(self, *args)

        monkeypatch.setattr(service.db, "transaction", counted)
        monkeypatch.setattr(StoredRound, "view_for", recorded)
        view = await service.pair_next_round(ORG, round_number=2)
        assert built_in_transaction == [False]
        async with original(readonly=True) as conn:
            t = await tournament_repo.get_tournament(conn, tid)
            assert t is not None
            assert view == await round_view(conn, t, 2)
