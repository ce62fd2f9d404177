"""The players' rating fields: set by /admin player, imported from a CSV file, written in the
TRF report (columns 10-79) and the CSV/JSON exports, kept out of the audit log, exported to
the member on request and forgotten with him."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from service import InvalidInputError, NotOrganiserError, TournamentService
from swiss.trf import parse_trf
from tests.service_helpers import GUILD, member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()
CARLSEN = {"fide_id": "1503014", "federation": "nor", "birth": "1990/11/30", "sex": "m",
           "title": "gm", "trf_name": "Carlsen,Magnus"}


async def _started(service: TournamentService) -> None:
    """'Rated Open': members 101-104, round 1 played (white wins)."""
    await service.create_tournament(ORG, "Rated Open", 3, seed=3)
    for uid in range(101, 105):
        await service.join(member(uid), rating=2000 + uid)
    r1 = await service.start_tournament(ORG)
    for game in r1.games:
        await service.set_result(ORG, 1, f"#{game.white.number}", "win")


async def test_set_fields_are_normalised_shown_and_written_in_the_trf(tmp_path: Path) -> None:
    async with open_service(tmp_path / "f.sqlite3") as service:
        await _started(service)
        record = await service.set_player_fields(ORG, 104, CARLSEN)
        assert record.fields.as_dict() == {
            "fide_id": "1503014", "federation": "NOR", "birth": "1990/11/30", "sex": "m",
            "title": "GM", "trf_name": "Carlsen, Magnus"}
        assert set(record.changed) == set(CARLSEN)
        again = await service.set_player_fields(ORG, 104, CARLSEN)  # a double click
        assert again.changed == () and again.fields == record.fields
        shown = await service.set_player_fields(ORG, "<@104>", {})
        assert shown.fields == record.fields

        trf = (await service.export(GUILD, "trf", viewer=ORG)).content
        parsed = parse_trf(trf)
        number = record.player.number
        line = next(row for row in trf.splitlines() if row.startswith(f"001 {number:>4}"))
        assert line[9] == "m" and line[10:13] == " GM"  # columns 10 and 11-13
        assert line[14:47].rstrip() == "Carlsen, Magnus"  # 15-47
        assert line[53:56] == "NOR" and line[57:68].strip() == "1503014"  # 54-56, 58-68
        assert line[69:79] == "1990/11/30"  # 70-79
        info = parsed.players[number]
        assert (info.federation, info.fide_id, info.birth, info.title, info.sex) == (
            "NOR", "1503014", "1990/11/30", "GM", "m")
        assert parsed.tournament.rounds_played == 1  # still a TRF bbpPairings reads

        cleared = await service.set_player_fields(ORG, 104, {"title": "-", "birth": "1990"})
        assert (cleared.fields.title, cleared.fields.birth) == ("", "1990")


async def test_bad_values_are_refused_and_nothing_changes(tmp_path: Path) -> None:
    async with open_service(tmp_path / "f.sqlite3") as service:
        await _started(service)
        await service.set_player_fields(ORG, 101, {"federation": "ENG"})
        for changes, says in (({"federation": "DEU"}, "Federation: .*GER, not DEU"),
                              ({"fide_id": "12x"}, "FIDE id"),
                              ({"title": "GM", "birth": "1990/13/01"}, "Birth date"),
                              ({"rating": "1"}, "unknown field")):
            with pytest.raises(InvalidInputError, match=says):
                await service.set_player_fields(ORG, 101, changes)
        record = await service.set_player_fields(ORG, 101, {})
        assert record.fields.as_dict()["federation"] == "ENG" and not record.fields.title
        with pytest.raises(NotOrganiserError):
            await service.set_player_fields(member(101), 101, {"title": "GM"})


async def test_the_audit_log_names_the_fields_never_their_values(tmp_path: Path) -> None:
    async with open_service(tmp_path / "f.sqlite3") as service:
        await _started(service)
        await service.set_player_fields(ORG, 104, CARLSEN)
        async with service.ctx.db.transaction(readonly=True) as conn, conn.execute(
                "SELECT action, before, after FROM audit_log"
                " WHERE action = 'player.fields'") as cur:
            rows = list(await cur.fetchall())
        assert len(rows) == 1
        text = json.dumps([dict(r) for r in rows])
        assert "birth" in text and "1990" not in text and "1503014" not in text


async def test_exports_show_the_fields_and_the_birth_date_to_organisers_only(
    tmp_path: Path,
) -> None:
    async with open_service(tmp_path / "f.sqlite3") as service:
        await _started(service)
        await service.set_player_fields(ORG, 104, CARLSEN)
        for viewer, birth in ((ORG, "1990/11/30"), (member(101), "1990"), (None, "1990")):
            players = (await service.export(GUILD, "csv", table="players",
                                            viewer=viewer)).content
            rows = list(csv.DictReader(io.StringIO(players)))
            carlsen = next(r for r in rows if r["user_id"] == "104")
            assert (carlsen["fide_id"], carlsen["federation"], carlsen["birth"],
                    carlsen["title"], carlsen["trf_name"]) == (
                "1503014", "NOR", birth, "GM", "Carlsen, Magnus")
            assert next(r for r in rows if r["user_id"] == "101")["federation"] == ""
            body = json.loads((await service.export(GUILD, "json", viewer=viewer)).content)
            record = next(p for p in body["players"] if p["user_id"] == "104")
            assert record["birth"] == birth and record["fide_id"] == "1503014"
            assert next(p for p in body["players"] if p["user_id"] == "101")["title"] is None
        trf = (await service.export(GUILD, "trf")).content  # anyone: the year only
        assert "1990/11/30" not in trf and "1990      " in trf


async def test_csv_import_sets_fields_of_players_and_adds_new_ones(tmp_path: Path) -> None:
    async with open_service(tmp_path / "f.sqlite3") as service:
        await service.create_tournament(ORG, "Club Open", 3)
        await service.join(member(101, name="Ann"), rating=1500)
        text = ("Name,User ID,Rating,FIDE_ID,Federation,Birth,Sex,Title,TRF_Name\n"
                ",101,,1234567,eng,1980,f,wim,\"Alpha, Ann\"\n"
                "Bob Bravo,,1800,7654321,GER,1975/03/04,m,,\"Bravo, Bob\"\n")
        done = await service.import_player_list(ORG, text)
        assert [p.user_id for p in done.updated] == [101]
        assert [(p.name, p.rating) for p in done.added] == [("Bob Bravo", 1800)]
        ann = await service.set_player_fields(ORG, 101, {})
        assert ann.fields.as_dict() == {"fide_id": "1234567", "federation": "ENG",
                                        "birth": "1980", "sex": "w", "title": "WIM",
                                        "trf_name": "Alpha, Ann"}
        bob = await service.set_player_fields(ORG, "Bob Bravo", {})
        assert bob.fields.birth == "1975/03/04" and bob.fields.federation == "GER"
        again = await service.import_player_list(ORG, text.replace("Bob Bravo,,", "bob bravo,,"))
        assert again.added == () and again.updated == ()  # the same file twice: no change


async def test_a_bad_csv_names_every_bad_line_and_column_and_changes_nothing(
    tmp_path: Path,
) -> None:
    async with open_service(tmp_path / "f.sqlite3") as service:
        await service.create_tournament(ORG, "Club Open", 3)
        await service.join(member(101, name="Ann"))
        text = ("name,user_id,federation,birth,title\n"
                "Ann,101,ENG,1980,GM\n"
                "Bob,,DEU,1980,GM\n"
                "Cy,,NOR,1980/02/31,XX\n"
                "Ann,101,NOR,,\n")
        with pytest.raises(InvalidInputError) as refused:
            await service.import_player_list(ORG, text)
        message = str(refused.value)
        assert "Nothing was imported: 4 problems" in message
        assert "line 3, column 3 (federation)" in message
        assert "line 4, column 4 (birth)" in message and "line 4, column 5 (title)" in message
        assert "line 5: user 101 is already on line 2" in message or "line 5: Ann" in message
        assert len(message) < 2000  # one Discord message
        assert [p.name for p in await service.list_players(GUILD)] == ["Ann"]
        assert (await service.set_player_fields(ORG, 101, {})).fields.is_empty()
        for bad, says in (("nick,rating\nAnn,1\n", "line 1, column 1 \\(nick\\): unknown"),
                          ("rating\n1500\n", "name or user_id"),
                          ("name\n", "no players"), ("", "no players"),
                          ("name,name\nA,B\n", "named twice")):
            with pytest.raises(InvalidInputError, match=says):
                await service.import_player_list(ORG, bad)


async def test_new_players_are_refused_after_the_start_fields_are_not(tmp_path: Path) -> None:
    async with open_service(tmp_path / "f.sqlite3") as service:
        await _started(service)
        done = await service.import_player_list(ORG, "user_id,federation\n102,NED\n")
        assert [p.user_id for p in done.updated] == [102]
        with pytest.raises(InvalidInputError, match="line 2: Newcomer is not a player"):
            await service.import_player_list(ORG, "name,federation\nNewcomer,NED\n")


async def test_privacy_export_holds_the_fields_and_forget_removes_them(tmp_path: Path) -> None:
    async with open_service(tmp_path / "f.sqlite3") as service:
        await _started(service)
        await service.set_player_fields(ORG, 104, CARLSEN)
        await service.set_player_fields(ORG, 103, {"federation": "SWE"})
        data = json.loads((await service.privacy_export(member(104))).content)
        (entry,) = data["events"]
        assert entry["rating_fields"]["fide_id"] == "1503014"
        assert entry["rating_fields"]["birth"] == "1990/11/30"
        await service.privacy_forget(member(104))
        async with service.ctx.db.transaction(readonly=True) as conn, conn.execute(
                "SELECT player_id, federation FROM player_identity") as cur:
            left = [tuple(r) for r in await cur.fetchall()]
        assert [federation for _, federation in left] == ["SWE"]  # only the other member's
        trf = (await service.export(GUILD, "trf", viewer=ORG)).content
        assert "1503014" not in trf and "Carlsen" not in trf
