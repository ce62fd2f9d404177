"""Everyone sees what happened, through the real discord.py client against the sandbox: a
disputed game settled by /result set is told to its two players (pinged, nobody else) in the
game's thread or the event's channel; organisers post /standings and /pairings publicly."""

from __future__ import annotations

import asyncio
from typing import Any

from sandbox import FakeDiscord, SandboxGuild, SandboxMember
from tests.e2e.fixtures import Club, text_of

EPHEMERAL = 64


def member(guild: SandboxGuild, user_id: int | None) -> SandboxMember:
    assert user_id is not None
    return guild.members[user_id]


async def _disputed(fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any, *,
                    threads: bool) -> tuple[Any, Club, Any]:
    """Round 1 of a 4-player event under way; board 1 reported by white, disputed by black."""
    bot = await start_swissbot()
    club = Club(fake, guild)
    await club.run(club.owner, "config organiser-role", role=club.guild.role("Organisers"))
    reply = await club.run(club.owner, "tournament create", name="Seen Open", rounds=2)
    assert "Created **Seen Open**" in reply["content"], reply
    if threads:
        await club.configure(club.owner, game_threads=True)
    for player in club.players[:4]:
        assert "joined" in (await club.run(player, "join"))["content"]
    assert "round 1 is paired" in (await club.run(club.owner, "tournament start"))["content"]
    game = next(g for g in (await bot.service.pairings(guild.id)).games if g.board == 1)
    white, black = member(guild, game.white.user_id), member(guild, game.black.user_id)
    prompt = await club.run(white, "report", result="win")
    await club.click(prompt, black, "Dispute")
    return bot, club, game


def _is_note(message: dict[str, Any]) -> bool:
    return "⚖️" in (message.get("content") or "")


async def test_a_settled_dispute_is_told_to_both_players_in_the_game_thread(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    _bot, club, game = await _disputed(fake, guild, start_swissbot, threads=True)
    reply = await club.run(club.owner, "result set", round=1, player=f"#{game.white.number}",
                           result="draw")
    assert reply["flags"] & EPHEMERAL

    note = await fake.wait_for_message(_is_note, 10.0)
    thread = guild.channels[int(note["channel_id"])]
    assert thread.is_thread and {game.white.user_id, game.black.user_id} <= \
        thread.thread_members  # the game's own thread
    pinged = {int(u["id"]) for u in note["mentions"]}
    assert pinged == {game.white.user_id, game.black.user_id}
    assert note["allowed_mentions"]["parse"] == []  # users only, those two
    assert note["mention_everyone"] is False and note["mention_roles"] == []
    text = note["content"]
    assert "set the result" in text and "½-½" in text and "disputed" in text
    # the thread waited for the note before it was archived, and is archived now
    await asyncio.wait_for(_archived(thread), 10.0)
    assert len([m for c in guild.channels.values() for m in c.messages if _is_note(m)]) == 1


async def _archived(thread: Any) -> None:
    while not thread.archived:
        await asyncio.sleep(0.05)


async def test_without_threads_the_note_goes_to_the_channel_and_organisers_post_tables(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    _bot, club, game = await _disputed(fake, guild, start_swissbot, threads=False)
    await club.run(club.owner, "result set", round=1, player=f"#{game.white.number}",
                   result="loss")
    note = await club.wait_post(_is_note)
    assert {int(u["id"]) for u in note["mentions"]} == {game.white.user_id,
                                                       game.black.user_id}
    assert "0-1" in note["content"]

    # a player may look, privately; posting for everyone is the organisers'
    player = club.players[0]
    mine = await club.run(player, "standings")
    assert mine["flags"] & EPHEMERAL
    refusal = await club.run(player, "standings", public=True)
    assert refusal["flags"] & EPHEMERAL and "Only organisers" in refusal["content"]
    refusal = await club.run(player, "pairings", public=True)
    assert refusal["flags"] & EPHEMERAL and "Only organisers" in refusal["content"]

    posted = await club.run(club.owner, "standings", public=True)
    assert not posted["flags"] & EPHEMERAL and "Seen Open" in text_of(posted)
    assert posted["mentions"] == []  # a table pings nobody
    posted = await club.run(club.owner, "pairings", public=True)
    assert not posted["flags"] & EPHEMERAL and "Round 1" in text_of(posted)
    assert posted["mentions"] == []
    # the crosstable picture too (by a player: privately, whatever he asks)
    mine = await club.run(player, "standings", crosstable=True)
    assert mine["flags"] & EPHEMERAL and mine["attachments"]
    posted = await club.run(club.owner, "standings", crosstable=True, public=True)
    assert not posted["flags"] & EPHEMERAL and "crosstable" in text_of(posted)
    assert [a["filename"] for a in posted["attachments"]] == ["crosstable-round-1.png"]
    assert posted["mentions"] == []
