"""Concurrent operations (asyncio.gather) have exactly one effect: on one connection (the
bot's own coroutines) and on two connections to the same file (two processes)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from service import ServiceError, TournamentService
from storage import journal
from tests.service_helpers import GUILD, MODES, member, organiser, two_services

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()


def _split(results: list[object]) -> tuple[list[object], list[ServiceError]]:
    ok = [r for r in results if not isinstance(r, BaseException)]
    errors = [r for r in results if isinstance(r, BaseException)]
    for error in errors:
        if not isinstance(error, ServiceError):
            raise error
    return ok, errors  # type: ignore[return-value]


async def _ready(service: TournamentService, players: int = 6) -> int:
    info = await service.create_tournament(ORG, "Race Cup", 3, seed=1)
    for uid in range(1, players + 1):
        await service.join(member(100 + uid), rating=1500 + uid)
    return info.id


async def _rounds(service: TournamentService, tid: int) -> list[int]:
    async with service.db.transaction() as conn:
        cur = await conn.execute("SELECT number FROM rounds WHERE tournament_id = ? "
                                  "ORDER BY number", (tid,))
        return [row[0] for row in await cur.fetchall()]




@pytest.mark.parametrize("mode", MODES)
async def test_concurrent_starts_make_one_round(tmp_path: Path, mode: str) -> None:
    async with two_services(tmp_path / "race.sqlite3", mode) as (a, b):
        tid = await _ready(a)
        results = await asyncio.gather(
            a.start_tournament(ORG), b.start_tournament(ORG), a.start_tournament(ORG),
            return_exceptions=True,
        )
        ok, errors = _split(results)
        assert len(ok) == 1 and len(errors) == 2
        # after the winner committed: "already started"; while it paired: "being paired"
        assert all("already started" in e.message or ("Round 1 of" in e.message
                   and "is being paired" in e.message) for e in errors)
        assert await _rounds(a, tid) == [1]
        kinds = [n.kind for n in await a.announcements(tid)]
        assert kinds.count("pairings") == 1


@pytest.mark.parametrize("mode", MODES)
async def test_concurrent_round_starts_make_one_round(tmp_path: Path, mode: str) -> None:
    async with two_services(tmp_path / "race.sqlite3", mode) as (a, b):
        tid = await _ready(a)
        r1 = await a.start_tournament(ORG)
        for game in r1.games:
            await a.set_result(ORG, 1, game.white.user_id, "draw")
        results = await asyncio.gather(
            a.pair_next_round(ORG), b.pair_next_round(ORG), b.pair_next_round(ORG),
            return_exceptions=True,
        )
        ok, errors = _split(results)
        assert len(ok) == 1 and len(errors) == 2
        assert all("Round 2" in e.message and ("not complete" in e.message
                                               or "is being paired" in e.message)
                   for e in errors)
        assert await _rounds(a, tid) == [1, 2]
        kinds = [n.kind for n in await a.announcements(tid)]
        assert kinds.count("pairings") == 2


@pytest.mark.parametrize("mode", MODES)
async def test_double_clicked_confirmation_records_one_result(tmp_path: Path, mode: str) -> None:
    async with two_services(tmp_path / "race.sqlite3", mode) as (a, b):
        tid = await _ready(a, players=2)
        r1 = await a.start_tournament(ORG)
        game = r1.games[0]
        await a.report_result(member(game.white.user_id), "win")
        black = member(game.black.user_id)
        results = await asyncio.gather(
            a.confirm_result(black, game.id), b.confirm_result(black, game.id),
            a.confirm_result(black, game.id), return_exceptions=True,
        )
        ok, errors = _split(results)
        assert len(ok) == 1 and len(errors) == 2
        assert all("already" in e.message for e in errors)
        async with a.db.transaction() as conn:
            audit = await journal.list_audit(conn, tid)
        assert [r.action for r in audit].count("result.confirm") == 1
        kinds = [n.kind for n in await a.announcements(tid)]
        assert kinds.count("round_results") == 1 and kinds.count("standings") == 1


@pytest.mark.parametrize("mode", MODES)
async def test_simultaneous_contradicting_reports_become_one_dispute(
    tmp_path: Path, mode: str
) -> None:
    async with two_services(tmp_path / "race.sqlite3", mode) as (a, b):
        tid = await _ready(a, players=2)
        game = (await a.start_tournament(ORG)).games[0]
        results = await asyncio.gather(
            a.report_result(member(game.white.user_id), "win"),
            b.report_result(member(game.black.user_id), "win"),
        )
        assert sorted(r.status for r in results) == ["awaiting_confirmation", "disputed"]
        assert (await a.pairings(GUILD)).games[0].state == "disputed"
        kinds = [n.kind for n in await a.announcements(tid)]
        assert kinds.count("dispute") == 1


@pytest.mark.parametrize("mode", MODES)
async def test_concurrent_auto_advance_workers_pair_once(tmp_path: Path, mode: str) -> None:
    async with two_services(tmp_path / "race.sqlite3", mode) as (a, b):
        info = await a.create_tournament(ORG, "Auto Race", 3, auto_advance_minutes=0, seed=1)
        for uid in range(1, 5):
            await a.join(member(uid))
        r1 = await a.start_tournament(ORG)
        for game in r1.games:
            await a.set_result(ORG, 1, game.white.user_id, "win")
        results = await asyncio.gather(a.run_auto_advances(), b.run_auto_advances(),
                                       a.run_auto_advances())
        assert sorted(len(r) for r in results) == [0, 0, 1]
        assert await _rounds(a, info.id) == [1, 2]


@pytest.mark.parametrize("mode", MODES)
async def test_concurrent_delivery_marks_each_announcement_once(
    tmp_path: Path, mode: str
) -> None:
    async with two_services(tmp_path / "race.sqlite3", mode) as (a, b):
        await _ready(a, players=2)
        await a.start_tournament(ORG)
        (note,) = await a.pending_announcements()
        results = await asyncio.gather(a.mark_delivered(note.id), b.mark_delivered(note.id))
        assert sorted(results) == [False, True]
        assert await b.pending_announcements() == []


async def test_concurrent_joins_of_one_member_register_once(tmp_path: Path) -> None:
    async with two_services(tmp_path / "race.sqlite3", "two connections") as (a, b):
        await a.create_tournament(ORG, "Join Race", 3, seed=1)
        results = await asyncio.gather(a.join(member(7)), b.join(member(7)),
                                       return_exceptions=True)
        ok, errors = _split(results)
        assert len(ok) == 1 and "already registered" in errors[0].message
        assert len(await a.list_players(GUILD)) == 1


@pytest.mark.parametrize("mode", MODES)
async def test_double_clicked_forced_pairing_pairs_one_round(tmp_path: Path, mode: str) -> None:
    async with two_services(tmp_path / "race.sqlite3", mode) as (a, b):
        tid = await _ready(a)
        await a.start_tournament(ORG)  # round 1 open: a forced pairing closes it
        shown = (await a.pairings(GUILD)).number
        results = await asyncio.gather(
            a.pair_next_round(ORG, force=True, round_number=shown + 1),
            b.pair_next_round(ORG, force=True, round_number=shown + 1),
            return_exceptions=True,
        )
        ok, errors = _split(results)
        assert len(ok) == 1 and len(errors) == 1
        assert any(f"Round 2 of 'Race Cup' is {state} paired" in errors[0].message
                   for state in ("already", "being"))
        assert await _rounds(a, tid) == [1, 2]
        assert {g.state for g in (await a.pairings(GUILD)).games} == {"pending"}
