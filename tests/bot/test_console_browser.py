"""The sandbox's web console in a real browser (Playwright driving the system's Chromium)
against the real bot: a person types commands as chosen members, clicks a button the bot
posted and sees the answers; a typed mistake is shown with its column and nothing is sent.
"""

from __future__ import annotations

import shutil
from typing import Any

import pytest

from sandbox import FakeDiscord, SandboxGuild
from sandbox.wire import APPLICATION_COMMAND, MESSAGE_COMPONENT
from tests.e2e.fixtures import (  # noqa: F401  (fixtures)
    BotStarter,
    database,
    error_log,
    fake,
    guild,
    start_swissbot,
)

playwright_api = pytest.importorskip("playwright.async_api")
expect = playwright_api.expect

CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--no-first-run"]
PHONE = {"width": 390, "height": 844}


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no Chromium on this machine: the console's browser test is skipped")


def _sent(sandbox: FakeDiscord, kind: int) -> list[dict[str, Any]]:
    return [r.payload for r in sandbox.interactions.values() if r.payload["type"] == kind]


async def _type(page: Any, text: str) -> None:
    box = page.locator("#command")
    await box.fill(text)
    await box.press("Enter")


async def _act_as(page: Any, member_id: int) -> None:
    await page.locator("#member").select_option(str(member_id))


@pytest.mark.slow
async def test_a_person_runs_a_tournament_from_the_console_on_a_phone(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: BotStarter,  # noqa: F811
) -> None:
    executable = _chromium()
    await start_swissbot()
    owner = fake.owner_member(guild)
    ann, bob = fake.players(guild)[:2]
    async with playwright_api.async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page = await browser.new_page(viewport=PHONE)
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            await page.goto(fake.console_url)
            await expect(page.locator("#status")).to_have_text("bot connected")
            # the owner is chosen first, #tournaments is the channel
            await expect(page.locator("#member option:checked")).to_contain_text("owner")
            await expect(page.locator("#channel option:checked")).to_have_text("#tournaments")

            # autocomplete offers the registered subcommands, Tab takes the first
            box = page.locator("#command")
            await box.fill("/tournament cr")
            await expect(page.locator("#suggestions li").first).to_contain_text("create")
            await box.press("Tab")
            await expect(box).to_have_value("/tournament create ")

            # a typed mistake: the column, in the console, and nothing sent to the bot
            mistake = "/tournament create name:Friday rounds:five"
            await _type(page, mistake)
            column = mistake.index("five") + 1
            await expect(page.locator("#error")).to_contain_text(f"column {column}:")
            await expect(page.locator("#error")).to_contain_text("not a whole number")
            assert _sent(fake, APPLICATION_COMMAND) == []

            await _type(page, '/tournament create name:"Friday Night Open" rounds:3')
            messages = page.locator("#messages")
            await expect(messages).to_contain_text("Created Friday Night Open", timeout=10_000)
            await expect(page.locator("#error")).to_be_hidden()
            for player in (ann, bob):
                await _act_as(page, player.id)
                await _type(page, "/join")
                await expect(messages).to_contain_text(f"@{player.display_name} joined")
            await _act_as(page, owner.id)
            await _type(page, "/tournament start")
            await expect(messages).to_contain_text("has started")  # the owner's own answer

            # Ann reports; the prompt's buttons are drawn; Bob confirms with a double click
            await _act_as(page, ann.id)
            await expect(messages).not_to_contain_text("has started")  # not Ann's to see
            await _type(page, "/report result:win")
            asking = page.locator("article.message", has_text="please Confirm")
            await expect(asking.locator("button", has_text="Confirm")).to_be_enabled()
            prompt_id = await asking.get_attribute("data-id")
            prompt = page.locator(f"article.message[data-id='{prompt_id}']")
            await _act_as(page, bob.id)
            await prompt.locator("button", has_text="Confirm").dblclick()
            await expect(prompt.locator("button", has_text="Confirm")).to_be_disabled()
            assert len(_sent(fake, MESSAGE_COMPONENT)) == 1  # the double click sent once
            await expect(prompt).to_contain_text("is final")

            # at a phone's width nothing overflows sideways
            width = await page.evaluate("document.scrollingElement.scrollWidth")
            assert width <= PHONE["width"]
            assert not errors, errors
        finally:
            await browser.close()
