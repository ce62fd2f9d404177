"""Issue 16 items 1 and 2 at the service level: the game-thread setting and its outbox rows,
problems told once per round, threads to archive; /notify dm and the DM rows (pairing, result
to confirm, final placing, the reminder hook), closed DMs remembered."""

from __future__ import annotations

from pathlib import Path

import pytest

from service import TournamentService
from service.outbox import GIVEN_UP
from storage import journal
from storage import tournaments as tournament_repo
from tests.service_helpers import GUILD, OTHER_GUILD, member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser(user_id=7)
PLAYERS = range(101, 105)


async def _start(service: TournamentService, *, threads: bool = False, rounds: int = 2):
    await service.create_tournament(ORG, "Notify Cup", rounds, seed=3, game_threads=threads,
                                    channel_id=555)
    for uid in PLAYERS:
        await service.join(member(uid))
    return await service.start_tournament(ORG)


async def _kinds(service: TournamentService) -> list[str]:
    return [a.kind for a in await service.announcements()]


async def test_game_threads_are_off_by_default_and_queue_one_row_per_board(
    tmp_path: Path,
) -> None:
    async with open_service(tmp_path / "n.sqlite3") as service:
        await _start(service)
        assert (await service.tournament_info(GUILD)).settings.game_threads is False
        assert "game_thread" not in await _kinds(service)
    async with open_service(tmp_path / "m.sqlite3") as service:
        view = await _start(service, threads=True)
        rows = [a for a in await service.announcements() if a.kind == "game_thread"]
        assert len(rows) == len(view.games) == 2
        assert {r.channel_id for r in rows} == {555}  # opened in the event channel
        assert {r.payload["game"]["id"] for r in rows} == {g.id for g in view.games}
        kinds = await _kinds(service)
        assert kinds.index("pairings") < kinds.index("game_thread")  # pairing first


async def test_game_threads_can_be_switched_on_while_running(tmp_path: Path) -> None:
    async with open_service(tmp_path / "n.sqlite3") as service:
        await _start(service)
        info = await service.edit_tournament(ORG, game_threads=True)
        assert info.settings.game_threads is True


async def test_thread_rows_remember_the_thread_and_problems_are_told_once_per_round(
    tmp_path: Path,
) -> None:
    async with open_service(tmp_path / "n.sqlite3") as service:
        view = await _start(service, threads=True)
        first, second = [a for a in await service.announcements() if a.kind == "game_thread"]
        assert await service.remember_thread(first.id, 9001, private=True) is True
        # a second opening for the same game does not replace the stored thread
        assert await service.remember_thread(first.id, 9002, private=True) is False
        stored = await service.game_thread(first.payload["game"]["id"])
        assert stored is not None and stored.thread_id == 9001 and stored.private
        assert await service.thread_problem(second.id, "missing Create Private Threads") is True
        assert await service.thread_problem(second.id, "missing Create Private Threads") is False
        notices = [a for a in await service.announcements() if a.kind == "thread_problem"]
        assert len(notices) == 1 and notices[0].payload["round"] == 1
        assert notices[0].channel_id == 555
        # a problem on a board that has a thread (a player left) keeps the thread
        await service.thread_problem(first.id, "Ann left the server")
        assert (await service.game_thread(first.payload["game"]["id"])).thread_id == 9001
        # archive once final
        assert await service.threads_to_archive() == []
        game = next(g for g in view.games if g.id == first.payload["game"]["id"])
        await service.report_result(member(game.white.user_id), "win")
        await service.confirm_result(member(game.black.user_id), game.id)
        due = await service.threads_to_archive(GUILD)
        assert [t.thread_id for t in due] == [9001]
        assert await service.threads_to_archive(OTHER_GUILD) == []
        assert await service.thread_archived(game.id) is True
        assert await service.thread_archived(game.id) is False
        assert await service.threads_to_archive() == []


async def test_threads_of_an_undone_round_are_archived(tmp_path: Path) -> None:
    async with open_service(tmp_path / "n.sqlite3") as service:
        await _start(service, threads=True)
        row = next(a for a in await service.announcements() if a.kind == "game_thread")
        await service.remember_thread(row.id, 77, private=False)
        await service.undo_round(ORG, force=True)
        assert [t.thread_id for t in await service.threads_to_archive()] == [77]


async def test_dms_only_for_members_who_opted_in(tmp_path: Path) -> None:
    async with open_service(tmp_path / "n.sqlite3") as service:
        await service.set_dm(member(101), True)
        await service.set_dm(member(102), True)
        await service.set_dm(member(102), False)  # changed his mind
        await service.set_dm(member(101, guild=OTHER_GUILD), False)  # per guild
        view = await _start(service)
        dms = [a for a in await service.announcements() if a.kind.startswith("dm_")]
        assert [(a.kind, a.payload["user_id"]) for a in dms] == [("dm_pairing", 101)]
        assert dms[0].channel_id is None
        game = next(g for g in view.games if 101 in (g.white.user_id, g.black.user_id))
        dm = dms[0].payload
        assert dm["board"] == game.board and dm["round"] == 1
        colour, other = (("white", game.black) if game.white.user_id == 101
                         else ("black", game.white))
        assert dm["opponent"] == other.name and dm["colour"] == colour
        # the result to confirm reaches 101 when his opponent reports
        await service.report_result(member(other.user_id), "win")
        confirm = [a for a in await service.announcements() if a.kind == "dm_confirm"]
        assert len(confirm) == 1 and confirm[0].payload["user_id"] == 101
        assert confirm[0].payload["game_id"] == game.id
        assert confirm[0].payload["guild_id"] == GUILD


async def test_final_placing_and_the_reminder_hook(tmp_path: Path) -> None:
    async with open_service(tmp_path / "n.sqlite3") as service:
        await service.set_dm(member(103), True)
        view = await _start(service, rounds=1)
        t = await service.tournament_info(GUILD)
        async with service.db.transaction() as conn:
            row = await tournament_repo.get_tournament(conn, t.id)
            assert row is not None
            assert await service.queue_dm(conn, row, 103, "dm_reminder",
                                          {"round": 1, "text": "one hour left"}) is not None
            assert await service.queue_dm(conn, row, 104, "dm_reminder", {"round": 1}) is None
            assert await service.queue_dm(conn, row, 103, "not_a_dm", {}) is None
        for game in view.games:
            await service.set_result(ORG, 1, game.white.user_id, "win")
        finals = [a for a in await service.announcements() if a.kind == "dm_final"]
        assert [a.payload["user_id"] for a in finals] == [103]
        assert finals[0].payload["players"] == 4 and finals[0].payload["rank"] >= 1


async def test_closed_dms_are_remembered_and_told_once(tmp_path: Path) -> None:
    async with open_service(tmp_path / "n.sqlite3") as service:
        await service.set_dm(member(101), True)
        view = await _start(service)
        dm = next(a for a in await service.announcements() if a.kind == "dm_pairing")
        assert await service.dm_refused(dm.id) is True
        assert (await service.dm_setting(GUILD, 101)).closed is True
        notices = [a for a in await service.announcements() if a.kind == "dm_closed"]
        assert len(notices) == 1 and notices[0].payload["user_id"] == 101
        assert notices[0].channel_id == 555
        async with service.db.transaction(readonly=True) as conn:
            row = await journal.get_outbox(conn, dm.id)
        assert row is not None and row.next_attempt_at == GIVEN_UP  # never retried
        assert dm.id not in [a.id for a in await service.pending_announcements()]
        # next round: no DM is queued for him
        for game in view.games:
            await service.set_result(ORG, 1, game.white.user_id, "win")
        await service.pair_next_round(ORG)
        assert [a.kind for a in await service.announcements()].count("dm_pairing") == 1
        # opting in again forgets the refusal
        assert (await service.set_dm(member(101), True)).closed is False
        assert (await service.dm_setting(GUILD, 101)).closed is False


async def test_set_dm_is_audited(tmp_path: Path) -> None:
    async with open_service(tmp_path / "n.sqlite3") as service:
        await service.set_dm(member(101), True)
        async with service.db.transaction(readonly=True) as conn:
            cur = await conn.execute("SELECT action, actor_id FROM audit_log")
            rows = [(r["action"], r["actor_id"]) for r in await cur.fetchall()]
        assert ("notify.dm", 101) in rows
