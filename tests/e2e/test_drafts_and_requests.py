"""Issue 15 items 4, 5, 7 through Discord: preview -> swap (warning, Apply anyway) -> publish;
the waitlist; a player's bye request approved by an organiser."""

from __future__ import annotations

from typing import Any

from sandbox import FakeDiscord, SandboxGuild
from service import Actor
from tests.e2e.fixtures import Club, text_of

EPHEMERAL = 64


async def _round_one_played(club: Club, bot: Any, players: int = 6) -> None:
    await club.run(club.owner, "tournament create", name="Draft Night", rounds=4)
    for player in club.players[:players]:
        await club.run(player, "join")
    await club.run(club.owner, "tournament start")
    org = Actor(user_id=club.owner.id, guild_id=club.guild.id, display_name="owner",
                is_organiser=True)
    view = await bot.service.pairings(club.guild.id)
    for game in view.games:  # results are not what this test is about: set them directly
        await bot.service.set_result(org, 1, f"#{game.white.number}", "win")


async def test_preview_swap_with_rematch_warning_then_publish(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any,
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await _round_one_played(club, bot)
    r1 = await bot.service.pairings(club.guild.id, None, 1)
    met = {}
    for g in r1.games:
        met[g.white.number], met[g.black.number] = g.black.number, g.white.number

    reply = await club.run(club.owner, "round preview")
    assert reply["flags"] & EPHEMERAL
    assert "Round 2 · draft v1" in text_of(reply)
    # a player cannot preview
    refusal = await club.run(club.players[0], "round preview")
    assert refusal["flags"] & EPHEMERAL and "organiser" in text_of(refusal).lower()

    draft = await bot.service.show_draft(
        Actor(user_id=club.owner.id, guild_id=club.guild.id, display_name="o",
              is_organiser=True))
    x, black = draft.boards[0].white.number, draft.boards[0].black.number
    rematch_with = met[x]  # board 1's white played him in round 1
    reply = await club.run(club.owner, "round swap", player=f"#{black}",
                           other=f"#{rematch_with}", version=1)
    assert reply["flags"] & EPHEMERAL
    assert "rematch" in text_of(reply)
    assert "draft v1" in text_of(reply)  # not applied yet
    applied = await club.click(reply, club.owner, "Apply anyway")
    assert "now version 2" in text_of(applied)

    # publishing the replaced version 1 is refused; version 2 is posted
    refusal = await club.run(club.owner, "round publish", version=1)
    assert refusal["flags"] & EPHEMERAL and "version 2" in text_of(refusal)
    reply = await club.run(club.owner, "round publish", version=2)
    assert "Round 2 of **Draft Night** is paired" in reply["content"]
    posted = await club.wait_post(lambda m: "Round 2 of 4 · pairings" in text_of(m))
    assert f"#{x}" in text_of(posted)
    r2 = await bot.service.pairings(club.guild.id, None, 2)
    assert {r2.games[0].white.number, r2.games[0].black.number} == {x, rematch_with}


async def test_waitlist_through_discord(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any,
) -> None:
    await start_swissbot()
    club = Club(fake, guild)
    await club.run(club.owner, "tournament create", name="Tiny Hall", rounds=3)
    reply = await club.run(club.owner, "tournament entry", capacity=2)
    assert reply["flags"] & EPHEMERAL and "saved" in reply["content"]
    ann, bob, cy = club.players[:3]
    await club.run(ann, "join")
    await club.run(bob, "join")
    reply = await club.run(cy, "join")
    assert reply["flags"] & EPHEMERAL and "waitlist (position 1)" in reply["content"]
    info = await club.run(club.owner, "tournament info")
    assert "Waitlist (1)" in text_of(info) and f"<@{cy.id}>" in text_of(info)
    reply = await club.run(ann, "leave")
    assert "left" in reply["content"]
    told = await club.wait_post(lambda m: "you are in" in text_of(m))
    assert [u["id"] for u in told["mentions"]] == [str(cy.id)]  # he alone is pinged
    players = await club.run(club.owner, "tournament info")
    assert f"<@{cy.id}>" in text_of(players) and "Waitlist" not in text_of(players)


async def test_bye_request_approved_with_the_button(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any,
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await _round_one_played(club, bot)
    ann = club.players[0]
    reply = await club.run(ann, "bye request", round=3)
    assert reply["flags"] & EPHEMERAL and "an organiser will approve" in reply["content"]
    # players see no buttons; organisers see the request and Approve / Deny
    assert "Waiting for approval" not in text_of(await club.run(ann, "tournament info"))
    info = await club.run(club.owner, "tournament info")
    assert "Waiting for approval (1)" in text_of(info) and "bye r3 (half)" in text_of(info)
    labels = [c["label"] for row in info["components"] for c in row["components"]]
    assert any(label.startswith("✓") for label in labels)
    approve = next(label for label in labels if label.startswith("✓"))
    done = await club.click(info, club.owner, approve)
    assert done["flags"] & EPHEMERAL and "Approved" in done["content"]
    again = await club.click(info, club.owner, approve)  # the old button: already decided
    assert again["flags"] & EPHEMERAL and "no bye request" in text_of(again)
    told = await club.wait_post(lambda m: "was approved" in text_of(m))
    assert [u["id"] for u in told["mentions"]] == [str(ann.id)]
    # /leave after the start: a confirmation button, then a request organisers decide
    reply = await club.run(ann, "leave")
    assert reply["flags"] & EPHEMERAL and "An organiser approves it" in reply["content"]
    filed = await club.click(reply, ann, "Yes, ask to leave")
    assert "request to leave is filed" in filed["content"]
    reply = await club.run(club.owner, "admin approve", request="leave", player=f"<@{ann.id}>")
    assert "Approved" in reply["content"]
    players = await bot.service.list_players(club.guild.id)
    assert next(p for p in players if p.user_id == ann.id).status == "withdrawn"


async def test_checkin_window_reminder_pings_the_registered_once_and_start_drops_absent(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any,
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await club.run(club.owner, "tournament create", name="Window Cup", rounds=3)
    for player in club.players[:4]:
        await club.run(player, "join")
    reply = await club.run(club.owner, "tournament entry", checkin_opens="2020-01-01T00:00")
    assert "saved" in reply["content"]
    ping = await club.wait_post(lambda m: "Check-in for **Window Cup** is open" in text_of(m))
    assert {int(u["id"]) for u in ping["mentions"]} == {p.id for p in club.players[:4]}
    for player in club.players[:3]:
        reply = await club.run(player, "checkin")
        assert "checked in" in reply["content"]
    await club.run(club.owner, "tournament start")
    status = {p.user_id: p.status for p in await bot.service.list_players(club.guild.id)}
    assert status[club.players[3].id] == "no_show"
    reminders = [m for m in club.posts() if "Check-in for" in text_of(m)]
    assert len(reminders) == 1  # once, though the background pass ran many times
