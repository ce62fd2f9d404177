"""The live page's server-rendered HTML through its HTTP interface: it holds the standings,
the pairings of every round (a picker of plain ``?round=N`` links) and the crosstable without
any script, at ``/e/<token>`` and ``/e/<token>/``, with every user text escaped."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient
from hypothesis import given
from hypothesis import strategies as st

from bot.standings_columns import DECIDER, deciders, table_cells
from bot.web.page import selected_round
from service import TournamentService
from tests.service_helpers import open_service, organiser
from tests.web_helpers import web_client

ORG = organiser()
NAMES = ["<script>alert(1)</script>", "Ann & Bob", 'Quote "Q"', "Cleo", "Dan", "Eve"]


class Tables(HTMLParser):
    """The text of every cell of every table, by table id, and the page's links."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.links: list[tuple[str, str]] = []
        self._table: str | None = None
        self._cell: list[str] | None = None
        self._link: str | None = None
        self._link_text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "table":
            self._table = found.get("id") or ""
            self.tables[self._table] = []
        elif tag == "tr" and self._table is not None:
            self.tables[self._table].append([])
        elif tag in ("td", "th") and self._table is not None:
            self._cell = []
        elif tag == "a":
            self._link, self._link_text = found.get("href") or "", ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._table = None
        elif tag in ("td", "th") and self._cell is not None and self._table is not None:
            self.tables[self._table][-1].append("".join(self._cell))
            self._cell = None
        elif tag == "a" and self._link is not None:
            self.links.append((self._link, self._link_text))
            self._link = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        if self._link is not None:
            self._link_text += data


def parse(text: str) -> Tables:
    parser = Tables()
    parser.feed(text)
    return parser


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TournamentService]:
    async with open_service(tmp_path / "page.sqlite3") as svc:
        yield svc


@pytest.fixture
async def web(service: TournamentService) -> AsyncIterator[TestClient]:
    async with web_client(service) as client:
        yield client


async def _three_rounds(service: TournamentService) -> tuple[int, str]:
    """Six players, rounds 1 and 2 complete, round 3 paired: three rounds to pick from."""
    info = await service.create_tournament(ORG, "Page Open", 3, seed=4)
    for index, name in enumerate(NAMES):
        await service.add_player(ORG, name, tournament=info.id, rating=2000 - index * 10)
    await service.start_tournament(ORG, info.id)
    for number in (1, 2):
        view = await service.pairings(ORG.guild_id, info.id, number)
        for game in view.games:
            await service.set_result(ORG, number, f"#{game.white.number}", "win",
                                     tournament=info.id)
        await service.pair_next_round(ORG, info.id, round_number=number + 1)
    return info.id, await service.web_link(ORG, info.id)


def _pairs(rows: list[list[str]]) -> set[tuple[str, str]]:
    return {(row[1], row[3]) for row in rows[1:]}


def _seat(name: str, number: int) -> str:
    return f"{name} (#{number})"


async def test_the_page_holds_every_table_without_a_script(
    service: TournamentService, web: TestClient
) -> None:
    tid, token = await _three_rounds(service)
    for path in (f"/e/{token}", f"/e/{token}/"):  # the trailing slash is the same page
        response = await web.get(path)
        assert response.status == 200, path
        page = parse(await response.text())
        standings = page.tables["standings"]
        assert standings[0][:3] == ["#", "Player", "Pts"]
        assert sorted(row[1] for row in standings[1:]) == sorted(NAMES)
        crosstable = page.tables["crosstable"]
        assert crosstable[0] == ["Rk", "Player", "R1", "R2", "R3", "Pts"]  # R3 pending
        assert len(crosstable) == 1 + len(NAMES)
        # the latest round by default, its games as the service has them
        latest = await service.pairings(ORG.guild_id, tid, 3)
        assert _pairs(page.tables["pairings"]) == {
            (_seat(g.white.name, g.white.number), _seat(g.black.name, g.black.number))
            for g in latest.games}


async def test_the_round_picker_links_every_round_and_each_link_shows_that_round(
    service: TournamentService, web: TestClient
) -> None:
    tid, token = await _three_rounds(service)
    page = parse(await (await web.get(f"/e/{token}/")).text())
    picker = [(href, text) for href, text in page.links if "round=" in href]
    assert [text for _, text in picker] == ["1", "2", "3"]
    for href, text in picker:
        # a relative link: it resolves the same under /e/<token> and /e/<token>/
        assert href == f"?round={text}#pairings-section"
        shown = parse(await (await web.get(f"/e/{token}/{href.split('#')[0]}")).text())
        games = (await service.pairings(ORG.guild_id, tid, int(text))).games
        rows = shown.tables["pairings"][1:]
        assert _pairs(shown.tables["pairings"]) == {
            (_seat(g.white.name, g.white.number), _seat(g.black.name, g.black.number))
            for g in games}
        if int(text) < 3:  # played rounds show their results
            assert {row[2] for row in rows} == {"1-0"}


async def test_user_text_is_escaped_in_every_table(
    service: TournamentService, web: TestClient
) -> None:
    _tid, token = await _three_rounds(service)
    text = await (await web.get(f"/e/{token}?round=1")).text()
    assert "<script>alert" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert len(re.findall(r"<script\b", text)) == 1  # ours, the src one
    assert "Ann &amp; Bob" in text and "Quote &quot;Q&quot;" in text


@pytest.mark.parametrize("asked", ["0", "9", "-1", "abc", "1e3", "٣", "9" * 50, ""])
async def test_a_round_that_does_not_exist_shows_the_latest(
    service: TournamentService, web: TestClient, asked: str
) -> None:
    _tid, token = await _three_rounds(service)
    response = await web.get(f"/e/{token}/", params={"round": asked})
    assert response.status == 200
    assert 'aria-current="page" href="?round=3' in await response.text()


async def test_the_crosstable_cells_name_the_opponent_in_their_tooltip(
    service: TournamentService, web: TestClient
) -> None:
    tid, token = await _three_rounds(service)
    text = await (await web.get(f"/e/{token}")).text()
    for game in (await service.pairings(ORG.guild_id, tid, 1)).games:
        black = game.black.name.replace("&", "&amp;").replace("<", "&lt;").replace(
            ">", "&gt;").replace('"', "&quot;")
        assert f'title="#{game.black.number} {black}">{game.black.number}w1<' in text


@given(st.one_of(st.none(), st.text(max_size=12)))
def test_selected_round_is_a_played_round_whatever_is_asked(asked: str | None) -> None:
    from types import SimpleNamespace

    rounds = tuple(SimpleNamespace(number=n) for n in (1, 2, 3))
    event = SimpleNamespace(rounds=rounds)
    shown = selected_round(event, asked)  # type: ignore[arg-type]
    assert shown in rounds
    if asked in ("1", "2", "3"):
        assert shown is not None and shown.number == int(asked)
    elif asked is None or not asked.isdigit():
        assert shown is rounds[-1]


async def test_before_the_start_the_page_says_what_is_missing(
    service: TournamentService, web: TestClient
) -> None:
    info = await service.create_tournament(ORG, "Not Yet Open", 5)
    await service.add_player(ORG, "Ann", tournament=info.id)
    token = await service.web_link(ORG, info.id)
    response = await web.get(f"/e/{token}/")
    assert response.status == 200
    text = await response.text()
    assert "registration open · round 0 of 5 · 1 player" in text
    assert "No round has been paired yet." in text
    page = parse(text)
    assert page.tables["pairings"][1:] == []


async def test_a_bye_is_shown_under_its_round(service: TournamentService, web: TestClient
                                              ) -> None:
    info = await service.create_tournament(ORG, "Odd Open", 3, seed=2)
    for index, name in enumerate(["Ann", "Bob", "Cleo"]):
        await service.add_player(ORG, name, tournament=info.id, rating=2000 - index)
    round1 = await service.start_tournament(ORG, info.id)
    token = await service.web_link(ORG, info.id)
    text = await (await web.get(f"/e/{token}")).text()
    (bye,) = round1.byes
    assert f"Byes: {bye.player.name} (#{bye.player.number})" in text


async def test_the_standings_heading_says_a_round_is_in_play(
    service: TournamentService, web: TestClient
) -> None:
    tid, token = await _three_rounds(service)  # round 3 paired, no result yet
    text = await (await web.get(f"/e/{token}")).text()
    assert "with round 3 of 3 in play" in text and "after round 3" not in text
    view = await service.pairings(ORG.guild_id, tid, 3)
    for game in view.games:
        await service.set_result(ORG, 3, f"#{game.white.number}", "win", tournament=tid)
    text = await (await web.get(f"/e/{token}")).text()
    assert "in play" not in text  # the last round complete: the event is finished


async def test_the_tiebreak_that_decided_a_tie_is_marked_as_in_discord(
    service: TournamentService, web: TestClient
) -> None:
    """Each row ahead of the next on equal points has its deciding tiebreak marked with *,
    and the legend under the table says what * (and a dash, and DE) mean."""
    tid, token = await _three_rounds(service)
    view = await service.standings(ORG.guild_id, tid)
    decided = deciders(view, table_cells(view)[1])
    assert decided, "the fixture's standings have ties broken by a tiebreak"
    text = await (await web.get(f"/e/{token}")).text()
    start = text.index('id="standings-section"')
    section = text[start:text.index("</section>", start)]
    assert section.count(f"{DECIDER}</td>") == len(decided)
    assert "the tiebreak that put a player ahead of the next one on equal points" in section
