"""A team event's files: the TRF team report reads back (swiss.teams.trf, as team pairing
programs read it) to the same standings; CSV and JSON keep numbers as numbers and user text
inert."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from service import ConflictError
from swiss.teams.tiebreaks import team_standings
from swiss.teams.trf import parse_team_trf
from tests.service_helpers import GUILD, member, open_service, organiser
from tests.team_helpers import play_chess_event

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()


@pytest.mark.slow
async def test_the_trf_reads_back_to_the_same_standings(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await play_chess_event(service, 7, 3, 4)  # an odd number of teams: a bye each round
        (trf,) = await service.export_team_files(GUILD, "trf")
        event = parse_team_trf(trf.content)
        assert "192 FIDE_TEAM_TYPEA_MP_GP" in trf.content
        assert [t.name for t in event.teams] == [f"Team {n}" for n in range(1, 8)]
        _, read_back = team_standings(event.teams, "mp", rounds=4, total_rounds=4)
        ours = await service.team_standings(GUILD)
        assert [(r.name, r.values) for r in read_back] == [
            (r.name, (r.match_points, *r.tiebreaks)) for r in ours.rows]
        by_name = {t.name: t for t in event.teams}
        for row in ours.rows:  # game points too, forfeits and byes included
            assert by_name[row.name].score("gp") == row.game_points


async def test_csv_and_json_keep_numbers_and_quote_formulas(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await service.create_tournament(ORG, "Team Cup", 1)
        await service.team_settings(ORG, "fide-team", boards=1)
        await service.create_team(member(5), "=HYPERLINK(1)")
        await service.create_team(member(6), "Rooks")
        await service.pair_team_round(ORG, 1)
        await service.set_team_result(ORG, 1, "Rooks", board=1, result="1/2")
        standings, matches = await service.export_team_files(GUILD, "csv")
        rows = list(csv.DictReader(io.StringIO(standings.content)))
        assert {r["name"] for r in rows} == {"'=HYPERLINK(1)", "Rooks"}
        assert {r["match_points"] for r in rows} == {"1"}
        (board,) = list(csv.DictReader(io.StringIO(matches.content)))
        assert board["result"] == "1/2" and board["first_score"] == "0.5"
        (data,) = await service.export_team_files(GUILD, "json")
        body = json.loads(data.content)
        assert {r["name"] for r in body["team-standings"]} == {"=HYPERLINK(1)", "Rooks"}
        assert all(r["game_points"] == 0.5 for r in body["team-standings"])


async def test_an_esports_stage_has_no_trf(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await service.create_tournament(ORG, "Stage", 5)
        await service.team_settings(ORG, "esports-swiss", boards=5)
        with pytest.raises(ConflictError, match="export an e-sports stage as csv or json"):
            await service.export_team_files(GUILD, "trf")
