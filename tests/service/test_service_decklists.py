"""Decklists / team lists: submitted before the deadline, hidden until published, locked
after the start, organisers see everything, exported with the event (JSON, CSV; not TRF)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from service import (
    ConflictError,
    InvalidInputError,
    NotFoundError,
    NotOrganiserError,
    PermissionDeniedError,
    RegistrationClosedError,
    TournamentService,
)
from service.limits import MAX_DECKLIST_TEXT
from storage import journal
from tests.service_helpers import GUILD, Clock, member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()
ANN, BOB, CY = member(11, name="Ann"), member(12, name="Bob"), member(13, name="Cy")
DECK = "4 Lightning Bolt\n4 Goblin Guide\n20 Mountain"


async def _event(service: TournamentService, mode: str = "text", **extra: str) -> int:
    info = await service.create_tournament(ORG, "Modern Cup", 3, scoring="match",
                                           decklists=mode, **extra)
    for who in (ANN, BOB, CY):
        await service.join(who)
    return info.id


async def test_hidden_before_publishing_then_visible(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        tid = await _event(service)
        mine = await service.submit_decklist(ANN, DECK)
        assert mine.content == DECK and not mine.published
        assert (await service.show_decklist(ANN)).content == DECK  # own list: always
        with pytest.raises(PermissionDeniedError, match="hidden until an organiser"):
            await service.show_decklist(BOB, "<@11>")
        assert (await service.show_decklist(ORG, "<@11>")).content == DECK  # organisers
        with pytest.raises(NotFoundError, match="Bob has not submitted"):
            await service.show_decklist(ORG, "<@12>")
        with pytest.raises(NotOrganiserError):
            await service.publish_decklists(BOB)
        status = await service.decklist_status(ORG)
        assert [s.name for s in status.submitted] == ["Ann"]
        assert {s.name for s in status.missing} == {"Bob", "Cy"}
        await service.publish_decklists(ORG)
        with pytest.raises(ConflictError, match="already published"):
            await service.publish_decklists(ORG)  # a double click publishes once
        shown = await service.show_decklist(BOB, "<@11>")
        assert shown.content == DECK and shown.published
        async with service.db.transaction(readonly=True) as conn:
            audit = await journal.list_audit(conn, tid)
        actions = [r.action for r in audit]
        assert actions.count("decklist.submit") == 1 and actions.count("decklist.publish") == 1
        assert DECK not in str([(r.before, r.after) for r in audit])  # hidden lists stay hidden


async def test_locked_after_the_start_and_at_the_deadline(tmp_path: Path) -> None:
    clock = Clock()
    async with open_service(tmp_path / "t.sqlite3", clock) as service:
        await _event(service)
        await service.submit_decklist(ANN, DECK)
        await service.submit_decklist(ANN, DECK + "\n1 Ajani")  # replaced before the start
        assert (await service.show_decklist(ANN)).content.endswith("Ajani")
        await service.start_tournament(ORG)
        with pytest.raises(RegistrationClosedError, match="decklists are locked"):
            await service.submit_decklist(BOB, DECK)
        with pytest.raises(RegistrationClosedError):
            await service.submit_decklist(ORG, DECK, player="<@12>")
    async with open_service(tmp_path / "u.sqlite3", clock) as service:
        deadline = (clock.now.replace(microsecond=0)).isoformat()
        await service.create_tournament(ORG, "Early", 3, decklists="text",
                                        decklist_deadline=deadline)
        await service.join(ANN)
        clock.advance(seconds=-60)
        await service.submit_decklist(ANN, DECK)
        clock.advance(seconds=120)
        with pytest.raises(RegistrationClosedError, match="closed at"):
            await service.submit_decklist(ANN, DECK)  # before the start, after the deadline


async def test_modes_and_input_checks(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await service.create_tournament(ORG, "No lists", 3)
        await service.join(ANN)
        with pytest.raises(ConflictError, match="does not take decklists"):
            await service.submit_decklist(ANN, DECK)
        await service.edit_tournament(ORG, decklists="link")
        for bad in ("javascript:alert(1)", "data:text/html,hi", "file:///etc/passwd",
                    "https://", "ftp://example.com/x", "https://exa mple.com",
                    "https://x.com/\u0000"):
            with pytest.raises(InvalidInputError):
                await service.submit_decklist(ANN, bad)
        ok = await service.submit_decklist(ANN, " https://moxfield.com/decks/abc ")
        assert ok.content == "https://moxfield.com/decks/abc"
        await service.edit_tournament(ORG, decklists="text")
        with pytest.raises(InvalidInputError, match="too long"):
            await service.submit_decklist(ANN, "x" * (MAX_DECKLIST_TEXT + 1))
        with pytest.raises(InvalidInputError, match="empty"):
            await service.submit_decklist(ANN, "   ")
        with pytest.raises(InvalidInputError):
            await service.edit_tournament(ORG, decklists="video")
        with pytest.raises(InvalidInputError, match="deadline 'tomorrow': give a time of day"):
            await service.edit_tournament(ORG, decklist_deadline="tomorrow")
        with pytest.raises(NotOrganiserError):
            await service.submit_decklist(BOB, DECK, player="<@11>")


async def test_exported_with_the_event_once_published(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _event(service)
        await service.submit_decklist(ANN, DECK)
        await service.submit_decklist(ORG, "Team: Cy, guest", player="<@13>")
        hidden = json.loads((await service.export(GUILD, "json")).content)
        assert "decklists" not in hidden
        for_organiser = json.loads((await service.export(GUILD, "json", viewer=ORG)).content)
        assert {d["name"]: d["decklist"] for d in for_organiser["decklists"]} == {
            "Ann": DECK, "Cy": "Team: Cy, guest"}
        await service.publish_decklists(ORG)
        public = json.loads((await service.export(GUILD, "json", viewer=BOB)).content)
        assert len(public["decklists"]) == 2
        table = (await service.export(GUILD, "csv", table="players")).content
        rows = {r["name"]: r["decklist"] for r in csv.DictReader(io.StringIO(table))}
        assert rows == {"Ann": DECK, "Bob": "", "Cy": "Team: Cy, guest"}
        await service.start_tournament(ORG)
        trf = (await service.export(GUILD, "trf")).content
        assert "Lightning" not in trf
