"""Round operations name the state they act on, never the time.

A repeated or concurrent ``/round next``, ``/round undo`` or ``/tournament finish`` must act
once: the others are refused with a clear message. The round is named explicitly
(``round_number``), and a confirmation prompt's click also names the course version it was
shown for (``version``, from ``preview_action``); the service checks both inside the
operation's own transaction. Fifty calls at once, on one connection (the bot's coroutines) and
on two connections to the same file (two processes).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from service import RoundChangedError, ServiceError, TournamentService
from service.errors import PairingInProgressError
from storage import journal
from storage.connection import dialect
from tests.service_helpers import GUILD, MODES, member, organiser, two_services

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()
CALLS = 50


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


async def _shown(service: TournamentService, action: str) -> tuple[int, int]:
    """The state a confirmation prompt of ``action`` is shown for: (version, round)."""
    preview = await service.preview_action(ORG, action)
    assert preview.needs_confirmation
    return preview.version, preview.round_number


# -- /round next ---------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
async def test_fifty_concurrent_forced_next_round_clicks_pair_one_round(
    tmp_path: Path, mode: str
) -> None:
    """Fifty clicks of Confirm on prompts shown for the same state (the course version only,
    without the round, so that the version check alone must hold)."""
    async with two_services(tmp_path / "race.sqlite3", mode) as (a, b):
        tid = await _running(a)
        version, number = await _shown(a, "next")
        assert number == 2
        results = await _fifty(
            lambda s: s.pair_next_round(ORG, force=True, version=version), a, b)
        view, errors = _one_winner(results)
        assert view.number == 2  # type: ignore[attr-defined]
        for error in errors:
            # Arriving while round 2 is computed: "being paired"; after: "out of date".
            if error.code == "pairing_in_progress":
                assert error.message.startswith("Round 2 of 'Race Cup' is being paired")
                continue
            assert error.code == "round_changed"
            assert error.message.startswith(
                "This prompt is out of date: 'Race Cup' has changed since it was shown")
            assert "round 2 was paired at" in error.message
            assert "/round next force:true again" in error.message
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
    async with two_services(tmp_path / "race.sqlite3", mode) as (a, b):
        tid = await _running(a)
        results = await _fifty(
            lambda s: s.pair_next_round(ORG, force=True, round_number=2), a, b)
        _view, errors = _one_winner(results)
        assert all(e.message == "Round 2 of 'Race Cup' is already paired: the next round to "
                   "pair is 3." or e.message.startswith("Round 2 of 'Race Cup' is being paired")
                   for e in errors)
        assert await _assert_consistent(a, tid) == [1, 2]
        assert (await _kinds(a, tid)).count("pairings") == 2


async def test_a_double_click_of_a_forced_next_round_prompt_pairs_one_round(
    tmp_path: Path,
) -> None:
    """Two clicks of one prompt (or two organisers' prompts shown for the same state),
    however far apart: the first pairs round 2, the second is refused. Only a prompt shown
    after round 2 was paired pairs round 3."""
    async with two_services(tmp_path / "race.sqlite3", "one connection") as (a, _):
        tid = await _running(a)
        version, number = await _shown(a, "next")
        first = await a.pair_next_round(ORG, force=True, round_number=number, version=version)
        assert first.number == 2
        with pytest.raises(RoundChangedError,
                           match="Round 2 of 'Race Cup' is already paired: the next round"):
            await a.pair_next_round(ORG, force=True, round_number=number, version=version)
        assert await _assert_consistent(a, tid) == [1, 2]
        version, number = await _shown(a, "next")  # a new prompt, after round 2
        assert (await a.pair_next_round(ORG, force=True, round_number=number,
                                        version=version)).number == 3


async def test_an_older_prompt_is_refused_after_a_newer_one_acted(tmp_path: Path) -> None:
    """Round 2 is undone and paired again: a prompt shown before names round 2 too, but
    the event changed course since, so it is refused (the version, not the round, says so)."""
    async with two_services(tmp_path / "race.sqlite3", "one connection") as (a, _):
        tid = await _running(a)
        await a.pair_next_round(ORG, force=True, round_number=2)
        old_version, old_number = await _shown(a, "next")  # closes round 2, pairs round 3
        await a.undo_round(ORG, round_number=2)
        await a.pair_next_round(ORG, round_number=2)
        with pytest.raises(RoundChangedError, match="This prompt is out of date") as refused:
            await a.pair_next_round(ORG, force=True, round_number=old_number,
                                    version=old_version)
        assert "round 2 was paired at" in refused.value.message
        assert await _assert_consistent(a, tid) == [1, 2]
        assert {g.state for g in (await a.pairings(GUILD, round_number=2)).games} == {"pending"}


async def test_next_round_prompt_shown_before_an_auto_advance_is_refused(
    tmp_path: Path,
) -> None:
    """The automatic pairing is a round change too: an organiser's forced /round next
    confirmed after it must not close the round it just paired."""
    async with two_services(tmp_path / "race.sqlite3", "one connection") as (a, _):
        info = await a.create_tournament(ORG, "Auto Cup", 4, auto_advance_minutes=0, seed=1)
        for uid in range(1, 5):
            await a.join(member(uid))
        r1 = await a.start_tournament(ORG)
        await a.set_result(ORG, 1, r1.games[0].white.user_id, "win")
        version, number = await _shown(a, "next")  # one open game in round 1
        await a.set_result(ORG, 1, r1.games[1].white.user_id, "win")
        assert [v.number for v in await a.run_auto_advances()] == [2]
        with pytest.raises(RoundChangedError, match="Round 2 of 'Auto Cup' is already paired"):
            await a.pair_next_round(ORG, force=True, round_number=number, version=version)
        with pytest.raises(RoundChangedError, match="This prompt is out of date"):
            await a.pair_next_round(ORG, force=True, version=version)
        assert await _assert_consistent(a, info.id) == [1, 2]


# -- /round undo ---------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
async def test_fifty_concurrent_forced_undo_clicks_undo_one_round(
    tmp_path: Path, mode: str
) -> None:
    async with two_services(tmp_path / "race.sqlite3", mode) as (a, b):
        tid = await _running(a)
        await a.pair_next_round(ORG, force=True, round_number=2)
        game = (await a.pairings(GUILD, round_number=2)).games[0]
        await a.set_result(ORG, 2, game.white.user_id, "win")  # undoing it deletes a result
        version, number = await _shown(a, "undo")
        results = await _fifty(lambda s: s.undo_round(ORG, force=True, version=version), a, b)
        view, errors = _one_winner(results)
        assert view.number == number == 2  # type: ignore[attr-defined]
        for error in errors:
            assert error.message.startswith("This prompt is out of date: 'Race Cup'")
            assert "round 2 was undone at" in error.message
        assert await _assert_consistent(a, tid) == [1]
        assert (await _actions(a, tid)).count("round.undo") == 1
        assert (await _kinds(a, tid)).count("round_undone") == 1
        # Round 1 keeps the results the forced pairing of round 2 gave it.
        assert {g.state for g in (await a.pairings(GUILD, round_number=1)).games} == {"final"}


@pytest.mark.parametrize("mode", MODES)
async def test_fifty_concurrent_undo_calls_naming_round_two_undo_it_once(
    tmp_path: Path, mode: str
) -> None:
    async with two_services(tmp_path / "race.sqlite3", mode) as (a, b):
        tid = await _running(a)
        await a.pair_next_round(ORG, force=True, round_number=2)
        results = await _fifty(lambda s: s.undo_round(ORG, force=True, round_number=2), a, b)
        _view, errors = _one_winner(results)
        assert all(e.message == "Round 2 of 'Race Cup' was already undone: its latest round "
                   "is 1." for e in errors)
        assert await _assert_consistent(a, tid) == [1]


async def test_undo_naming_a_round_that_is_not_the_latest_is_refused(tmp_path: Path) -> None:
    async with two_services(tmp_path / "race.sqlite3", "one connection") as (a, _):
        tid = await _running(a)
        await a.pair_next_round(ORG, force=True, round_number=2)
        with pytest.raises(RoundChangedError, match="Round 1 of 'Race Cup' is not the latest"):
            await a.undo_round(ORG, force=True, round_number=1)
        with pytest.raises(RoundChangedError, match="Round 3 of 'Race Cup' is not paired"):
            await a.undo_round(ORG, force=True, round_number=3)
        assert await _assert_consistent(a, tid) == [1, 2]


async def test_undo_prompt_shown_before_a_pairing_does_not_undo_the_new_round(
    tmp_path: Path,
) -> None:
    async with two_services(tmp_path / "race.sqlite3", "one connection") as (a, _):
        tid = await _running(a)
        game = (await a.pairings(GUILD, round_number=1)).games[0]
        await a.set_result(ORG, 1, game.white.user_id, "win")
        version, number = await _shown(a, "undo")  # undoes round 1
        await a.pair_next_round(ORG, force=True, round_number=2)  # another organiser
        with pytest.raises(RoundChangedError, match="Round 1 of 'Race Cup' is not the latest"):
            await a.undo_round(ORG, force=True, round_number=number, version=version)
        with pytest.raises(RoundChangedError, match="This prompt is out of date"):
            await a.undo_round(ORG, force=True, version=version)
        assert await _assert_consistent(a, tid) == [1, 2]


# -- /tournament finish --------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
async def test_forced_finish_shown_before_a_pairing_does_not_forfeit_the_new_round(
    tmp_path: Path, mode: str
) -> None:
    async with two_services(tmp_path / "race.sqlite3", mode) as (a, b):
        tid = await _running(a)
        version, _number = await _shown(a, "finish")
        await b.pair_next_round(ORG, force=True, round_number=2)
        with pytest.raises(RoundChangedError, match="This prompt is out of date"):
            await a.finish_tournament(ORG, force=True, version=version)
        with pytest.raises(RoundChangedError, match="is at round 2, not 1"):
            await a.finish_tournament(ORG, force=True, round_number=1)
        assert (await a.tournament_info(GUILD)).status == "running"
        assert {g.state for g in (await a.pairings(GUILD, round_number=2)).games} == {"pending"}
        version, number = await _shown(a, "finish")
        results = await _fifty(
            lambda s: s.finish_tournament(ORG, force=True, round_number=number,
                                          version=version), a, b)
        ok = [r for r in results if not isinstance(r, BaseException)]
        assert len(ok) == 1
        assert all(isinstance(r, ServiceError) for r in results if r not in ok)
        assert (await _kinds(a, tid)).count("final_standings") == 1
        await _assert_consistent(a, tid)


# -- /report -------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
async def test_report_for_round_one_is_not_recorded_on_round_two(
    tmp_path: Path, mode: str
) -> None:
    """A player reports round 1 (a button of his round 1 game) while an organiser
    force-pairs round 2: the report must not land on the player's round 2 game."""
    async with two_services(tmp_path / "race.sqlite3", mode) as (a, b):
        tid = await _running(a)
        game = (await a.pairings(GUILD, round_number=1)).games[0]
        await b.pair_next_round(ORG, force=True, round_number=2)
        with pytest.raises(RoundChangedError) as refused:
            await a.report_result(member(game.white.user_id), "win", round_number=1)
        assert refused.value.message.startswith(
            "This was meant for round 1 of 'Race Cup', but your current game is in round 2")
        assert "your report was not recorded" in refused.value.message
        assert "/result set" in refused.value.message
        round_two = await a.pairings(GUILD, round_number=2)
        assert {g.state for g in round_two.games} == {"pending"}
        assert "result.report" not in await _actions(a, tid)
        # Meant for round 2, the same report is recorded.
        outcome = await a.report_result(member(game.white.user_id), "win", round_number=2)
        assert outcome.status == "awaiting_confirmation"
