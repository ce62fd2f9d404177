"""Announcements that cannot be posted: the problem is recorded in the audit log and shown by
tournament_info until a later announcement gets through; one whose channel is gone is given up
(kept, never retried)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from storage import journal
from tests.service_helpers import GUILD, Clock, member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()
PROBLEM = "missing Send Messages in #tournaments"


async def _started(service) -> int:  # type: ignore[no-untyped-def]
    info = await service.create_tournament(ORG, "Open", 3, channel_id=555)
    for uid in (101, 102, 103, 104):
        await service.join(member(uid))
    await service.start_tournament(ORG)
    return info.id


async def test_a_delivery_problem_is_audited_and_shown_until_a_later_post_succeeds(
    tmp_path: Path,
) -> None:
    clock = Clock()
    async with open_service(tmp_path / "t.sqlite3", clock) as service:
        tid = await _started(service)
        first, *_ = await service.pending_announcements()
        assert (await service.tournament_info(GUILD)).delivery_problem is None
        await service.mark_failed(first.id, PROBLEM, retry_after_seconds=2)
        info = await service.report_delivery_problem(first.id, PROBLEM)
        assert info is not None and info.id == tid and info.created_by == ORG.user_id
        assert (await service.tournament_info(GUILD)).delivery_problem == PROBLEM
        async with service.db.transaction(readonly=True) as conn:
            audit = await journal.list_audit(conn, tid)
        (entry,) = [a for a in audit if a.action == "announcement.failed"]
        assert entry.after["problem"] == PROBLEM and entry.actor_name == "swissbot"
        clock.advance(seconds=3)
        for row in await service.pending_announcements():
            await service.mark_delivered(row.id)
        assert (await service.tournament_info(GUILD)).delivery_problem is None


async def test_an_announcement_given_up_is_never_due_again(tmp_path: Path) -> None:
    clock = Clock()
    async with open_service(tmp_path / "t.sqlite3", clock) as service:
        tid = await _started(service)
        rows = await service.pending_announcements()
        for row in rows:
            assert await service.give_up_announcement(row.id, "the channel was deleted")
        clock.advance(days=3650)
        assert await service.pending_announcements(now=clock.now + timedelta(days=1)) == []
        kept = await service.announcements(tid)
        assert [a.last_error for a in kept] == ["gave up: the channel was deleted"] * len(rows)
        assert "gave up" in ((await service.tournament_info(GUILD)).delivery_problem or "")
        async with service.db.transaction(readonly=True) as conn:
            audit = await journal.list_audit(conn, tid)
        assert [a.action for a in audit].count("announcement.abandoned") == len(rows)
        assert not await service.give_up_announcement(10**6, "no such row")
