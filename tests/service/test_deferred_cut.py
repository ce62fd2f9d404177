"""Issue 13: a big event's top cut is seeded after the commit of the operation that ended
the Swiss, its standings computed off the event loop and outside any write transaction
(``service.playoffs._cut``, ``service.deferred``), exactly as the inline seeding does.

* The announcements (``swiss_final``, ``bracket``), the seeds and the audit are the inline
  ones, whether the Swiss ends by its last result or by ``/tournament finish``.
* The seeding standings are computed in no write transaction.
* Between the two steps ``/round next`` answers that the cut is being seeded; the recovery
  completes it, and the bracket is then paired.
* A cut whose last Swiss round was undone meanwhile is dropped: no bracket.

Every test runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from service import ConflictError, TournamentService
from service import deferred as deferred_module
from service import playoffs as playoffs_module
from storage import journal
from storage import playoffs as playoff_repo
from tests.service.test_deferred_standings import (
    ORG,
    _crash_after_commit,
    _deferred_rows,
    _shown,
    big,
    serving,
)
from tests.service_helpers import GUILD, member

pytestmark = pytest.mark.usefixtures("backend")


async def _event(service: TournamentService, *, rounds: int = 2) -> int:
    info = await service.create_tournament(ORG, "Cup", rounds, seed=9, top_cut=4)
    for uid in range(1, 9):
        await service.join(member(GUILD + uid), rating=1500 + 61 * uid % 500)
    return info.id


async def _play(service: TournamentService, number: int, view: Any, *, deferred: bool) -> None:
    for index, game in enumerate(view.games):
        call = service.set_result(ORG, number, f"#{game.white.number}",
                                  ("win", "loss", "win", "draw")[index % 4])
        await (big(service, call) if deferred else call)


async def _swiss(service: TournamentService, *, deferred: bool,
                 stop: pytest.MonkeyPatch | None = None) -> int:
    """Both Swiss rounds played: the last result ends the Swiss and cuts. ``stop``: the
    process stops after the commit of round 2's results (before their second steps)."""
    tid = await _event(service)
    view = await service.start_tournament(ORG)
    await _play(service, 1, view, deferred=deferred)
    view = await service.pair_next_round(ORG, round_number=2)
    if stop is not None:
        await _crash_after_commit(stop, service)
    await _play(service, 2, view, deferred=deferred)
    return tid


async def _outcome(service: TournamentService, tid: int) -> tuple[Any, ...]:
    async with service.db.transaction(readonly=True) as conn:
        playoffs = await playoff_repo.get_playoffs(conn, tid)
        audit = [(a.action, a.after) for a in await journal.list_audit(conn, tid)]
    seeds = None if playoffs is None else (playoffs.seeds, playoffs.swiss_rounds)
    return seeds, audit, _shown(await service.announcements(tid))


@asynccontextmanager
async def _writing_counted(service: TournamentService,
                           monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[list[bool]]:
    """Record, at each seeding standings computed, whether a write transaction is open."""
    writing = 0
    original = service.db.transaction

    @asynccontextmanager
    async def counted(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        nonlocal writing
        step = 0 if kwargs.get("readonly", False) else 1
        async with original(*args, **kwargs) as conn:
            writing += step
            try:
                yield conn
            finally:
                writing -= step

    seen: list[bool] = []
    for module in (playoffs_module, deferred_module):
        table = module.standings_view

        def recorded(*args: Any, _table: Any = table, **kwargs: Any) -> Any:
            seen.append(writing > 0)
            return _table(*args, **kwargs)

        monkeypatch.setattr(module, "standings_view", recorded)
    monkeypatch.setattr(service.db, "transaction", counted)
    yield seen


async def test_a_big_events_cut_is_the_inline_one_and_out_of_the_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outcomes = []
    for deferred in (False, True):
        async with serving(tmp_path / f"cut-{deferred}.sqlite3") as service:
            with monkeypatch.context() as patched:
                async with _writing_counted(service, patched) as seen:
                    tid = await _swiss(service, deferred=deferred)
            outcomes.append(await _outcome(service, tid))
            assert await _deferred_rows(service) == []
            if deferred:
                # the seeding table (and the round standings) in no write transaction
                assert seen and not any(seen)
            else:
                assert any(seen)  # inline: the cut's table inside the operation, as before
            semis = await service.pair_next_round(ORG)
            assert semis.stage == "Semi-finals" and len(semis.games) == 2
    inline, later = outcomes
    assert inline[0] is not None and len(inline[0][0]) == 4
    assert later == inline
    kinds = [kind for kind, _ in later[2]]
    assert kinds.index("swiss_final") < kinds.index("bracket")


@pytest.mark.slow
async def test_round_next_waits_while_the_cut_is_seeded_then_pairs_the_bracket(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "gap.sqlite3"
    async with serving(path) as service:
        with monkeypatch.context() as patched:  # the process stops after the last result
            tid = await _swiss(service, deferred=True, stop=patched)
        assert len(await _deferred_rows(service)) == 1
        with pytest.raises(ConflictError, match="being seeded"):
            await service.pair_next_round(ORG)
        # /tournament finish meanwhile does not seed a second time
        await big(service, service.finish_tournament(ORG))
        assert await _deferred_rows(service) == []
        seeds, audit, shown = await _outcome(service, tid)
        assert seeds is not None
        assert [a for a, _ in audit].count("playoffs.cut") == 1
        assert [k for k, _ in shown].count("swiss_final") == 1
    async with serving(tmp_path / "gap-inline.sqlite3") as service:
        inline_tid = await _swiss(service, deferred=False)
        assert (await _outcome(service, inline_tid))[0] == seeds


async def test_the_recovery_seeds_a_cut_left_between_the_steps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "stop.sqlite3"
    async with serving(path) as service:
        with monkeypatch.context() as patched:
            tid = await _swiss(service, deferred=True, stop=patched)
        assert len(await _deferred_rows(service)) == 1
    async with serving(path) as service:  # restarted
        assert await big(service, service.complete_announcements()) == 1
        semis = await service.pair_next_round(ORG)
        assert semis.stage == "Semi-finals"
        recovered = await _outcome(service, tid)
    async with serving(tmp_path / "inline.sqlite3") as service:
        inline_tid = await _swiss(service, deferred=False)
        inline = await _outcome(service, inline_tid)
    assert recovered[0] == inline[0]
    assert [k for k, _ in recovered[2]][:len(inline[2])] == [k for k, _ in inline[2]]


async def test_a_cut_whose_round_was_undone_is_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with serving(tmp_path / "undo.sqlite3") as service:
        with monkeypatch.context() as patched:
            tid = await _swiss(service, deferred=True, stop=patched)
        await service.undo_round(ORG, round_number=2, force=True)
        assert await big(service, service.complete_announcements()) == 0
        assert await _deferred_rows(service) == []
        seeds, audit, _ = await _outcome(service, tid)
        assert seeds is None and "playoffs.cut" not in [a for a, _ in audit]


async def test_finish_seeds_a_big_events_cut_as_inline(tmp_path: Path) -> None:
    results = []
    for deferred in (False, True):
        async with serving(tmp_path / f"finish-{deferred}.sqlite3") as service:
            tid = await _event(service, rounds=3)
            view = await service.start_tournament(ORG)
            await _play(service, 1, view, deferred=False)
            call = service.finish_tournament(ORG, round_number=1)
            table = await (big(service, call) if deferred else call)
            assert await _deferred_rows(service) == []
            seeds, audit, shown = await _outcome(service, tid)
            # the cut's audit entry comes after the finish's when seeded after the commit
            results.append((table, seeds, sorted(audit, key=lambda a: a[0]), shown))
    assert results[0] == results[1]
    assert results[0][1] is not None
