"""The official FIDE Dutch (``fide-dutch``, 2025 and 2017 rules) through the service: the
edition stored with the tournament, every path that pairs (next round, drafts, ``/why``, the
TRF export) and the TRF report header."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from service import InvalidInputError, NotOrganiserError, TournamentService
from service.model import pairing_config
from storage.tournaments import TournamentRow
from swiss.pairing import PairingConfig, pair_round
from swiss.trf import parse_trf
from swiss.trf.header import read_header
from tests.service_helpers import GUILD, START, member, open_service, organiser

ORG = organiser()
USERS = [11, 12, 13, 14, 15, 16, 17]


async def _seven(service: TournamentService, rules: str, rounds: int = 4) -> None:
    """Seven members rated 2000, 1950, ... (so #1 is user 11): every round has a PAB."""
    await service.create_tournament(ORG, "Dutch Open", rounds, system="fide-dutch",
                                    dutch_rules=rules, seed=5)
    for index, user in enumerate(USERS):
        await service.join(member(user), rating=2000 - 50 * index)
    await service.start_tournament(ORG)


async def _finish_round(service: TournamentService, number: int) -> None:
    """White wins on odd boards, draws on even boards."""
    view = await service.pairings(GUILD, round_number=number)
    for game in view.games:
        result = "win" if game.board % 2 else "draw"
        await service.set_result(ORG, number, f"#{game.white.number}", result)


def _stored_rounds(trf: str) -> list[tuple[set[tuple[int, int]], set[int]]]:
    model = parse_trf(trf).tournament
    return [({(g.white, g.black) for g in r.games}, {b.player for b in r.byes})
            for r in model.rounds]


def _engine_rounds(trf: str, rules: str) -> list[tuple[set[tuple[int, int]], set[int]]]:
    """Each stored round paired again by the pure engine from the rounds before it."""
    model = parse_trf(trf).tournament
    out = []
    for number in range(1, len(model.rounds) + 1):
        before = replace(model, rounds=model.rounds[:number - 1])
        result = pair_round(before, PairingConfig(system="fide-dutch", rules=rules))
        out.append(({(g.white, g.black) for g in result.games},
                    {b.player for b in result.byes}))
    return out


@pytest.mark.parametrize("rules", ["2025", "2017"])
async def test_rounds_are_the_engines_pairings_of_the_stored_edition(
    tmp_path: Path, rules: str
) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _seven(service, rules)
        info = await service.tournament_info(GUILD)
        assert (info.settings.system, info.settings.dutch_rules) == ("fide-dutch", rules)
        for number in (1, 2):
            await _finish_round(service, number)
            await service.pair_next_round(ORG)
        await _finish_round(service, 3)
        trf = (await service.export(GUILD, "trf")).content
    stored = _stored_rounds(trf)
    assert len(stored) == 3
    assert stored == _engine_rounds(trf, rules)
    assert all(len(byes) == 1 for _, byes in stored)  # seven players: one PAB per round


def test_pairing_config_carries_the_edition() -> None:
    row = TournamentRow(
        id=1, guild_id=GUILD, name="x", status="running", seed=9, channel_id=None,
        settings={"rounds": 5, "system": "fide-dutch", "dutch_rules": "2017"},
        created_by=1, created_at=START, started_at=START, finished_at=None,
        auto_advance_due=None,
    )
    config = pairing_config(row)
    assert (config.system, config.rules, config.seed) == ("fide-dutch", "2017", 9)


async def test_an_unknown_edition_is_refused(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        with pytest.raises(InvalidInputError, match="FIDE Dutch rules edition"):
            await service.create_tournament(ORG, "Bad", 5, system="fide-dutch",
                                            dutch_rules="2019")


async def test_why_explains_fide_dutch_boards_and_the_bye(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _seven(service, "2025")
        await _finish_round(service, 1)
        await service.pair_next_round(ORG)
        views = [await service.why(member(user), 2) for user in USERS]
    byes = [v for v in views if v.opponent is None]
    games = [v for v in views if v.opponent is not None]
    assert len(byes) == 1 and len(games) == 6
    bye_text = " ".join(s for _, s in byes[0].reasons)
    assert "FIDE Dutch rules give it to a player who has not had one" in bye_text
    assert "eligible below=" in byes[0].engine
    for view in games:
        reasons = dict(view.reasons)
        assert re.search(r"E\.[1-5]\)\.$", reasons["Colour"])  # the FIDE colour rule, named
        assert "colour rule=" in view.engine and "score difference" in view.engine


async def test_draft_then_publish_pairs_like_the_engine_and_stays_explainable(
    tmp_path: Path,
) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _seven(service, "2017")
        await _finish_round(service, 1)
        draft = await service.preview_round(ORG)
        assert any("FIDE Dutch, 2017 rules" in note for note in draft.notes)
        await service.publish_draft(ORG, version=draft.version)
        await _finish_round(service, 2)
        trf = (await service.export(GUILD, "trf")).content
        why = await service.why(member(11), 2)  # recomputed: drafts record no facts
    assert _stored_rounds(trf) == _engine_rounds(trf, "2017")
    assert "colour rule=" in why.engine or "eligible below=" in why.engine


async def test_trf_header_is_set_checked_and_exported(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _seven(service, "2025", rounds=5)
        header = await service.set_trf_header(ORG, {
            "city": "  Paris ", "federation": "fra", "start": "2026-05-01",
            "end": "2026/05/03", "chief-arbiter": "Ann Arbiter", "deputies": "Bo; Cy",
            "092": "Individual: Swiss-System", "time-control": "90'/40 + 30'",
        })
        assert header == {
            "022": "Paris", "032": "FRA", "042": "2026/05/01", "052": "2026/05/03",
            "092": "Individual: Swiss-System", "102": "Ann Arbiter", "112": "Bo; Cy",
            "122": "90'/40 + 30'",
        }
        # "" clears a line; the other lines stay
        header = await service.set_trf_header(ORG, {"time-control": ""})
        assert "122" not in header and header["022"] == "Paris"
        text = (await service.export(GUILD, "trf")).content
    lines = text.splitlines()
    for line in ("012 Dutch Open", "022 Paris", "032 FRA", "042 2026/05/01",
                 "052 2026/05/03", "062 7", "072 7", "102 Ann Arbiter", "112 Bo", "112 Cy",
                 "XXR 5", "XXC white1"):
        assert line in lines
    parsed = parse_trf(text)
    assert read_header(parsed.tournament.name, parsed.other_lines) == {
        "012": "Dutch Open", **header, "062": "7", "072": "7"}


@pytest.mark.parametrize(("changes", "message"), [
    ({"start": "2026/05/03", "end": "2026/05/01"}, "before the date of start"),
    ({"start": "2026/02/30"}, "YYYY/MM/DD"),
    ({"federation": "France"}, "three-letter"),
    ({"players": "many"}, "whole number"),
    ({"city": "x" * 81}, "at most 80"),
    ({"city": "<@123>"}, "mention"),
    ({"colour": "white"}, "Unknown TRF header field"),
])
async def test_trf_header_errors_say_what_is_wrong(
    tmp_path: Path, changes: dict[str, str], message: str
) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _seven(service, "2025")
        with pytest.raises(InvalidInputError, match=message):
            await service.set_trf_header(ORG, changes)
        assert await service.set_trf_header(ORG, {"city": "Oslo"}) == {"022": "Oslo"}


async def test_only_organisers_set_the_trf_header(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.sqlite3") as service:
        await _seven(service, "2025")
        with pytest.raises(NotOrganiserError):
            await service.set_trf_header(member(11), {"city": "Oslo"})
