"""The live page in a real headless browser (issue 16, item 5): Playwright driving the
system's Chromium (Debian's package; Playwright's own browser download is not used).

Skipped, with the reason, when Playwright or Chromium is missing (`make test` installs
Chromium with apt-get where it can).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.web.app import LiveServer
from service import RoundView, TournamentInfo, TournamentService
from tests.paths import REPO
from tests.service_helpers import open_service, organiser

playwright_api = pytest.importorskip("playwright.async_api")

ORG = organiser()
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--no-first-run"]
SCREENSHOT = REPO / "docs" / "img" / "live-page.png"


@asynccontextmanager
async def _browser() -> AsyncIterator[Any]:
    """Chromium through Playwright, closed on the way out."""
    executable = _chromium()
    async with playwright_api.async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            await browser.close()


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no Chromium on this machine (make test installs it with apt-get when run as "
                "root): the live page's browser test is skipped")


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[TournamentService, LiveServer]]:
    async with open_service(tmp_path / "web.sqlite3") as service:
        server = LiveServer(service, host="127.0.0.1", port=0)
        await server.start()
        try:
            yield service, server
        finally:
            await server.stop()


async def _started(service: TournamentService, name: str, players: list[str],
                   **options: str) -> tuple[TournamentInfo, RoundView]:
    info = await service.create_tournament(ORG, name, 3, seed=5, **options)  # type: ignore[arg-type]
    for index, player in enumerate(players):
        await service.add_player(ORG, player, tournament=info.id, rating=2100 - index * 50)
    return info, await service.start_tournament(ORG, info.id)


@pytest.mark.slow
async def test_the_page_shows_standings_updates_itself_and_shows_script_names_as_text(
    served: tuple[TournamentService, LiveServer],
) -> None:
    service, server = served
    names = ["<script>window.pwned=1</script>", "Ann", "Bob", "Cleo", "Dan", "Eve"]
    info, round1 = await _started(service, "Browser Open", names)
    token = await service.web_link(ORG, info.id)

    async with _browser() as browser:
        page = await browser.new_page(viewport={"width": 1100, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        await page.goto(f"http://127.0.0.1:{server.port}/e/{token}")
        standings = page.locator("#standings tbody tr")
        await playwright_api.expect(standings).to_have_count(len(names))
        # the <script> name is shown as text, never run
        await playwright_api.expect(page.locator("#standings")).to_contain_text(names[0])
        assert await page.evaluate("window.pwned === undefined")
        assert await page.locator("#standings script").count() == 0
        # a result reported through the service appears without a reload
        game = round1.games[0]
        await service.set_result(ORG, 1, f"#{game.white.number}", "win", tournament=info.id)
        first = page.locator("#pairings tbody tr").first
        await playwright_api.expect(first).to_contain_text("1-0", timeout=15_000)
        top = page.locator("#standings tbody tr").first
        await playwright_api.expect(top).to_contain_text("1")
        if os.environ.get("SWISSBOT_WRITE_DOCS"):  # docs/make_pictures.py refreshes it
            await page.screenshot(path=str(SCREENSHOT), full_page=True)
        assert not errors, errors  # the CSP let our own script run, nothing else


@pytest.mark.slow
async def test_the_crosstable_names_opponents_by_start_number_with_its_legend(
    served: tuple[TournamentService, LiveServer],
) -> None:
    service, server = served
    info, round1 = await _started(service, "Cross Open", ["Ann", "Bob", "Cleo", "Dan", "Eve",
                                                          "Finn"], tiebreaks="")
    for game in round1.games:  # three wins: three players tied on 1, three on 0
        await service.set_result(ORG, 1, f"#{game.white.number}", "win", tournament=info.id)
    token = await service.web_link(ORG, info.id)
    met = {g.white.number: (g.black.number, "w1") for g in round1.games}
    met |= {g.black.number: (g.white.number, "b0") for g in round1.games}

    async with _browser() as browser:
        page = await browser.new_page(viewport={"width": 1100, "height": 900})
        await page.goto(f"http://127.0.0.1:{server.port}/e/{token}")
        rows = page.locator("#crosstable tbody tr")
        await playwright_api.expect(rows).to_have_count(6)
        for index in range(6):
            _rank, player, cell, _ = await rows.nth(index).locator("td").all_inner_texts()
            number = int(player.split()[0].lstrip("#"))  # "#3 Cleo"
            opponent, tail = met[number]
            assert cell == f"{opponent}{tail}", (player, cell)
        legend = page.locator("#crosstable-legend")
        await playwright_api.expect(legend).to_contain_text("start number")
        await playwright_api.expect(legend).to_contain_text("w = white")


PHONE = {"width": 390, "height": 844}
PHONE_SCREENSHOT = SCREENSHOT.with_name("live-page-phone.png")
LONG_NAMES = ["Alexandra Konstantinou-Wright", "🐉 Dragon Knight", "Bea", "Cyrus",
              "Dora Dimitrova-Papadopoulou", "Emil", "Fatou", "Goran"]


async def _played(service: TournamentService, name: str) -> tuple[TournamentInfo, str]:
    """Eight players, round 1 complete (wins and a draw) and round 2 paired."""
    info, round1 = await _started(service, name, LONG_NAMES)
    for index, game in enumerate(round1.games):
        await service.set_result(ORG, 1, f"#{game.white.number}",
                                 "draw" if index == 1 else "win", tournament=info.id)
    await service.pair_next_round(ORG, info.id, round_number=2)
    return info, await service.web_link(ORG, info.id)


@pytest.mark.slow
async def test_on_a_phone_wide_tables_scroll_in_their_box_and_the_page_does_not(
    served: tuple[TournamentService, LiveServer],
) -> None:
    service, server = served
    _info, token = await _played(service, "Phone Open")

    async with _browser() as browser:
        page = await browser.new_page(viewport=PHONE, device_scale_factor=2,
                                      is_mobile=True, has_touch=True)
        await page.goto(f"http://127.0.0.1:{server.port}/e/{token}")
        await playwright_api.expect(page.locator("#standings tbody tr")).to_have_count(8)
        # no sideways scrolling of the page itself
        page_width = await page.evaluate("document.documentElement.scrollWidth")
        assert page_width <= PHONE["width"], page_width
        box = page.locator("#standings").locator("xpath=..")
        assert await box.evaluate("el => el.classList.contains('scroll')")
        # the standings are wider than the phone: their own box scrolls sideways
        inner, outer = await box.evaluate("el => [el.scrollWidth, el.clientWidth]")
        assert inner > outer <= PHONE["width"], (inner, outer)
        moved = await box.evaluate("el => { el.scrollLeft = 80; return el.scrollLeft; }")
        assert moved > 0
        assert await page.evaluate("window.scrollX") == 0
        if os.environ.get("SWISSBOT_WRITE_DOCS"):  # docs/make_pictures.py refreshes it
            await box.evaluate("el => { el.scrollLeft = 0; }")
            await page.screenshot(path=str(PHONE_SCREENSHOT), full_page=False)


@pytest.mark.slow
async def test_without_javascript_the_page_shows_every_table_and_every_round(
    served: tuple[TournamentService, LiveServer],
) -> None:
    service, server = served
    info, token = await _played(service, "No Script Open")

    async with _browser() as browser:
        context = await browser.new_context(java_script_enabled=False, viewport=PHONE)
        page = await context.new_page()
        await page.goto(f"http://127.0.0.1:{server.port}/e/{token}/")  # trailing slash
        await playwright_api.expect(page.locator("#standings tbody tr")).to_have_count(8)
        await playwright_api.expect(page.locator("#crosstable tbody tr")).to_have_count(8)
        await playwright_api.expect(page.locator("#crosstable-legend")).to_contain_text(
            "start number")
        for number in (1, 2, 1):  # there and back with the picker's plain links
            await page.locator("nav.rounds a", has_text=str(number)).click()
            await page.wait_for_url(f"**/e/{token}/?round={number}#pairings-section")
            games = (await service.pairings(ORG.guild_id, info.id, number)).games
            rows = page.locator("#pairings tbody tr")
            await playwright_api.expect(rows).to_have_count(len(games))
            for index, game in enumerate(games):
                await playwright_api.expect(rows.nth(index)).to_contain_text(game.white.name)
                await playwright_api.expect(rows.nth(index)).to_contain_text(game.black.name)
            await playwright_api.expect(page.locator("#round-title")).to_contain_text(
                f"Round {number}")


async def test_on_an_event_on_lichess_each_result_links_to_its_game(
    served: tuple[TournamentService, LiveServer],
) -> None:
    """The pairings of an event played on Lichess: a board whose game was made there links
    its result cell to the game's page; a board still without one shows plain text."""
    from storage.lichess_games import GameLinks
    from tests.lichess_helpers import lichess_event

    service, server = served
    await lichess_event(service, 4, name="Lichess Page")
    await service.start_tournament(ORG, "Lichess Page")
    first, second = await service.lichess_boards_to_create()
    await service.store_lichess_game(first, GameLinks(
        first.game_id, "zx81game", "https://lichess.org/zx81game?color=white",
        "https://lichess.org/zx81game?color=black"))
    token = await service.web_link(ORG, "Lichess Page")
    async with _browser() as browser:
        page = await browser.new_page()
        await page.goto(f"http://127.0.0.1:{server.port}/e/{token}")
        rows = page.locator("#pairings tbody tr")
        await playwright_api.expect(rows).to_have_count(2)
        linked = rows.nth(first.board - 1).locator("a")
        await playwright_api.expect(linked).to_have_attribute(
            "href", "https://lichess.org/zx81game")
        await playwright_api.expect(linked).to_have_text("…")  # pending
        await playwright_api.expect(rows.nth(second.board - 1).locator("a")).to_have_count(0)
