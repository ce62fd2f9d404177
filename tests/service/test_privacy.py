"""A member's data on request (service.privacy, storage.privacy): the export, the forget and
the retention of finished events, on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from pathlib import Path

import pytest

from service import InvalidInputError, NotManagerError, RoundChangedError, ServiceError
from service.errors import ConflictError
from storage import journal
from tests.privacy_helpers import (
    ORG,
    TARGET,
    TARGET_NAME,
    audit_entries,
    database_text,
    play_event,
    table_of,
    target,
)
from tests.service_helpers import (
    GUILD,
    MODES,
    START,
    Clock,
    manager,
    member,
    open_service,
    two_services,
)

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

_ = RoundChangedError  # (imported for the readers of the refusals below)


async def test_the_export_holds_his_events_games_and_settings(tmp_path: Path) -> None:
    async with open_service(tmp_path / "p.sqlite3") as service:
        await play_event(service, "Spring Open")
        await service.create_tournament(ORG, "Next Cup", 3)
        await service.join(target(), "Next Cup")
        await service.set_dm(target(), True)
        exported = await service.privacy_export(target())
        data = json.loads(exported.content)
        assert exported.filename.endswith(".json") and exported.events == 2
        assert data["user_id"] == TARGET and data["server_id"] == GUILD
        spring = next(e for e in data["events"] if e["tournament"] == "Spring Open")
        assert spring["name"] == TARGET_NAME and len(spring["games"]) + len(spring["byes"]) == 3
        assert {g["result"] for g in spring["games"]} <= {"1-0", "0-1", "1/2-1/2"}
        assert data["direct_messages"]["enabled"]
        assert any(a["action"] == "result.report" or "report" in a["action"]
                   for a in data["actions"])
        # another member's export says nothing about him
        other = json.loads((await service.privacy_export(member(101))).content)
        assert str(TARGET) not in json.dumps(other["events"])


async def test_forget_leaves_nothing_of_him_and_the_standings_as_they_were(
    tmp_path: Path,
) -> None:
    async with open_service(tmp_path / "p.sqlite3") as service:
        tid = await play_event(service, "Spring Open")
        await service.set_dm(target(), True)
        running = await play_event(service, "Summer Open", finish=False, rounds=3, seed=2)
        before = table_of(await service.standings(GUILD, tid))
        before_running = table_of(await service.standings(GUILD, running))
        assert TARGET_NAME in await database_text(service)

        outcome = await service.privacy_forget(target())

        assert outcome.forgotten and outcome.pseudonym == "Withdrawn player 1"
        assert table_of(await service.standings(GUILD, tid)) == before
        # in the running event he withdraws from the next round; his points stay
        after_running = table_of(await service.standings(GUILD, running))
        assert [row[:5] for row in after_running] == [row[:5] for row in before_running]
        dump = await database_text(service)
        assert str(TARGET) not in dump
        assert TARGET_NAME not in dump
        names = {row.name for row in (await service.standings(GUILD, tid)).rows}
        assert "Withdrawn player 1" in names
        # the audit log says it happened and who asked, nothing else
        assert await audit_entries(service, "privacy.forget") == [(0, "Withdrawn player 1")]


async def test_forget_twice_is_harmless(tmp_path: Path) -> None:
    async with open_service(tmp_path / "p.sqlite3") as service:
        tid = await play_event(service, "Spring Open")
        first = await service.privacy_forget(target())
        table = table_of(await service.standings(GUILD, tid))
        dump = await database_text(service)
        second = await service.privacy_forget(target())
        assert first.forgotten and not second.forgotten and second.rows == 0
        assert table_of(await service.standings(GUILD, tid)) == table
        assert await database_text(service) == dump  # nothing written, not even a number
        summary = await service.privacy_summary(target())
        assert not summary.stored and summary.entries == 0


async def test_nothing_waiting_in_the_outbox_posts_his_name_again(tmp_path: Path) -> None:
    async with open_service(tmp_path / "p.sqlite3") as service:
        await play_event(service, "Spring Open")
        await service.set_dm(target(), True)
        await service.set_dm(member(101), True)
        await play_event(service, "Summer Open", finish=False, seed=3)
        waiting = await service.pending_announcements(limit=500)
        assert any(TARGET_NAME in json.dumps(a.payload) for a in waiting)
        assert any(a.channel_id is None and a.payload.get("user_id") == TARGET for a in waiting)

        await service.privacy_forget(target())

        waiting = await service.pending_announcements(limit=500)
        assert waiting  # the others' announcements are still to be posted...
        for announcement in waiting:  # ...without his name, his id or a DM to him
            text = json.dumps(announcement.payload)
            assert TARGET_NAME not in text and str(TARGET) not in text
        assert any("Withdrawn player 1" in json.dumps(a.payload) for a in waiting)
        # his direct messages are gone, not left without a recipient
        direct = [a for a in await service.announcements()
                  if a.channel_id is None and "user_id" in a.payload]  # a DM names its member
        assert direct and all(a.payload.get("user_id") is not None for a in direct)
        exported = await service.export_files(GUILD, "json", "Spring Open", what="all")
        for file in exported:
            assert TARGET_NAME not in file.content and str(TARGET) not in file.content


async def test_forget_is_scoped_to_the_server(tmp_path: Path) -> None:
    async with open_service(tmp_path / "p.sqlite3") as service:
        await play_event(service, "Spring Open")
        elsewhere = member(TARGET, guild=GUILD + 1, name=TARGET_NAME)
        other_org = member(5, guild=GUILD + 1)
        other_org = type(other_org)(user_id=5, guild_id=GUILD + 1, display_name="Olga",
                                    is_organiser=True)
        await service.create_tournament(other_org, "Other Server Cup", 3)
        await service.join(elsewhere, "Other Server Cup")
        await service.privacy_forget(target())
        players = await service.list_players(GUILD + 1, "Other Server Cup")
        assert [(p.name, p.user_id) for p in players] == [(TARGET_NAME, TARGET)]


async def test_the_prompt_names_the_state_it_was_shown_for(tmp_path: Path) -> None:
    async with open_service(tmp_path / "p.sqlite3") as service:
        await service.create_tournament(ORG, "Next Cup", 3)
        await service.join(target(), "Next Cup")
        shown = await service.privacy_summary(target())
        assert shown.entries == 1
        await service.create_tournament(ORG, "Later Cup", 3)
        await service.join(target(), "Later Cup")
        with pytest.raises(ConflictError, match="changed since"):
            await service.privacy_forget(target(), entries=shown.entries)
        fresh = await service.privacy_summary(target())
        assert (await service.privacy_forget(target(), entries=fresh.entries)).forgotten
        # the same button clicked again: nothing stored any more, harmless
        assert not (await service.privacy_forget(target(), entries=fresh.entries)).forgotten
        # before the start his entries are simply gone
        assert await service.list_players(GUILD, "Next Cup") == []


async def test_only_managers_forget_someone_else(tmp_path: Path) -> None:
    async with open_service(tmp_path / "p.sqlite3") as service:
        await play_event(service, "Spring Open")
        with pytest.raises(NotManagerError):
            await service.privacy_forget(ORG, TARGET)
        with pytest.raises(NotManagerError):
            await service.privacy_forget(member(101), TARGET)
        boss = manager()
        outcome = await service.privacy_forget(boss, TARGET)
        assert outcome.forgotten
        # who asked is kept
        assert await audit_entries(service, "privacy.forget") == [(boss.user_id,
                                                                   boss.display_name)]
        assert str(TARGET) not in await database_text(service)


async def test_bad_requests_are_refused_plainly(tmp_path: Path) -> None:
    async with open_service(tmp_path / "p.sqlite3") as service:
        with pytest.raises(ServiceError, match="retention"):
            await service.set_retention(manager(), -1)
        with pytest.raises(InvalidInputError, match="3650"):
            await service.set_retention(manager(), 100_000)
        with pytest.raises(NotManagerError):
            await service.set_retention(ORG, 30)
        with pytest.raises(ServiceError):
            await service.privacy_forget(target(), True)  # type: ignore[arg-type]


async def test_retention_deletes_only_old_events_and_only_after_their_export(
    tmp_path: Path,
) -> None:
    clock = Clock()
    async with open_service(tmp_path / "p.sqlite3", clock) as service:
        old = await play_event(service, "Old Open", seed=1)
        clock.advance(days=20)
        recent = await play_event(service, "Recent Open", seed=2)
        await play_event(service, "Still Running", finish=False, seed=3)
        await service.set_retention(manager(), 30)
        clock.advance(days=15)  # 'Old Open' ended 35 days ago, 'Recent Open' 15

        first = await service.run_retention()
        again = await service.run_retention()
        assert first.exported == ["Old Open"] and first.deleted == []
        assert again.exported == [] and again.deleted == []  # the export is queued once
        exports = [a for a in await service.announcements(old) if a.kind == "retention_export"]
        assert len(exports) == 1
        files = exports[0].payload["files"]
        assert files and "Old Open" in files[0]["content"]
        assert (await service.tournament_info(GUILD, old)).name == "Old Open"  # still there

        assert await service.mark_delivered(exports[0].id)
        done = await service.run_retention()
        assert done.deleted == ["Old Open"]
        names = {t.name for t in await service.list_tournaments(GUILD, include_closed=True)}
        assert names == {"Recent Open", "Still Running"}
        assert (await service.tournament_info(GUILD, recent)).status == "finished"
        async with service.db.transaction(readonly=True) as conn:
            assert await journal.list_audit(conn, old) == []
            async with conn.execute("SELECT COUNT(*) FROM outbox WHERE tournament_id = ?",
                                    (old,)) as cur:
                assert (await cur.fetchone())[0] == 0
            async with conn.execute("SELECT COUNT(*) FROM audit_log WHERE action ="
                                    " 'retention.delete'") as cur:
                assert (await cur.fetchone())[0] == 1
        assert (await service.run_retention()).deleted == []


async def test_no_retention_keeps_events_for_good(tmp_path: Path) -> None:
    clock = Clock()
    async with open_service(tmp_path / "p.sqlite3", clock) as service:
        await play_event(service, "Old Open")
        clock.advance(days=5000)
        assert (await service.run_retention()).exported == []
        await service.set_retention(manager(), 30)
        await service.set_retention(manager(), 0)
        assert (await service.run_retention()).exported == []


async def test_the_audit_log_takes_redactions_only(tmp_path: Path) -> None:
    async with open_service(tmp_path / "p.sqlite3") as service:
        await service.set_retention(manager(), 30)  # one audit entry
        refused = ("UPDATE audit_log SET actor_name = 'x'",  # not marked as a redaction
                   "UPDATE audit_log SET action = 'x', redacted_at = 'now'",  # what happened
                   "UPDATE audit_log SET created_at = 'x', redacted_at = 'now'",
                   "DELETE FROM audit_log")
        for statement in refused:
            with pytest.raises(Exception, match="append-only"):
                async with service.db.transaction() as conn:
                    await conn.execute(statement)
        async with service.db.transaction() as conn:
            await conn.execute("UPDATE audit_log SET actor_id = 0, actor_name = '', after = NULL,"
                               " redacted_at = 'now'")
        assert await audit_entries(service, "config.retention") == [(0, "")]


@pytest.mark.parametrize("mode", MODES)
async def test_two_processes_export_and_delete_an_event_once(tmp_path: Path, mode: str) -> None:
    async with two_services(tmp_path / "p.sqlite3", mode) as (first, second):
        old = await play_event(first, "Old Open")
        await first.set_retention(manager(), 1)
        later = START + timedelta(days=3)
        runs = await asyncio.gather(first.run_retention(later), second.run_retention(later))
        assert sorted(name for run in runs for name in run.exported) == ["Old Open"]
        (export,) = [a for a in await first.announcements(old) if a.kind == "retention_export"]
        assert await first.mark_delivered(export.id)
        runs = await asyncio.gather(first.run_retention(later), second.run_retention(later))
        assert sorted(name for run in runs for name in run.deleted) == ["Old Open"]
        assert len(await audit_entries(first, "retention.delete")) == 1


@pytest.mark.parametrize("mode", MODES)
async def test_a_forget_clicked_in_two_processes_at_once_happens_once(
    tmp_path: Path, mode: str,
) -> None:
    async with two_services(tmp_path / "p.sqlite3", mode) as (first, second):
        tid = await play_event(first, "Spring Open")
        table = table_of(await first.standings(GUILD, tid))
        outcomes = await asyncio.gather(first.privacy_forget(target(), entries=1),
                                        second.privacy_forget(target(), entries=1))
        assert sorted(o.forgotten for o in outcomes) == [False, True]
        assert await audit_entries(first, "privacy.forget") == [(0, "Withdrawn player 1")]
        assert table_of(await second.standings(GUILD, tid)) == table


async def test_his_place_before_the_start_goes_to_the_first_waiting(tmp_path: Path) -> None:
    async with open_service(tmp_path / "p.sqlite3") as service:
        await service.create_tournament(ORG, "Small Cup", 3)
        await service.edit_tournament(ORG, "Small Cup", capacity=2)
        for actor in (target(), member(101), member(102)):
            await service.join(actor, "Small Cup")  # 102 waits
        assert {p.user_id for p in await service.list_players(GUILD, "Small Cup")} == {
            TARGET, 101}
        await service.privacy_forget(target())
        assert {p.user_id for p in await service.list_players(GUILD, "Small Cup")} == {101, 102}
        assert str(TARGET) not in await database_text(service)


async def test_each_server_keeps_its_events_for_its_own_retention(tmp_path: Path) -> None:
    clock = Clock()
    async with open_service(tmp_path / "p.sqlite3", clock) as service:
        other = manager(guild=GUILD + 1)
        for boss in (manager(), other):
            await service.create_tournament(boss, "Called Off", 3)
            await service.cancel_tournament(boss, "Called Off")
        await service.set_retention(manager(), 30)
        await service.set_retention(other, 100)
        clock.advance(days=31)
        assert (await service.run_retention()).exported == ["Called Off"]  # this server's
        assert [a.guild_id for a in await service.announcements()
                if a.kind == "retention_export"] == [GUILD]
        clock.advance(days=70)
        assert (await service.run_retention()).exported == ["Called Off"]  # the other's
