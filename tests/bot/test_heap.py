"""The bot's start-up heap is frozen out of the cyclic collector's passes (bot/heap.py):
a full pass walked it for 50-70 ms with the event loop stopped (issue 13)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from bot import heap


@pytest.fixture
def fresh_heap(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """settle_heap as in a new process; the test process's heap unfrozen afterwards."""
    monkeypatch.setattr(heap, "_settled", False)
    try:
        yield
    finally:
        gc.unfreeze()


def test_settle_heap_takes_what_is_alive_out_of_every_pass(fresh_heap: None) -> None:
    alive = [object()]  # a container made before: no pass walks it afterwards
    frozen = heap.settle_heap()
    assert frozen > 0
    assert gc.get_freeze_count() > 0
    assert not any(o is alive for o in gc.get_objects())
    made_after = [object()]  # made after: the collector still walks it
    assert any(o is made_after for o in gc.get_objects())


def test_settle_heap_collects_once_per_process(fresh_heap: None,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    collections: list[int] = []
    monkeypatch.setattr(heap.gc, "collect", lambda *a: collections.append(1) or 0)
    assert heap.settle_heap() > 0
    assert heap.settle_heap() == 0  # a reconnection's on_ready: no second pause
    assert collections == [1]
