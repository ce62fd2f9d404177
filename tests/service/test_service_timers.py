"""Stored timers through the service with a fake clock: deadline reminders and actions,
no-show claims, automatic drops and scheduled rounds (issue 15 items 2, 3 and 6)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from service import (
    ConflictError,
    InvalidInputError,
    NotYourGameError,
    RoundChangedError,
    TournamentService,
)
from service.errors import PairingInProgressError
from service.pairing_pool import PairingLimits, PairingPool
from storage import journal
from storage import timers as timer_repo
from tests.pairing_jobs import slow_pairing
from tests.service_helpers import START, Clock, member, open_database, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()
CHANNEL = 555


async def _make(
    service: TournamentService, players: int = 4, rounds: int = 3, **settings: Any
) -> int:
    info = await service.create_tournament(ORG, "Timed", rounds, channel_id=CHANNEL, seed=7,
                                           **settings)
    for user in range(1, players + 1):
        await service.join(member(100 + user), info.id)
    return info.id


async def _kinds(service: TournamentService, tid: int) -> list[str]:
    return [a.kind for a in await service.announcements(tid)]


async def _payloads(service: TournamentService, tid: int, kind: str) -> list[dict[str, Any]]:
    return [a.payload for a in await service.announcements(tid) if a.kind == kind]


async def _audit(service: TournamentService, tid: int) -> list[str]:
    async with service.db.transaction(readonly=True) as conn:
        return [row.action for row in await journal.list_audit(conn, tid)]


# -- item 2: deadlines that act --------------------------------------------------------------
async def test_reminders_ping_only_the_players_of_open_games(tmp_path: Path) -> None:
    clock = Clock()
    async with open_service(tmp_path / "t.sqlite3", clock) as service:
        tid = await _make(service, deadline_minutes=60, reminders="15,5",
                          deadline_action="draw")
        view = await service.start_tournament(ORG, tid)
        done, open_game = view.games
        await service.report_result(member(done.white.user_id), "win")
        await service.confirm_result(member(done.black.user_id), done.id)
        clock.advance(minutes=44)
        assert (await service.run_timers()).fired == ()
        clock.advance(minutes=1)
        run = await service.run_timers()
        assert len(run.fired) == 1
        reminders = await _payloads(service, tid, "deadline_reminder")
        assert len(reminders) == 1
        assert sorted(reminders[0]["mention_user_ids"]) == sorted(
            [open_game.white.user_id, open_game.black.user_id])
        assert reminders[0]["minutes_left"] == 15
        assert (await service.run_timers()).fired == ()  # fired once
        clock.advance(minutes=10)
        await service.run_timers()
        assert len(await _payloads(service, tid, "deadline_reminder")) == 2
        clock.advance(minutes=5)
        await service.run_timers()
        passed = await _payloads(service, tid, "deadline_passed")
        assert [d["result"] for d in passed[0]["decided"]] == ["1/2-1/2"]
        rnd = await service.pairings(ORG.guild_id, tid, 1)
        assert rnd.state == "complete"
        assert "result.deadline" in await _audit(service, tid)
        assert "timer.reminder" in await _audit(service, tid)


async def test_deadline_while_the_bot_is_down_fires_once_and_skips_stale_reminders(
    tmp_path: Path,
) -> None:
    clock = Clock()
    path = tmp_path / "t.sqlite3"
    async with open_service(path, clock) as service:
        tid = await _make(service, deadline_minutes=30, reminders="10",
                          deadline_action="double-loss")
        await service.start_tournament(ORG, tid)
    clock.advance(hours=3)  # the bot was down through the reminder and the deadline
    async with open_service(path, clock) as service:
        run = await service.run_timers()
        assert [f.split(": ")[1] for f in run.fired] == ["deadline"]
        assert run.skipped == 1  # the reminder: its deadline had passed
        assert await _payloads(service, tid, "deadline_reminder") == []
        passed = await _payloads(service, tid, "deadline_passed")
        assert len(passed) == 1
        assert {d["result"] for d in passed[0]["decided"]} == {"---"}
        assert (await service.run_timers()).fired == ()
    async with open_service(path, clock) as service:  # and after yet another restart
        assert (await service.run_timers()).fired == ()
        assert len(await _payloads(service, tid, "deadline_passed")) == 1


async def test_restart_between_reminder_and_deadline(tmp_path: Path) -> None:
    clock = Clock()
    path = tmp_path / "t.sqlite3"
    async with open_service(path, clock) as service:
        tid = await _make(service, deadline_minutes=30, reminders="10",
                          deadline_action="remind")
        await service.start_tournament(ORG, tid)
        clock.advance(minutes=21)
        assert len((await service.run_timers()).fired) == 1
    async with open_service(path, clock) as service:
        assert (await service.run_timers()).fired == ()  # the reminder does not repeat
        clock.advance(minutes=10)
        assert len((await service.run_timers()).fired) == 1
        assert len(await _payloads(service, tid, "deadline_reminder")) == 1
        passed = await _payloads(service, tid, "deadline_passed")
        # remind: nothing decided, the organisers are told which games wait
        assert passed[0]["decided"] == [] and len(passed[0]["waiting"]) == 2
        assert (await service.pairings(ORG.guild_id, tid, 1)).state == "playing"


async def test_two_ticks_racing_fire_once(tmp_path: Path) -> None:
    clock = Clock()
    path = tmp_path / "t.sqlite3"
    async with open_service(path, clock) as first, open_service(path, clock) as second:
        tid = await _make(first, deadline_minutes=30, reminders="10",
                          deadline_action="draw")
        await first.start_tournament(ORG, tid)
        clock.advance(minutes=31)
        runs = await asyncio.gather(first.run_timers(), second.run_timers(),
                                    first.run_timers())
        assert sum(len(r.fired) for r in runs) == 1  # the deadline; the reminder is stale
        assert len(await _payloads(first, tid, "deadline_passed")) == 1
        assert (await _kinds(first, tid)).count("round_results") == 1


async def test_dm_reminders_once_per_player_and_time_with_two_processes_racing(
    tmp_path: Path,
) -> None:
    """Two services on one database tick together at each reminder time: each opted-in
    player who still has to act gets one DM reminder per time (the reporter none, the one
    who did not opt in none, nobody for a final game)."""
    clock = Clock()
    path = tmp_path / "t.sqlite3"
    async with open_service(path, clock) as first, open_service(path, clock) as second:
        tid = await _make(first, players=8, deadline_minutes=60, reminders="30,15")
        for user in range(101, 109):
            await first.set_dm(member(user), True)
        view = await first.start_tournament(ORG, tid)
        done, reported, pending, closed = view.games
        await first.report_result(member(done.white.user_id), "win")
        await first.confirm_result(member(done.black.user_id), done.id)
        await first.report_result(member(reported.white.user_id), "win")
        await first.set_dm(member(pending.black.user_id), False)
        # Discord refused closed.white's pairing DM: no reminder is even queued for him
        refused = next(a for a in await first.announcements(tid) if a.kind == "dm_pairing"
                       and a.payload["user_id"] == closed.white.user_id)
        assert await first.dm_refused(refused.id)
        expected = {reported.black.user_id: True, pending.white.user_id: False,
                    closed.black.user_id: False}
        for minutes in (31, 15):
            clock.advance(minutes=minutes)
            await asyncio.gather(first.run_timers(), second.run_timers(), first.run_timers())
        sent = await _payloads(first, tid, "dm_reminder")
        assert sorted(p["user_id"] for p in sent) == sorted([*expected, *expected])
        for payload in sent:
            assert payload["to_confirm"] == expected[payload["user_id"]]
            assert payload["deadline_unix"] == int((START + timedelta(hours=1)).timestamp())
        assert len(await _payloads(first, tid, "deadline_reminder")) == 2  # the channel's too


async def test_reporter_wins_keeps_a_single_report_and_falls_back(tmp_path: Path) -> None:
    clock = Clock()
    async with open_service(tmp_path / "t.sqlite3", clock) as service:
        tid = await _make(service, players=6, deadline_minutes=30,
                          deadline_action="reporter-wins", deadline_fallback="double-loss")
        view = await service.start_tournament(ORG, tid)
        reported, disputed, silent = view.games
        await service.report_result(member(reported.black.user_id), "win")
        await service.report_result(member(disputed.white.user_id), "win")
        await service.report_result(member(disputed.black.user_id), "win")  # contradicts
        clock.advance(minutes=30)
        await service.run_timers()
        after = {g.board: g.result for g in (await service.pairings(ORG.guild_id, tid, 1)).games}
        assert after[reported.board] == "0-1"
        assert after[disputed.board] == "---"
        assert after[silent.board] == "---"


async def test_undone_round_timers_do_not_fire(tmp_path: Path) -> None:
    clock = Clock()
    async with open_service(tmp_path / "t.sqlite3", clock) as service:
        tid = await _make(service, deadline_minutes=30, deadline_action="draw")
        await service.start_tournament(ORG, tid)
        await service.undo_round(ORG, tid, round_number=1)
        clock.advance(minutes=31)
        assert (await service.run_timers()).fired == ()


async def test_timer_settings_are_validated(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        with pytest.raises(InvalidInputError):
            await service.create_tournament(ORG, "A", 3, reminders="15,x")
        with pytest.raises(InvalidInputError):
            await service.create_tournament(ORG, "A", 3, deadline_action="explode")
        with pytest.raises(InvalidInputError):
            await service.create_tournament(ORG, "A", 3, first_round_at="2026-01-02 18:00")
        with pytest.raises(InvalidInputError):
            await service.create_tournament(ORG, "A", 3, first_round_at="tomorrow",
                                            round_interval_minutes=60)
        with pytest.raises(InvalidInputError, match="already passed"):
            await service.create_tournament(ORG, "A", 3, first_round_at=START,
                                            round_interval_minutes=60)
        info = await service.create_tournament(ORG, "A", 3, reminders="5 15 5",
                                               first_round_at="1767290400",
                                               round_interval_minutes=60)
        assert info.settings.reminders == "15,5"
        assert info.settings.first_round_at == "2026-01-01T18:00:00+00:00"


# -- item 3: no-shows ------------------------------------------------------------------------
async def test_noshow_claim_before_the_grace_is_refused_then_expires_into_a_forfeit(
    tmp_path: Path,
) -> None:
    clock = Clock()
    async with open_service(tmp_path / "t.sqlite3", clock) as service:
        tid = await _make(service, noshow_grace_minutes=10)
        view = await service.start_tournament(ORG, tid)
        game = view.games[0]
        claimant = member(game.black.user_id)
        clock.advance(minutes=9)
        with pytest.raises(ConflictError, match="still has time"):
            await service.claim_no_show(claimant, tid)
        clock.advance(minutes=1)
        claim = await service.claim_no_show(claimant, tid)
        assert claim.state == "open" and claim.opponent.user_id == game.white.user_id
        assert (await _payloads(service, tid, "noshow_claim"))[0]["opponent"]["user_id"] == \
            game.white.user_id
        with pytest.raises(ConflictError, match="already claimed"):
            await service.claim_no_show(claimant, tid)
        with pytest.raises(NotYourGameError):
            await service.object_no_show(claimant, game.id)
        clock.advance(minutes=9)
        assert (await service.run_timers()).fired == ()
        clock.advance(minutes=1)
        assert len((await service.run_timers()).fired) == 1
        after = await service.get_game(ORG.guild_id, game.id)
        assert after.result == "--+" and after.state == "final"
        assert "noshow.forfeit" in await _audit(service, tid)
        with pytest.raises(ConflictError, match="granted"):
            await service.object_no_show(member(game.white.user_id), game.id)
        # the organisers can still override
        await service.set_result(ORG, 1, f"#{game.white.number}", "win", tournament=tid)
        assert (await service.get_game(ORG.guild_id, game.id)).result == "1-0"


async def test_noshow_objection_keeps_the_game_open(tmp_path: Path) -> None:
    clock = Clock()
    async with open_service(tmp_path / "t.sqlite3", clock) as service:
        tid = await _make(service, noshow_grace_minutes=5)
        view = await service.start_tournament(ORG, tid)
        game = view.games[0]
        clock.advance(minutes=5)
        await service.claim_no_show(member(game.white.user_id), tid)
        objected = await service.object_no_show(member(game.black.user_id), tournament=tid)
        assert objected.state == "objected"
        clock.advance(minutes=30)
        assert (await service.run_timers()).fired == ()
        assert (await service.get_game(ORG.guild_id, game.id)).state == "pending"
        assert "noshow.object" in await _audit(service, tid)
        assert await _payloads(service, tid, "noshow_objection")


async def test_noshow_off_by_default(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        tid = await _make(service)
        view = await service.start_tournament(ORG, tid)
        with pytest.raises(ConflictError, match="does not use no-show"):
            await service.claim_no_show(member(view.games[0].white.user_id), tid)


async def test_two_missed_games_in_a_row_drop_the_player(tmp_path: Path) -> None:
    clock = Clock()
    async with open_service(tmp_path / "t.sqlite3", clock) as service:
        tid = await _make(service, rounds=4, noshow_grace_minutes=5, noshow_drop_after=2)
        view = await service.start_tournament(ORG, tid)
        absent = view.games[0].white
        for number in (1, 2):
            view = await service.pairings(ORG.guild_id, tid, number)
            for game in view.games:
                if absent.player_id in (game.white.player_id, game.black.player_id):
                    present = game.black if game.white.player_id == absent.player_id else \
                        game.white
                    clock.advance(minutes=5)
                    await service.claim_no_show(member(present.user_id), tid)
                    clock.advance(minutes=5)
                    await service.run_timers()
                else:
                    await service.set_result(ORG, number, f"#{game.white.number}", "draw",
                                             tournament=tid)
            players = {p.id: p for p in await service.list_players(ORG.guild_id, tid)}
            if number == 1:
                assert players[absent.player_id].status == "active"
                await service.pair_next_round(ORG, tid, round_number=2)
        assert players[absent.player_id].status == "withdrawn"
        dropped = await _payloads(service, tid, "player_dropped")
        assert dropped[0]["player"]["player_id"] == absent.player_id
        assert "player.auto_drop" in await _audit(service, tid)
        third = await service.pair_next_round(ORG, tid, round_number=3)
        seated = {s.player_id for g in third.games for s in (g.white, g.black)}
        assert absent.player_id not in seated


# -- item 6: scheduled rounds ----------------------------------------------------------------
async def test_scheduled_rounds_start_by_themselves(tmp_path: Path) -> None:
    clock = Clock()
    async with open_service(tmp_path / "t.sqlite3", clock) as service:
        first = START + timedelta(hours=1)
        tid = await _make(service, rounds=2, first_round_at=first,
                          round_interval_minutes=24 * 60, deadline_minutes=120,
                          deadline_action="draw")
        notice = await _payloads(service, tid, "round_scheduled")
        assert notice[0]["round"] == 1 and notice[0]["at_unix"] == int(first.timestamp())
        clock.now = first
        await service.run_timers()
        info = await service.tournament_info(ORG.guild_id, tid)
        assert info.status == "running" and info.current_round == 1
        notice = await _payloads(service, tid, "round_scheduled")
        assert notice[-1]["round"] == 2
        clock.now = first + timedelta(days=1)
        run = await service.run_timers()
        assert [f.split(": ")[1] for f in run.fired] == ["deadline", "round_start"]
        info = await service.tournament_info(ORG.guild_id, tid)
        assert info.current_round == 2
        assert "timer.round_start" in await _audit(service, tid)


async def test_scheduled_round_waits_for_the_round_before(tmp_path: Path) -> None:
    clock = Clock()
    async with open_service(tmp_path / "t.sqlite3", clock) as service:
        tid = await _make(service, rounds=2, first_round_at=START + timedelta(minutes=1),
                          round_interval_minutes=60, deadline_minutes=90)
        clock.advance(minutes=1)
        await service.run_timers()
        clock.advance(minutes=60)
        await service.run_timers()  # round 1 is still on: wait for its deadline
        assert (await service.tournament_info(ORG.guild_id, tid)).current_round == 1
        clock.advance(minutes=30)
        await service.run_timers()  # the deadline passed: forced like /round next force
        info = await service.tournament_info(ORG.guild_id, tid)
        assert info.current_round == 2
        old = await service.pairings(ORG.guild_id, tid, 1)
        assert {g.result for g in old.games} == {"---"}


@pytest.mark.parametrize("order", ["together", "schedule_first", "organiser_first"])
async def test_schedule_racing_a_manual_round_next_pairs_one_round(
    tmp_path: Path, order: str
) -> None:
    clock = Clock()
    path = tmp_path / "t.sqlite3"
    async with open_service(path, clock) as bot, open_service(path, clock) as other:
        tid = await _make(bot, rounds=3, first_round_at=START + timedelta(minutes=1),
                          round_interval_minutes=60)
        clock.advance(minutes=1)
        await bot.run_timers()
        view = await bot.pairings(ORG.guild_id, tid, 1)
        for game in view.games:
            await bot.set_result(ORG, 1, f"#{game.white.number}", "win", tournament=tid)
        clock.advance(minutes=60)
        # the organiser saw round 1 only: he names round 2
        manual = other.pair_next_round(ORG, tid, round_number=2)
        results: list[Any]
        if order == "together":
            results = list(await asyncio.gather(bot.run_timers(), manual,
                                                return_exceptions=True))
        elif order == "schedule_first":
            results = [await bot.run_timers()]
            with pytest.raises(RoundChangedError, match="already paired"):
                await manual
            results.append(RoundChangedError("refused"))
        else:
            results = [None, await manual]
            results[0] = await bot.run_timers()
        assert (await bot.pairings(ORG.guild_id, tid)).number == 2
        assert (await _kinds(bot, tid)).count("pairings") == 2
        timer_fired = len(results[0].fired) == 1
        # the loser is refused as already paired, or as being paired right now (the schedule
        # then looks again a minute later and finds the round paired)
        assert timer_fired == isinstance(results[1], (RoundChangedError, PairingInProgressError))
        clock.advance(minutes=1)
        assert (await bot.run_timers()).fired == ()
        # the schedule now waits for round 3, an hour after round 2's slot
        pending = await bot.pending_timers(ORG.guild_id, tid)
        assert [(p.kind, p.round_number) for p in pending] == [("round_start", 3)]


@asynccontextmanager
async def pooled(path: Path, clock: Clock, job: object = None
                 ) -> AsyncIterator[TournamentService]:
    """A service that pairs every round of 2 players or more in a worker process."""
    db = await open_database(path)
    pool = PairingPool(PairingLimits(inline_below=2), job=job)  # type: ignore[arg-type]
    try:
        yield TournamentService(db, clock=clock, pairing=pool)
    finally:
        pool.close()
        await db.close()


async def _round_start_timers(service: TournamentService, tid: int) -> list[tuple[int, str]]:
    async with service.db.transaction(readonly=True) as conn:
        return [(t.round_number, t.outcome or "pending")
                for t in await timer_repo.list_timers(conn, tid) if t.kind == "round_start"]


@pytest.mark.slow
async def test_a_big_scheduled_round_is_paired_in_a_worker_and_fires_once(
    tmp_path: Path,
) -> None:
    clock = Clock()
    async with pooled(tmp_path / "t.sqlite3", clock) as service:
        tid = await _make(service, players=6, rounds=3, first_round_at=START + timedelta(hours=1),
                          round_interval_minutes=60)
        clock.advance(hours=1)
        assert len((await service.run_timers()).fired) == 1  # round 1: the start
        for game in (await service.pairings(ORG.guild_id, tid)).games:
            await service.set_result(ORG, 1, f"#{game.white.number}", "win", tournament=tid)
        clock.advance(hours=1)
        run = await service.run_timers()
        assert [f.split(": ")[1] for f in run.fired] == ["round_start"]
        assert service.pairing.worker_pids()  # not inline: a worker process paired it
        assert (await _kinds(service, tid)).count("pairing_progress") == 2
        assert (await service.tournament_info(ORG.guild_id, tid)).current_round == 2
        assert (await service.run_timers()).fired == ()  # fired once
        assert await _round_start_timers(service, tid) == [
            (1, "fired"), (2, "fired"), (3, "pending")]
        audit = await _audit(service, tid)
        assert audit.count("timer.round_start") == 2 and "round.pairing_failed" not in audit


@pytest.mark.slow
async def test_two_processes_running_the_timers_together_pair_a_scheduled_round_once(
    tmp_path: Path,
) -> None:
    clock = Clock()
    path = tmp_path / "t.sqlite3"
    # the slow job (3 s) keeps the first pass pairing while the second one looks
    async with pooled(path, clock, slow_pairing) as bot, \
            pooled(path, clock, slow_pairing) as other:
        tid = await _make(bot, players=6, rounds=3, first_round_at=START + timedelta(hours=1),
                          round_interval_minutes=60)
        clock.advance(hours=1)
        runs = await asyncio.gather(bot.run_timers(), other.run_timers())
        assert sum(len(r.fired) for r in runs) == 1 and sum(r.failed for r in runs) == 0
        for game in (await bot.pairings(ORG.guild_id, tid)).games:
            await bot.set_result(ORG, 1, f"#{game.white.number}", "win", tournament=tid)
        clock.advance(hours=1)
        runs = await asyncio.gather(bot.run_timers(), other.run_timers())
        assert sum(len(r.fired) for r in runs) == 1 and sum(r.failed for r in runs) == 0
        clock.advance(minutes=1)  # the loser looks again a minute later: nothing left to do
        runs = await asyncio.gather(bot.run_timers(), other.run_timers())
        assert sum(len(r.fired) for r in runs) == 0
        assert (await bot.tournament_info(ORG.guild_id, tid)).current_round == 2
        assert (await _kinds(bot, tid)).count("pairings") == 2
        assert (await _audit(bot, tid)).count("timer.round_start") == 2
        assert await _round_start_timers(bot, tid) == [
            (1, "fired"), (2, "fired"), (3, "pending")]


async def test_a_scheduled_round_refused_for_now_stays_pending_and_is_retried(
    tmp_path: Path,
) -> None:
    clock = Clock()
    async with pooled(tmp_path / "t.sqlite3", clock) as service:
        tid = await _make(service, rounds=3, first_round_at=START + timedelta(minutes=1),
                          round_interval_minutes=60)
        clock.advance(minutes=1)
        await service.run_timers()
        for game in (await service.pairings(ORG.guild_id, tid)).games:
            await service.set_result(ORG, 1, f"#{game.white.number}", "win", tournament=tid)
        clock.advance(minutes=60)
        # 1. busy: every worker slot pairs another event
        slots = [service.pairing.reserve()
                 for _ in range(service.pairing.limits.max_concurrent)]
        run = await service.run_timers()
        assert run.fired == () and run.failed == 0
        assert await _round_start_timers(service, tid) == [(1, "fired"), (2, "pending")]
        for slot in slots:
            service.pairing.release(slot)
        assert (await service.run_timers()).fired == ()  # put off by a minute
        # 2. changed between the look and the store (here: the marker was given up, as a
        # dead process's would be): nothing stored, the timer still pending
        clock.advance(minutes=1)
        real_run = service.pairing.run_then

        async def marker_lost(*args: Any) -> Any:
            service.pairing.run_then = real_run  # type: ignore[method-assign]
            result = await real_run(*args)
            async with service.db.transaction() as conn:
                await conn.execute("DELETE FROM pairing_runs WHERE tournament_id = ?", (tid,))
            return result

        service.pairing.run_then = marker_lost  # type: ignore[method-assign]
        run = await service.run_timers()
        assert run.fired == () and run.failed == 0
        assert (await service.tournament_info(ORG.guild_id, tid)).current_round == 1
        assert (await _round_start_timers(service, tid))[1] == (2, "pending")
        assert (await _audit(service, tid)).count("timer.round_start") == 1
        clock.advance(minutes=1)
        run = await service.run_timers()
        assert [f.split(": ")[1] for f in run.fired] == ["round_start"]
        assert (await service.tournament_info(ORG.guild_id, tid)).current_round == 2
        assert (await _audit(service, tid)).count("timer.round_start") == 2


# -- rendering within Discord's limits ---------------------------------------------------------
async def test_a_scheduled_start_that_cannot_pair_is_announced_once(tmp_path: Path) -> None:
    clock = Clock()
    async with open_service(tmp_path / "t.sqlite3", clock) as service:
        tid = await _make(service, players=1, rounds=2,
                          first_round_at=START + timedelta(minutes=5),
                          round_interval_minutes=60)
        clock.advance(minutes=5)
        run = await service.run_timers()
        assert run.failed == 1 and run.fired == ()
        assert (await service.run_timers()).failed == 0  # not retried at every tick
        failed = await _payloads(service, tid, "timer_failed")
        assert len(failed) == 1 and "at least 2" in failed[0]["error"]
        assert "timer.failed" in await _audit(service, tid)
        assert (await service.tournament_info(ORG.guild_id, tid)).status == "registration"
