"""Every export the bot makes: standings, players, games (with their stage) and crosstable, as
CSV (numbers as numbers) and JSON, plus TRF; decklists only for those who may see them."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from pathlib import Path

import pytest

from service import ConflictError, InvalidInputError, TournamentService
from tests.service_helpers import GUILD, member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()
ANN = member(11, name="Ann")


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


async def _played(service: TournamentService, **options: object) -> None:
    """5 players (a bye each round), two rounds with draws: half points everywhere."""
    await service.create_tournament(ORG, "Export Cup", 3, seed=4, **options)  # type: ignore[arg-type]
    for index, name in enumerate(["Ann", "Bob", "Cy", "Dee", "Eve"]):
        await service.add_player(ORG, name, rating=2000 - 10 * index)
    view = await service.start_tournament(ORG)
    for number in (1, 2):
        for index, game in enumerate(view.games):
            await service.set_result(ORG, number, f"#{game.white.number}",
                                     "draw" if index == 0 else "win")
        if number == 1:
            view = await service.pair_next_round(ORG)


async def test_every_table_as_csv_with_numbers_as_numbers(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _played(service)
        files = await service.export_files(GUILD, "csv", what="all")
        assert [f.filename for f in files] == [
            "export-cup-standings.csv", "export-cup-players.csv", "export-cup-games.csv",
            "export-cup-crosstable.csv"]
        text = {f.filename.rsplit("-", 1)[1]: f.content for f in files}
        standings = await service.standings(GUILD)
        rows = _rows(text["standings.csv"])
        assert [float(r["points"]) for r in rows] == [float(r.points) for r in standings.rows]
        assert any(Fraction(r.points).denominator == 2 for r in standings.rows)
        for row in rows:  # every tiebreak column reads as a number, never "1½"
            for name in standings.tiebreaks:
                float(row[name])
        assert "½" not in text["standings.csv"] and "½" not in text["players.csv"]
        games = _rows(text["games.csv"])
        rounds = [await service.pairings(GUILD, round_number=n) for n in (1, 2)]
        assert len(games) == sum(len(r.games) + len(r.byes) for r in rounds)
        assert {g["stage"] for g in games} == {"swiss"}
        byes = [g for g in games if g["result"].startswith("bye:")]
        assert len(byes) == 2 and all(float(b["bye_points"]) in (0, 0.5, 1) for b in byes)
        first = rounds[0].games[0]
        assert games[0] == {
            "round": "1", "stage": "swiss", "board": str(first.board),
            "white": str(first.white.number), "white_name": first.white.name,
            "black": str(first.black.number), "black_name": first.black.name,
            "result": "1/2-1/2", "white_games": "", "black_games": "", "state": "final",
            "bye_points": ""}
        players = _rows(text["players.csv"])
        assert [p["name"] for p in players] == ["Ann", "Bob", "Cy", "Dee", "Eve"]
        assert all(int(p["number"]) and int(p["rating"]) for p in players)
        assert "decklist" not in players[0]
        cross = _rows(text["crosstable.csv"])
        assert [c["name"] for c in cross] == [r.name for r in standings.rows]
        assert all(float(c["points"]) >= 0 and c["R1"] and c["R2"] for c in cross)


async def test_json_of_each_table_matches_the_csv(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _played(service)
        for what in ("standings", "players", "games", "crosstable"):
            (file,) = await service.export_files(GUILD, "json", what=what)
            body = json.loads(file.content)
            assert file.filename == f"export-cup-{what}.json"
            assert body["tournament"]["name"] == "Export Cup"
            records = body[what]["rows"] if isinstance(body[what], dict) else body[what]
            (table,) = await service.export_files(GUILD, "csv", what=what)
            assert len(records) == len(_rows(table.content))
        everything = json.loads((await service.export(GUILD, "json")).content)
        points = [r["points"] for r in everything["standings"]["rows"]]
        assert all(isinstance(p, int | float) for p in points) and 1.5 in points
        assert sum(points) == sum(float(r.points) for r in (await service.standings(GUILD)).rows)
        assert {"players", "games", "rounds", "crosstable", "playoffs"} <= set(everything)
        assert everything["crosstable"]["legend"]
        # an organiser's draft of the next round is not published: not exported either
        await service.preview_round(ORG)
        (games,) = await service.export_files(GUILD, "csv", what="games", viewer=ANN)
        assert {g["round"] for g in _rows(games.content)} == {"1", "2"}


async def test_before_the_start_and_refusals(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await service.create_tournament(ORG, "Early", 3)
        await service.join(ANN, rating=1500)
        files = await service.export_files(GUILD, "csv", what="all")  # what exists yet
        assert [f.filename for f in files] == ["early-players.csv", "early-games.csv"]
        assert _rows(files[0].content)[0]["number"] == ""  # no start number yet
        with pytest.raises(ConflictError, match="has not started: there is no standings"):
            await service.export_files(GUILD, "csv", what="standings")
        with pytest.raises(InvalidInputError, match="TRF file is the whole tournament"):
            await service.export_files(GUILD, "trf", what="players")
        with pytest.raises(InvalidInputError, match="Unknown export"):
            await service.export_files(GUILD, "csv", what="pairings")
        with pytest.raises(InvalidInputError, match="several files"):
            await service.export(GUILD, "csv", table="all")
        # naming a table without a format means CSV
        (players,) = await service.export_files(GUILD, what="players")
        assert players.filename == "early-players.csv"


async def test_decklists_only_for_organisers_until_published(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await service.create_tournament(ORG, "Deck Cup", 3, scoring="match", decklists="text")
        await service.join(ANN)
        await service.submit_decklist(ANN, "4 Lightning Bolt")
        (hidden,) = await service.export_files(GUILD, "csv", what="players", viewer=ANN)
        assert "decklist" not in _rows(hidden.content)[0]
        assert "Lightning" not in hidden.content and "not published" in hidden.note
        body = json.loads((await service.export_files(GUILD, "json", viewer=ANN))[0].content)
        assert "decklists" not in body and "Lightning" not in json.dumps(body)
        (full,) = await service.export_files(GUILD, "csv", what="players", viewer=ORG)
        assert _rows(full.content)[0]["decklist"] == "4 Lightning Bolt" and not full.note
        await service.publish_decklists(ORG)
        (public,) = await service.export_files(GUILD, "csv", what="players", viewer=ANN)
        assert _rows(public.content)[0]["decklist"] == "4 Lightning Bolt" and not public.note


async def test_the_games_of_a_top_cut_name_their_stage(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await service.create_tournament(ORG, "Cut Cup", 1, seed=2, top_cut=2)
        for index, name in enumerate(["Ann", "Bob", "Cy", "Dee"]):
            await service.add_player(ORG, name, rating=2000 - 10 * index)
        view = await service.start_tournament(ORG)
        for game in view.games:
            await service.set_result(ORG, 1, f"#{game.white.number}", "win")
        final = await service.pair_next_round(ORG)
        await service.set_result(ORG, 2, f"#{final.games[0].white.number}", "win")
        (games,) = await service.export_files(GUILD, "csv", what="games")
        stages = [(g["round"], g["stage"]) for g in _rows(games.content)]
        assert stages == [("1", "swiss"), ("1", "swiss"), ("2", "Final")]
        (standings,) = await service.export_files(GUILD, "csv", what="standings")
        rows = _rows(standings.content)
        assert {r["playoff"] for r in rows} == {"Winner", "Finalist", ""}
        winner = next(r for r in rows if r["playoff"] == "Winner")
        assert winner["name"] == final.games[0].white.name and winner["final_place"] == "1"
        assert sorted(int(r["final_place"]) for r in rows) == [1, 2, 3, 4]


async def test_names_never_run_as_spreadsheet_formulas(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await service.create_tournament(ORG, "Formula Cup", 3)
        hostile = '=HYPERLINK("http://a.io","x")'
        for name in (hostile, "-Ann", "Bob"):
            await service.add_player(ORG, name)
        await service.start_tournament(ORG)
        (players,) = await service.export_files(GUILD, "csv", what="players")
        names = [p["name"] for p in _rows(players.content)]
        assert names == ["'" + hostile, "'-Ann", "Bob"]
        (games,) = await service.export_files(GUILD, "csv", what="games")
        cells = [c for g in _rows(games.content) for c in (g["white_name"], g["black_name"])]
        assert all(not c.startswith(("=", "-")) for c in cells)
        body = json.loads((await service.export_files(GUILD, "json", what="players"))[0].content)
        assert [p["name"] for p in body["players"]] == [hostile, "-Ann", "Bob"]  # JSON as is
