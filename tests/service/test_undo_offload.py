"""`/round undo` of a big event reads the round and encodes its audit record before its write
transaction, in a thread (issue 13: 87-127 ms of the event loop at 1,500 boards); the result
is the same as the inline undo's, and a change in between makes the undo read it again."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

import service.rounds as rounds_module
from service import TournamentService
from service.pairing_pool import PairingPool
from storage import journal
from tests.service.test_pairing_offload import INLINE, OFFLOADED, ORG, _running
from tests.service_helpers import Clock, open_database

pytestmark = pytest.mark.usefixtures("backend")


async def _undo_and_audit(path: Path, big: bool, *, meanwhile: bool = False) -> tuple[Any, Any]:
    db = await open_database(path)
    service = TournamentService(db, clock=Clock(), pairing=PairingPool(INLINE))
    try:
        tid = await _running(service, players=11)
        await service.pair_next_round(ORG)
        service.pairing = PairingPool(OFFLOADED if big else INLINE)
        if meanwhile:  # a result reported between the early read and the undo's transaction
            early = service.rounds._undo_read_early

            async def then_a_result(*args: Any) -> Any:
                found = await early(*args)
                view = await service.pairings(ORG.guild_id)
                game = view.games[0]
                await service.set_result(ORG, 2, f"#{game.white.number}", "draw")
                return found

            service.rounds._undo_read_early = then_a_result  # type: ignore[method-assign]
        view = await service.undo_round(ORG, round_number=2, force=True)
        async with db.transaction(readonly=True) as conn:
            audit = [a for a in await journal.list_audit(conn, tid) if a.action == "round.undo"]
        assert len(audit) == 1
        return view, audit[0].before
    finally:
        service.pairing.close()
        await db.close()


@pytest.mark.slow
async def test_a_big_undo_returns_and_audits_what_the_inline_undo_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[int] = []
    encode = rounds_module._audit_json

    def recorded(view: Any) -> Any:
        threads.append(threading.get_ident())
        return encode(view)

    monkeypatch.setattr(rounds_module, "_audit_json", recorded)
    inline_view, inline_audit = await _undo_and_audit(tmp_path / "a.sqlite3", big=False)
    assert threads == []
    big_view, big_audit = await _undo_and_audit(tmp_path / "b.sqlite3", big=True)
    assert threads and threads[0] != threading.get_ident()  # encoded off the event loop
    assert big_view == inline_view
    assert big_audit == inline_audit
    assert big_audit["number"] == 2 and len(big_audit["games"]) == 5


async def test_a_change_after_the_early_read_is_in_the_undo(tmp_path: Path) -> None:
    view, audit = await _undo_and_audit(tmp_path / "c.sqlite3", big=True, meanwhile=True)
    assert view.games[0].result == "1/2-1/2"
    assert audit["games"][0]["result"] == "1/2-1/2"
