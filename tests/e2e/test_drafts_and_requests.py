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
