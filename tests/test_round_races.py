"""Round operations name the round they act on (issue 11, item 3).

A repeated or concurrent ``/round next``, ``/round undo`` or ``/tournament finish`` must act
once: the others are refused with a clear message. The round is named either explicitly
(``round_number``) or by the moment the organiser sent the command (``seen_at``, the
interaction's creation time); the service checks it inside the operation's own transaction.
Fifty calls at once, on one connection (the bot's coroutines) and on two connections to the
same file (two processes).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path

import pytest

from service import RoundChangedError, ServiceError, TournamentService
from service.errors import PairingInProgressError
from storage import journal
from storage.connection import dialect
from tests.service_helpers import GUILD, Clock, member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()
MODES = ["one connection", "two connections"]
CALLS = 50


@asynccontextmanager
async def services(
    path: Path, mode: str
) -> AsyncIterator[tuple[Clock, TournamentService, TournamentService]]:
    clock = Clock()
    async with open_service(path, clock) as first:
        if mode == "one connection":
            yield clock, first, first
        else:
            async with open_service(path, clock) as second:
                yield clock, first, second


async def _running(service: TournamentService, players: int = 8) -> int:
    info = await service.create_tournament(ORG, "Race Cup", 5, seed=3)
    for uid in range(1, players + 1):
        await service.join(member(100 + uid), rating=1500 + uid)
    await service.start_tournament(ORG)  # round 1, open: a forced pairing would close it
    return info.id


def _one_winner(results: list[object]) -> tuple[object, list[RoundChangedError]]:
    """Exactly one call succeeded; every other one was refused as a round change (or, while
    the winner's round was being computed, as "being paired")."""
    ok = [r for r in results if not isinstance(r, BaseException)]
    errors = [r for r in results if isinstance(r, BaseException)]
    for error in errors:
        if not isinstance(error, RoundChangedError | PairingInProgressError):
            raise error
    assert len(ok) == 1, f"{len(ok)} calls acted"
    assert len(errors) == len(results) - 1
    return ok[0], errors  # type: ignore[return-value]


async def _fifty(make: object, a: TournamentService, b: TournamentService) -> list[object]:
    calls = [make(a if i % 2 else b) for i in range(CALLS)]  # type: ignore[operator]
    return await asyncio.gather(*calls, return_exceptions=True)


async def _assert_consistent(service: TournamentService, tid: int) -> list[int]:
    """Integrity, foreign keys, rounds 1..n without gaps, no game or bye without its round;
    returns the round numbers."""
    async with service.db.transaction(readonly=True) as conn:
        assert await dialect(conn).integrity_problems(conn) == []
        cur = await conn.execute(
            "SELECT number FROM rounds WHERE tournament_id = ? ORDER BY number", (tid,))
        numbers = [row[0] for row in await cur.fetchall()]
        cur = await conn.execute(
            "SELECT COUNT(*) FROM games g LEFT JOIN rounds r ON r.id = g.round_id"
            " WHERE r.id IS NULL")
        assert (await cur.fetchone())[0] == 0
        cur = await conn.execute(
            "SELECT COUNT(*) FROM byes b LEFT JOIN rounds r ON r.id = b.round_id"
            " WHERE r.id IS NULL")
        assert (await cur.fetchone())[0] == 0
    assert numbers == list(range(1, len(numbers) + 1))
    return numbers


async def _actions(service: TournamentService, tid: int) -> list[str]:
    async with service.db.transaction(readonly=True) as conn:
        return [r.action for r in await journal.list_audit(conn, tid)]


async def _kinds(service: TournamentService, tid: int) -> list[str]:
    return [n.kind for n in await service.announcements(tid)]


def _sent(clock: Clock) -> datetime:
    """The organiser sends a command a moment after the last change they saw."""
    return clock.advance(seconds=1)


# -- /round next ---------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
async def test_fifty_concurrent_forced_next_round_clicks_pair_one_round(
    tmp_path: Path, mode: str
) -> None:
    async with services(tmp_path / "race.sqlite3", mode) as (clock, a, b):
        tid = await _running(a)
        sent = _sent(clock)
        results = await _fifty(
            lambda s: s.pair_next_round(ORG, force=True, seen_at=sent), a, b)
        view, errors = _one_winner(results)
        assert view.number == 2  # type: ignore[attr-defined]
        for error in errors:
            # Arriving while round 2 is computed: "being paired"; after: "already paired".
            if error.code == "pairing_in_progress":
                assert error.message.startswith("Round 2 of 'Race Cup' is being paired")
                continue
            assert error.code == "round_changed"
            assert error.message.startswith("Round 2 of 'Race Cup' was already paired")
            assert "so round 3 was not paired" in error.message
        assert await _assert_consistent(a, tid) == [1, 2]
        # Round 2 is untouched: no second forced pairing closed it with double forfeits.
        assert {g.state for g in (await a.pairings(GUILD, round_number=2)).games} == {"pending"}
        actions = await _actions(a, tid)
        assert actions.count("round.pair") == 2  # round 1 (start) and round 2
        assert actions.count("result.forced") == 4  # round 1's four boards, closed once
        assert (await _kinds(a, tid)).count("pairings") == 2


@pytest.mark.parametrize("mode", MODES)
async def test_fifty_concurrent_next_round_calls_naming_round_two_pair_it_once(
    tmp_path: Path, mode: str
) -> None:
    async with services(tmp_path / "race.sqlite3", mode) as (_clock, a, b):
        tid = await _running(a)
        results = await _fifty(
            lambda s: s.pair_next_round(ORG, force=True, round_number=2), a, b)
        _view, errors = _one_winner(results)
        assert all(e.message == "Round 2 of 'Race Cup' is already paired: the next round to "
                   "pair is 3." or e.message.startswith("Round 2 of 'Race Cup' is being paired")
                   for e in errors)
        assert await _assert_consistent(a, tid) == [1, 2]
        assert (await _kinds(a, tid)).count("pairings") == 2


async def test_repeated_next_round_arriving_after_the_first_committed_is_refused(
    tmp_path: Path,
) -> None:
    """The second click was sent before the first one paired round 2 but arrives after it
    committed: it still means round 2, which is paired, so it is refused. A command sent
    after the organiser saw round 2 pairs round 3."""
    async with services(tmp_path / "race.sqlite3", "one connection") as (clock, a, _):
        tid = await _running(a)
        first_sent = _sent(clock)
        second_sent = clock.advance(milliseconds=150)
        clock.advance(milliseconds=100)  # the first click is processed after both were sent
        assert (await a.pair_next_round(ORG, force=True, seen_at=first_sent)).number == 2
        with pytest.raises(RoundChangedError, match="Round 2 of 'Race Cup' was already paired"):
            await a.pair_next_round(ORG, force=True, seen_at=second_sent)
        assert await _assert_consistent(a, tid) == [1, 2]
        later = _sent(clock)
        assert (await a.pair_next_round(ORG, force=True, seen_at=later)).number == 3


async def test_next_round_sent_before_an_auto_advance_is_refused(tmp_path: Path) -> None:
    """The automatic pairing is a round change too: an organiser's forced /round next sent
    before it must not close the round it just paired."""
    async with services(tmp_path / "race.sqlite3", "one connection") as (clock, a, _):
        info = await a.create_tournament(ORG, "Auto Cup", 4, auto_advance_minutes=0, seed=1)
        for uid in range(1, 5):
            await a.join(member(uid))
        r1 = await a.start_tournament(ORG)
        for game in r1.games:
            await a.set_result(ORG, 1, game.white.user_id, "win")
        sent = _sent(clock)
        assert [v.number for v in await a.run_auto_advances()] == [2]
        with pytest.raises(RoundChangedError, match="Round 2 of 'Auto Cup' was already paired"):
            await a.pair_next_round(ORG, force=True, seen_at=sent)
        assert await _assert_consistent(a, info.id) == [1, 2]


# -- /round undo ---------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
async def test_fifty_concurrent_forced_undo_clicks_undo_one_round(
    tmp_path: Path, mode: str
) -> None:
    async with services(tmp_path / "race.sqlite3", mode) as (clock, a, b):
        tid = await _running(a)
        await a.pair_next_round(ORG, force=True, seen_at=_sent(clock))
        sent = _sent(clock)
        results = await _fifty(lambda s: s.undo_round(ORG, force=True, seen_at=sent), a, b)
        view, errors = _one_winner(results)
        assert view.number == 2  # type: ignore[attr-defined]
        for error in errors:
            assert error.message.startswith("Round 2 of 'Race Cup' was already undone")
            assert "so round 1 was not undone" in error.message
        assert await _assert_consistent(a, tid) == [1]
        assert (await _actions(a, tid)).count("round.undo") == 1
        assert (await _kinds(a, tid)).count("round_undone") == 1
        # Round 1 keeps the results the forced pairing of round 2 gave it.
        assert {g.state for g in (await a.pairings(GUILD, round_number=1)).games} == {"final"}


@pytest.mark.parametrize("mode", MODES)
async def test_fifty_concurrent_undo_calls_naming_round_two_undo_it_once(
    tmp_path: Path, mode: str
) -> None:
    async with services(tmp_path / "race.sqlite3", mode) as (_clock, a, b):
        tid = await _running(a)
        await a.pair_next_round(ORG, force=True, round_number=2)
        results = await _fifty(lambda s: s.undo_round(ORG, force=True, round_number=2), a, b)
        _view, errors = _one_winner(results)
        assert all(e.message == "Round 2 of 'Race Cup' was already undone: its latest round "
                   "is 1." for e in errors)
        assert await _assert_consistent(a, tid) == [1]


async def test_undo_naming_a_round_that_is_not_the_latest_is_refused(tmp_path: Path) -> None:
    async with services(tmp_path / "race.sqlite3", "one connection") as (_clock, a, _):
        tid = await _running(a)
        await a.pair_next_round(ORG, force=True, round_number=2)
        with pytest.raises(RoundChangedError, match="Round 1 of 'Race Cup' is not the latest"):
            await a.undo_round(ORG, force=True, round_number=1)
        with pytest.raises(RoundChangedError, match="Round 3 of 'Race Cup' is not paired"):
            await a.undo_round(ORG, force=True, round_number=3)
        assert await _assert_consistent(a, tid) == [1, 2]


async def test_undo_sent_before_a_pairing_does_not_undo_the_new_round(tmp_path: Path) -> None:
    async with services(tmp_path / "race.sqlite3", "one connection") as (clock, a, _):
        tid = await _running(a)
        undo_sent = _sent(clock)
        await a.pair_next_round(ORG, force=True, round_number=2)  # another organiser
        with pytest.raises(RoundChangedError) as refused:
            await a.undo_round(ORG, force=True, seen_at=undo_sent)
        assert refused.value.message.startswith("Round 2 of 'Race Cup' was already paired")
        assert "so round 2 was not undone" in refused.value.message
        assert await _assert_consistent(a, tid) == [1, 2]


# -- /tournament finish --------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
async def test_forced_finish_sent_before_a_pairing_does_not_forfeit_the_new_round(
    tmp_path: Path, mode: str
) -> None:
    async with services(tmp_path / "race.sqlite3", mode) as (clock, a, b):
        tid = await _running(a)
        finish_sent = _sent(clock)
        await b.pair_next_round(ORG, force=True, round_number=2)
        with pytest.raises(RoundChangedError, match="so 'Race Cup' was not finished"):
            await a.finish_tournament(ORG, force=True, seen_at=finish_sent)
        with pytest.raises(RoundChangedError, match="is at round 2, not 1"):
            await a.finish_tournament(ORG, force=True, round_number=1)
        assert (await a.tournament_info(GUILD)).status == "running"
        assert {g.state for g in (await a.pairings(GUILD, round_number=2)).games} == {"pending"}
        results = await _fifty(
            lambda s: s.finish_tournament(ORG, force=True, seen_at=_sent(clock)), a, b)
        ok = [r for r in results if not isinstance(r, BaseException)]
        assert len(ok) == 1
        assert all(isinstance(r, ServiceError) for r in results if r not in ok)
        assert (await _kinds(a, tid)).count("final_standings") == 1
        await _assert_consistent(a, tid)


# -- /report -------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
async def test_report_sent_before_the_next_round_was_paired_is_not_recorded_on_it(
    tmp_path: Path, mode: str
) -> None:
    """A player reports round 1 while an organiser force-pairs round 2: the report must not
    land on the player's round 2 game."""
    async with services(tmp_path / "race.sqlite3", mode) as (clock, a, b):
        tid = await _running(a)
        game = (await a.pairings(GUILD, round_number=1)).games[0]
        reported = _sent(clock)
        await b.pair_next_round(ORG, force=True, round_number=2)
        with pytest.raises(RoundChangedError) as refused:
            await a.report_result(member(game.white.user_id), "win", seen_at=reported)
        assert refused.value.message.startswith("Round 2 of 'Race Cup' was already paired")
        assert "your report was not recorded" in refused.value.message
        assert "/result set" in refused.value.message
        round_two = await a.pairings(GUILD, round_number=2)
        assert {g.state for g in round_two.games} == {"pending"}
        assert "result.report" not in await _actions(a, tid)
        # Sent after round 2 was paired, the same report is for round 2 and is recorded.
        outcome = await a.report_result(member(game.white.user_id), "win", seen_at=_sent(clock))
        assert outcome.status == "awaiting_confirmation"
