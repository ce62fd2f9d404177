"""A member's team data: in his privacy export, and gone from every table when he is
forgotten (the boards he played stay, under his pseudonym)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.privacy_helpers import TARGET, TARGET_NAME, database_text, target
from tests.service_helpers import GUILD, member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()


async def test_team_membership_is_exported_then_forgotten(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        # a running event: he captains Quills and plays board 1 of round 1
        await service.create_tournament(ORG, "Team Run", 3)
        await service.team_settings(ORG, "fide-team", boards=1)
        await service.create_team(target(), "Quills")
        await service.set_lineup(target(), 1, [TARGET])
        await service.create_team(member(5, name="Ed"), "Others")
        await service.pair_team_round(ORG, 1)
        await service.report_board(target(), 1, "win")
        # an event in registration: he is a substitute there
        await service.create_tournament(ORG, "Team Cup", 3)
        await service.team_settings(ORG, "fide-team", boards=1, tournament="Team Cup")
        await service.create_team(member(6, name="Flo"), "Later", tournament="Team Cup")
        await service.add_member(member(6), TARGET, TARGET_NAME, substitute=True,
                                 tournament="Team Cup")

        exported = await service.privacy_export(target())
        teams = json.loads(exported.content)["teams"]
        assert {(row["team"], row["tournament"], bool(row["captain"]), bool(row["substitute"]))
                for row in teams} == {("Quills", "Team Run", True, False),
                                      ("Later", "Team Cup", False, True)}

        await service.privacy_forget(target())
        dump = await database_text(service)
        assert str(TARGET) not in dump and TARGET_NAME not in dump
        # the board he played stays, under the pseudonym; the other event lost its member
        board = (await service.team_pairings(GUILD, 1, "Team Run")).matches[0].boards[0]
        names = {board.white.name if board.white else None,
                 board.black.name if board.black else None}
        assert "Withdrawn player 1" in names
        later = (await service.list_teams(GUILD, "Team Cup"))[0]
        assert [m.name for m in later.members] == ["Flo"]
