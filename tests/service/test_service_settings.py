"""Every setting changed through one operation (``update_settings``): a stale panel is
refused, a repeated change writes nothing, each change is audited, and what would rewrite
played rounds is refused with the reason; ratings the organiser controls."""

from __future__ import annotations

from pathlib import Path

import pytest

from service import (
    InvalidInputError,
    RegistrationClosedError,
    TournamentService,
)
from service.errors import SettingsChangedError
from storage import journal
from tests.service_helpers import GUILD, member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()


async def _edits(service: TournamentService, tid: int) -> list[tuple[object, object]]:
    async with service.db.transaction(readonly=True) as conn:
        return [(a.before, a.after) for a in await journal.list_audit(conn, tid)
                if a.action == "tournament.edit"]


async def _started(service: TournamentService, players: int = 4) -> int:
    info = await service.create_tournament(ORG, "Cup", 5)
    for uid in range(101, 101 + players):
        await service.join(member(uid), rating=1000 + uid)
    await service.start_tournament(ORG)
    return info.id


async def test_a_stale_panel_is_refused_and_a_repeated_change_writes_nothing(
    tmp_path: Path,
) -> None:
    async with open_service(tmp_path / "s.sqlite3") as service:
        info = await service.create_tournament(ORG, "Cup", 5)
        shown = info.settings_version
        first = await service.update_settings(ORG, None, {"capacity": 8, "pictures": True},
                                              version=shown)
        assert first.info.settings_version == shown + 1
        assert {(c.key, c.before, c.after) for c in first.changes} == {
            ("capacity", None, 8), ("pictures", False, True)}
        # the same panel clicked again: refused, nothing changed
        with pytest.raises(SettingsChangedError, match="changed since this panel was shown"):
            await service.update_settings(ORG, None, {"capacity": 9}, version=shown)
        assert (await service.tournament_info(GUILD)).settings.capacity == 8
        # the same values again from the current panel: nothing written, no new version
        again = await service.update_settings(ORG, None, {"capacity": 8},
                                              version=first.info.settings_version)
        assert again.changes == [] and again.info.settings_version == shown + 1
        assert await _edits(service, info.id) == [
            ({"capacity": None, "pictures": False},
             {"capacity": 8, "pictures": True, "applied": None})]


async def test_after_round_one_what_would_rewrite_it_is_refused(tmp_path: Path) -> None:
    async with open_service(tmp_path / "s.sqlite3") as service:
        tid = await _started(service)
        version = (await service.tournament_info(GUILD)).settings_version
        with pytest.raises(RegistrationClosedError,
                           match="has started: checkin can no longer change"):
            await service.update_settings(ORG, None, {"checkin": True}, version=version)
        # the pairing system cannot apply to the standings of played rounds
        with pytest.raises(InvalidInputError, match="Choose 'from the next round'"):
            await service.update_settings(ORG, None, {"system": "monrad"}, version=version,
                                          apply="standings")
        with pytest.raises(InvalidInputError, match="Choose 'standings only'"):
            await service.update_settings(ORG, None, {"tiebreaks": "lichess"},
                                          version=version, apply="next-round")
        assert (await service.tournament_info(GUILD)).settings_version == version
        pairing = await service.update_settings(ORG, None, {"system": "monrad"},
                                                version=version, apply="next-round")
        assert pairing.applied == "next-round"
        standings = await service.update_settings(
            ORG, None, {"tiebreaks": "lichess", "scoring": "match"},
            version=pairing.info.settings_version)
        assert standings.applied == "standings"
        assert standings.info.settings.scoring == "match"
        audited = await _edits(service, tid)
        assert audited[-1] == ({"tiebreaks": "fide", "scoring": "chess"},
                               {"tiebreaks": "lichess", "scoring": "match",
                                "applied": "standings"})


async def test_ratings_set_by_organisers_only(tmp_path: Path) -> None:
    async with open_service(tmp_path / "s.sqlite3") as service:
        await service.create_tournament(ORG, "Cup", 5)
        await service.update_settings(ORG, None, {"ratings": "organisers"})
        with pytest.raises(InvalidInputError, match="set by the organisers: join without"):
            await service.join(member(101), rating=2850)
        assert await service.list_players(GUILD) == []
        for uid, rating in ((101, None), (102, 1500), (103, 1400)):
            await service.join(member(uid, name=f"P{uid}"))
            if rating is not None:
                await service.rate_player(ORG, uid, rating)
        # P101 (unrated, last seed) rated above both: he moves to #1, the others down one
        change = await service.rate_player(ORG, 101, 2000)
        assert (change.before, change.player.rating) == (0, 2000)
        assert (change.seed_before, change.seed_after, change.started) == (3, 1, False)
        assert [(m.name, m.before, m.after) for m in change.moved] == [
            ("P101", 3, 1), ("P102", 1, 2), ("P103", 2, 3)]
        await service.start_tournament(ORG)
        after = await service.rate_player(ORG, 103, 2500)
        assert after.started and after.moved == []
        numbers = {p.user_id: p.number for p in await service.list_players(GUILD)}
        assert numbers == {101: 1, 102: 2, 103: 3}  # pairing numbers stay


async def test_ratings_from_a_source_need_a_linked_event(tmp_path: Path) -> None:
    async with open_service(tmp_path / "s.sqlite3") as service:
        await service.create_tournament(ORG, "Cup", 5)
        with pytest.raises(InvalidInputError, match="linked to no rating source"):
            await service.update_settings(ORG, None, {"ratings": "source"})
        with pytest.raises(InvalidInputError, match="Unknown ratings setting"):
            await service.update_settings(ORG, None, {"ratings": "anyone"})
