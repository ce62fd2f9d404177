"""``/privacy export``, ``/privacy forget``, ``/privacy forget-member`` and ``/config
retention`` through Discord (the real discord.py client, the sandbox), each on SQLite and on
PostgreSQL."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from sandbox import FakeDiscord, SandboxGuild
from tests.e2e.fixtures import Club, has_button, running_club
from tests.pg_cluster import Cluster
from tests.privacy_helpers import database_text

EPHEMERAL = 64


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """Each test on a SQLite file and on a fresh PostgreSQL database (the conftest's
    ``database`` is the SQLite file only)."""
    if request.param == "sqlite":
        yield tmp_path / "swissbot.sqlite3"
        return
    cluster: Cluster = request.getfixturevalue("pg_cluster")  # skips without PostgreSQL
    url = asyncio.run(cluster.new_database())
    yield url
    asyncio.run(cluster.release([url]))


def _attachments(reply: dict[str, Any]) -> dict[str, str]:
    return {a["filename"]: a["content"] for a in reply.get("attachments") or []}


def _disabled(message: dict[str, Any]) -> bool:
    return all(c.get("disabled") for row in message.get("components") or []
               for c in row.get("components") or [])


async def _four_players(fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any,
                        name: str) -> tuple[Any, Club, Any, Any]:
    """A started event of two rounds and four members; the first two of them."""
    bot, club = await running_club(fake, guild, start_swissbot, name, rounds=2, players=4)
    return bot, club, *club.players[:2]


async def test_export_is_a_private_json_file_of_your_own_data(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    _bot, club, ann, ben = await _four_players(fake, guild, start_swissbot, "Data Cup")
    reply = await club.run(ann, "privacy export")
    assert reply["flags"] & EPHEMERAL and "JSON" in reply["content"]
    (name, content), = _attachments(reply).items()
    assert name.endswith(".json")
    data = json.loads(content)
    assert data["user_id"] == ann.id and data["server_id"] == guild.id
    (event,) = data["events"]
    assert event["tournament"] == "Data Cup" and event["name"] == ann.display_name
    assert len(event["games"]) + len(event["byes"]) == 1  # round 1
    assert str(ben.id) not in content  # nothing of another member but his opponent's name


async def test_forget_asks_first_and_a_second_click_is_harmless(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot, club, ann, ben = await _four_players(fake, guild, start_swissbot, "Gone Cup")
    await club.run(ann, "notify", dm="on")
    prompt = await club.run(ann, "privacy forget")
    assert prompt["flags"] & EPHEMERAL and "cannot be undone" in prompt["content"]
    assert has_button(prompt, "Forget me") and has_button(prompt, "Cancel")
    refused = await club.click(prompt, ben, "Forget me")  # not his prompt
    assert "someone else's" in refused["content"]
    assert ann.id in {p.user_id for p in await bot.service.list_players(guild.id)}

    shown = copy.deepcopy(prompt)  # as the member's client still shows it: buttons live
    done = await club.click(prompt, ann, "Forget me")
    assert "Withdrawn player 1" in done["content"]
    assert not has_button(done, "Forget me") or _disabled(done)
    again = await club.click(shown, ann, "Forget me")  # a double click: harmless
    assert "Nothing about you is stored" in again["content"]
    reply = await club.run(ann, "privacy forget")
    assert "Nothing about you is stored" in reply["content"] and not has_button(reply,
                                                                                 "Forget me")

    # round 1's results come after the forget: what is posted names the pseudonym
    seen = len(club.posts())
    for game in (await bot.service.pairings(guild.id)).games:
        await club.run(club.owner, "result set", player=f"#{game.white.number}", round=1,
                       result="win")
    results = await club.wait_post(lambda m: "Round 1 results" in club.fake_text(m))
    assert "Withdrawn player 1" in club.fake_text(results)
    for post in club.posts()[seen:]:
        text = club.fake_text(post)
        assert ann.display_name not in text and str(ann.id) not in text, text
    dump = await database_text(bot.service)
    assert str(ann.id) not in dump and ann.display_name not in dump


async def test_retention_is_a_managers_setting(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    reply = await club.run(club.players[0], "config retention", days=30)
    assert reply["flags"] & EPHEMERAL and "Only server managers" in reply["content"]
    reply = await club.run(club.owner, "config retention", days=30)
    assert "deleted 30 days after they end" in reply["content"]
    reply = await club.run(club.owner, "config retention", days=0)
    assert "kept for good" in reply["content"]
    assert (await bot.service.run_retention()).exported == []


async def test_an_expired_event_is_posted_as_its_last_export_then_deleted(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot, club = await running_club(fake, guild, start_swissbot, "Old Cup", rounds=1,
                                   players=2)
    game = (await bot.service.pairings(guild.id)).games[0]
    await club.run(club.owner, "result set", player=f"#{game.white.number}", round=1,
                   result="draw")  # the last round: the event finishes
    info = await bot.service.tournament_info(guild.id, "Old Cup")
    assert info.status == "finished"
    await club.run(club.owner, "config retention", days=1)
    later = datetime.now(UTC) + timedelta(days=2)

    assert (await bot.service.run_retention(later)).exported == ["Old Cup"]
    post = await club.wait_post(lambda m: "last export" in club.fake_text(m))
    files = _attachments(post)
    assert list(files) and "Old Cup" in next(iter(files.values()))
    for _ in range(100):  # the delivery marks the post delivered just after sending it
        deleted = (await bot.service.run_retention(later)).deleted
        if deleted:
            break
        await asyncio.sleep(0.05)
    assert deleted == ["Old Cup"]
    assert await bot.service.list_tournaments(guild.id, include_closed=True) == []


async def _forget_member(club: Club, asker: Any, member: Any) -> dict[str, Any]:
    """``/privacy forget-member member:`` (Club.run takes the member running it as
    ``member``)."""
    inter = await club.fake.send_slash_command(club.guild, club.channel, asker,
                                               "privacy forget-member", {"member": member})
    return await club.fake.reply(inter)


async def test_a_server_manager_forgets_a_member_and_nobody_else_can(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot, club, ann, ben = await _four_players(fake, guild, start_swissbot, "Ask Cup")
    refused = await _forget_member(club, ben, ann)
    assert refused["flags"] & EPHEMERAL and "Only server managers" in refused["content"]
    prompt = await _forget_member(club, club.owner, ann)
    assert prompt["flags"] & EPHEMERAL and has_button(prompt, "Forget them")
    assert "cannot be undone" in prompt["content"]
    not_hers = await club.click(copy.deepcopy(prompt), ann, "Forget them")
    assert "someone else's" in not_hers["content"]
    done = await club.click(prompt, club.owner, "Forget them")
    assert "Withdrawn player 1" in done["content"]
    players = await bot.service.list_players(guild.id)
    assert ann.id not in {p.user_id for p in players}
    assert "Withdrawn player 1" in {p.name for p in players}
