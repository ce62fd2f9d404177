"""Entry and player-side requests (issue 15 items 5 and 7): capacity and waitlist (a promotion
racing joins), role and rating conditions, registration and check-in windows with the
reminder, bye requests and leave requests that organisers approve or deny."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest

from service import (
    ConflictError,
    InvalidInputError,
    PermissionDeniedError,
    PlayerView,
    RegistrationClosedError,
    TournamentService,
    WaitingView,
)
from storage import journal
from tests.service_helpers import Clock, member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()


def _admitted(players: list[PlayerView]) -> int:
    return sum(1 for p in players if p.status in ("registered", "active"))


async def _notices(service: TournamentService, tid: int) -> list[tuple[int, str]]:
    return [(a.payload["user_id"], a.payload["text"])
            for a in await service.announcements(tid) if a.kind == "player_notice"]


async def test_waitlist_promotion_racing_joins_never_exceeds_capacity(tmp_path: Path) -> None:
    async with open_service(tmp_path / "e.sqlite3") as service:
        info = await service.create_tournament(ORG, "Small Hall", 3, capacity=4)
        for uid in (1, 2, 3, 4):
            assert isinstance(await service.join(member(uid)), PlayerView)
        waiting = await service.join(member(5))
        assert isinstance(waiting, WaitingView) and waiting.position == 1
        with pytest.raises(ConflictError, match="already on the waitlist"):
            await service.join(member(5))
        # player 1 leaves while two newcomers join, all at once
        results = await asyncio.gather(
            service.leave(member(1)), service.join(member(6)), service.join(member(7)),
        )
        assert isinstance(results[0], PlayerView)
        players = await service.list_players(1000, info.id)
        assert _admitted(players) == 4  # never above capacity
        admitted = {p.user_id for p in players}
        assert 5 in admitted  # the first waiting took the place, not a newcomer
        assert all(isinstance(r, WaitingView) for r in results[1:])
        requests = await service.pending_requests(ORG)
        assert [w.user_id for w in requests.waiting] in ([6, 7], [7, 6])
        assert any(uid == 5 and "you are in" in text
                   for uid, text in await _notices(service, info.id))
        # a removal promotes too; a waiting member can leave the line
        await service.remove_player(ORG, "<@2>")
        assert _admitted(await service.list_players(1000, info.id)) == 4
        left = await service.leave_waitlist(member(requests.waiting[1].user_id))
        assert left.position == 1
        async with service.db.transaction(readonly=True) as conn:
            actions = [a.action for a in await journal.list_audit(conn, info.id)]
        assert actions.count("waitlist.promote") == 2 and "waitlist.leave" in actions


async def test_many_concurrent_joins_fill_exactly_the_capacity(tmp_path: Path) -> None:
    async with open_service(tmp_path / "e.sqlite3") as service:
        info = await service.create_tournament(ORG, "Rush", 3, capacity=5)
        results = await asyncio.gather(*(service.join(member(uid)) for uid in range(10, 30)))
        assert sum(isinstance(r, PlayerView) for r in results) == 5
        assert sorted(r.position for r in results if isinstance(r, WaitingView)) == \
            list(range(1, 16))
        assert _admitted(await service.list_players(1000, info.id)) == 5


async def test_role_and_rating_conditions(tmp_path: Path) -> None:
    async with open_service(tmp_path / "e.sqlite3") as service:
        await service.create_tournament(ORG, "Members Only", 3, required_role_id=77,
                                        min_rating=1200, max_rating=1800)
        with pytest.raises(PermissionDeniedError, match="needs the <@&77> role"):
            await service.join(member(1), rating=1500)
        with_role = dataclasses.replace(member(1), roles=frozenset({77}))
        with pytest.raises(InvalidInputError, match="give your rating"):
            await service.join(with_role)
        with pytest.raises(PermissionDeniedError, match="yours is 1900"):
            await service.join(with_role, rating=1900)
        assert isinstance(await service.join(with_role, rating=1500), PlayerView)
        # an organiser adding a player vouches for him
        await service.add_player(ORG, "Guest Star", rating=2500)
        with pytest.raises(InvalidInputError, match="lowest rating"):
            await service.edit_tournament(ORG, min_rating=1900, max_rating=1800)


async def test_checkin_window_closing_drops_the_absent_at_start_and_reminds_once(
    tmp_path: Path,
) -> None:
    clock = Clock()
    async with open_service(tmp_path / "e.sqlite3", clock) as service:
        opens, closes = clock.now.replace(hour=13), clock.now.replace(hour=14)
        info = await service.create_tournament(
            ORG, "Evening", 3, checkin=True, checkin_opens=opens.isoformat(),
            checkin_closes=closes.isoformat(), registration_closes=opens.isoformat(),
        )
        for uid in (1, 2, 3, 4):
            await service.join(member(uid))
        with pytest.raises(RegistrationClosedError, match="check-in opens"):
            await service.check_in(member(1))
        assert await service.run_checkin_reminders() == []  # not open yet
        clock.advance(hours=1, minutes=10)  # 13:10: check-in open, registration closed
        with pytest.raises(RegistrationClosedError, match="registration closed"):
            await service.join(member(9))
        assert await service.run_checkin_reminders() == [info.id]
        assert await service.run_checkin_reminders() == []  # once
        reminder = [a for a in await service.announcements(info.id) if a.kind == "checkin_open"]
        assert len(reminder) == 1 and sorted(reminder[0].payload["users"]) == [1, 2, 3, 4]
        for uid in (1, 2, 3):
            await service.check_in(member(uid))
        clock.advance(hours=1)  # 14:10: closed
        with pytest.raises(RegistrationClosedError, match="check-in closed"):
            await service.check_in(member(4))
        await service.start_tournament(ORG)
        status = {p.user_id: p.status for p in await service.list_players(1000, info.id)}
        assert status == {1: "active", 2: "active", 3: "active", 4: "no_show"}


async def _running(service: TournamentService, **settings: object) -> int:
    info = await service.create_tournament(ORG, "Requests Cup", 4, seed=3, **settings)  # type: ignore[arg-type]
    for uid in range(1, 7):
        await service.join(member(uid))
    await service.start_tournament(ORG)
    return info.id


async def test_bye_request_approved_reaches_the_pairing_denied_does_not(
    tmp_path: Path,
) -> None:
    async with open_service(tmp_path / "e.sqlite3") as service:
        tid = await _running(service, player_byes="half")
        with pytest.raises(InvalidInputError, match="zero bye"):
            await service.request_bye(member(1), 2, kind="zero")
        asked = await service.request_bye(member(1), 2, kind="half")
        assert asked.status == "pending"
        await service.request_bye(member(2), 3, kind="half")
        pending = await service.pending_requests(ORG)
        assert [(b.player.user_id, b.round) for b in pending.byes] == [(1, 2), (2, 3)]
        approved = await service.decide_bye_request(ORG, "<@1>", 2, approve=True)
        assert approved.status == "approved"
        with pytest.raises(ConflictError, match="no bye request"):  # decided once only
            await service.decide_bye_request(ORG, "<@1>", 2, approve=False)
        await service.decide_bye_request(ORG, "<@2>", 3, approve=False)
        assert (await service.pending_requests(ORG)).byes == ()
        r1 = await service.pairings(1000, tid)
        for g in r1.games:
            await service.set_result(ORG, 1, f"#{g.white.number}", "draw")
        r2 = await service.pair_next_round(ORG)
        byes = {(b.player.user_id, b.kind) for b in r2.byes}
        assert (1, "half") in byes and not any(u == 2 for u, _ in byes)  # 5 play: one PAB
        notices = await _notices(service, tid)
        assert any(u == 1 and "approved" in t for u, t in notices)
        assert any(u == 2 and "denied" in t for u, t in notices)


async def test_a_pending_bye_request_does_not_reach_the_pairing(tmp_path: Path) -> None:
    async with open_service(tmp_path / "e.sqlite3") as service:
        tid = await _running(service)
        await service.request_bye(member(1), 2)
        r1 = await service.pairings(1000, tid)
        for g in r1.games:
            await service.set_result(ORG, 1, f"#{g.white.number}", "draw")
        r2 = await service.pair_next_round(ORG)
        assert r2.byes == () and len(r2.games) == 3
        with pytest.raises(ConflictError, match="already paired"):
            await service.decide_bye_request(ORG, "<@1>", 2, approve=True)
        assert (await service.pending_requests(ORG)).byes == ()  # no longer listed


async def test_leave_after_start_waits_for_an_organiser(tmp_path: Path) -> None:
    async with open_service(tmp_path / "e.sqlite3") as service:
        tid = await _running(service)
        await service.request_leave(member(3))
        with pytest.raises(ConflictError, match="already asked"):
            await service.request_leave(member(3))
        await service.request_leave(member(4))
        assert [s.user_id for s in (await service.pending_requests(ORG)).leaves] == [3, 4]
        dropped = await service.decide_leave_request(ORG, "<@3>", approve=True)
        assert dropped.status == "withdrawn" and dropped.withdrawn_round == 2
        kept = await service.decide_leave_request(ORG, "<@4>", approve=False)
        assert kept.status == "active"
        with pytest.raises(ConflictError, match="no leave request"):
            await service.decide_leave_request(ORG, "<@4>", approve=True)
        notices = await _notices(service, tid)
        assert any(u == 3 and "you are withdrawn" in t for u, t in notices)
        assert any(u == 4 and "you still play" in t for u, t in notices)
        async with service.db.transaction(readonly=True) as conn:
            actions = [a.action for a in await journal.list_audit(conn, tid)]
        assert {"leave.request", "leave.approve", "leave.deny"} <= set(actions)


