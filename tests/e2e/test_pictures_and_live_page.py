"""Issue 16, items 4 and 5 through Discord: /standings image:true, /crosstable, /standings
crosstable:true, /tournament page, and the live-page link in the round posts."""

from __future__ import annotations

import aiohttp
import pytest

from sandbox import FakeDiscord, SandboxGuild
from tests.e2e.fixtures import Club, text_of

EPHEMERAL = 64
pytest.importorskip("PIL")


def _png(reply: dict) -> dict:
    attachments = reply.get("attachments") or []
    assert len(attachments) == 1, reply
    attachment = attachments[0]
    assert attachment["filename"].endswith(".png")
    assert 0 < attachment["size"] <= 10 * 1024 * 1024
    assert attachment["content"][1:4] == "PNG"  # the sandbox keeps the bytes as text
    return attachment


async def _started(club: Club) -> None:
    await club.run(club.owner, "tournament create", name="Picture Open", rounds=3)
    for player in club.players[:6]:
        await club.run(player, "join")
    await club.run(club.owner, "tournament start")


async def test_standings_and_crosstable_pictures(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    await start_swissbot()
    club = Club(fake, guild)
    await _started(club)
    await club.run(club.players[0], "report", result="win")
    reply = await club.run(club.players[2], "standings", image=True, top=3)
    assert reply["flags"] & EPHEMERAL
    assert _png(reply)["filename"].startswith("standings-round-")
    assert "Picture Open" in reply["content"]
    reply = await club.run(club.players[2], "crosstable")
    assert _png(reply)["filename"].startswith("crosstable-round-")
    reply = await club.run(club.players[2], "standings", crosstable=True)
    _png(reply)
    # without the option: the text table, as before
    reply = await club.run(club.players[2], "standings")
    assert not reply.get("attachments") and "Picture Open" in text_of(reply)


async def test_without_live_pages_the_page_command_says_why(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    await start_swissbot()
    club = Club(fake, guild)
    await _started(club)
    reply = await club.run(club.players[0], "tournament page")
    assert reply["flags"] & EPHEMERAL and "SWISSBOT_WEB_PORT" in reply["content"]
    post = await club.wait_post(lambda m: "Round 1" in text_of(m))
    assert "Live page" not in text_of(post)


async def test_live_page_is_linked_from_round_posts_and_serves_the_event(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    bot = await start_swissbot(settings={"web_port": 0, "web_host": "127.0.0.1",
                                         "public_url": "https://swiss.example.test/"})
    club = Club(fake, guild)
    await _started(club)
    post = await club.wait_post(lambda m: "Live page" in (m.get("content") or ""))
    assert "<https://swiss.example.test/e/" in post["content"]
    token = post["content"].split("/e/")[1].split(">")[0]
    reply = await club.run(club.players[1], "tournament page")
    assert f"/e/{token}" in reply["content"] and reply["flags"] & EPHEMERAL
    async with aiohttp.ClientSession() as http:
        base = f"http://127.0.0.1:{bot.web.port}"
        async with http.get(f"{base}/e/{token}/data.json") as response:
            data = await response.json()
        assert data["name"] == "Picture Open" and len(data["standings"]["rows"]) == 6
        async with http.get(f"{base}/e/{token[:-1]}x") as response:
            assert response.status == 404


async def test_without_pillow_the_text_table_comes_with_the_reason(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.pictures import draw

    monkeypatch.setattr(draw, "missing_reason", lambda: "pictures need Pillow, which is not "
                        "installed on this bot (pip install 'swissbot[pictures]')")
    await start_swissbot()
    club = Club(fake, guild)
    await _started(club)
    reply = await club.run(club.players[0], "standings", image=True)
    assert reply["flags"] & EPHEMERAL and not reply.get("attachments")
    assert "No picture: pictures need Pillow" in reply["content"]
    assert "Picture Open" in text_of(reply)
    reply = await club.run(club.players[0], "crosstable")
    assert "No crosstable picture" in reply["content"] and not reply.get("attachments")


async def test_round_posts_carry_the_standings_picture_when_asked(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await club.run(club.owner, "tournament create", name="Picture Open", rounds=3)
    await club.configure(club.owner, "Picture Open", pictures=True)
    await club.run(club.owner, "tournament create", name="Text Open", rounds=3)
    for player in club.players[:4]:
        await club.run(player, "join", tournament="Picture Open")
        await club.run(player, "join", tournament="Text Open")
    for name in ("Picture Open", "Text Open"):
        await club.run(club.owner, "tournament start", tournament=name)
        view = await bot.service.pairings(guild.id, name)
        for game in view.games:
            await club.run(club.owner, "result set", player=f"<@{game.white.user_id}>", round=1,
                           result="win", tournament=name)
    post = await club.wait_post(lambda m: "standings after round 1" in text_of(m)
                                and "Picture Open" in text_of(m) and m.get("attachments"))
    assert any(a["filename"] == "standings-round-1.png" for a in post["attachments"])
    text_post = await club.wait_post(lambda m: "standings after round 1" in text_of(m)
                                     and "Text Open" in text_of(m))
    assert not any(a["filename"].endswith(".png") for a in text_post.get("attachments") or [])
