"""Issue 13 part 2 through Discord: a round paired in a worker process.

The bot pairs every round in a worker (``pairing_inline_below=0``) with a job that takes
3 s (tests/pairing_jobs.py), so the test can act while a round is being paired: the channel
shows a progress line that becomes the pairings post, a second ``/round next`` hears "being
paired", and another server's commands are answered meanwhile.
"""

from __future__ import annotations

import asyncio
from typing import Any

from sandbox import FakeDiscord, SandboxGuild
from service.pairing_pool import PairingPool
from tests.e2e.fixtures import Club, text_of
from tests.pairing_jobs import slow_pairing

EPHEMERAL = 64


async def _slow_bot(start_swissbot: Any) -> Any:
    bot = await start_swissbot(settings={"pairing_inline_below": 0})
    fast = bot.service.pairing
    bot.service.pairing = PairingPool(fast.limits, job=slow_pairing)
    fast.close()
    return bot


async def _ready(club: Club, name: str, players: int, *, guests: bool = False) -> None:
    await club.run(club.owner, "tournament create", name=name, rounds=4)
    if guests:  # guests are never pinged: the pairings fit in the edited message
        for i in range(players):
            await club.run(club.owner, "admin add-player", **{"member-or-name": f"Guest {i + 1}"})
    else:
        for player in club.players[:players]:
            await club.run(player, "join")


async def test_progress_line_becomes_the_pairings_and_a_second_next_is_told(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot = await _slow_bot(start_swissbot)
    club = Club(fake, guild)
    await _ready(club, "Worker Open", 6, guests=True)
    started = await fake.send_slash_command(guild, club.channel, club.owner,
                                            "tournament start", {})
    progress = await club.wait_post(lambda m: "Pairing round 1" in (m.get("content") or ""),
                                    timeout=60)
    assert progress["content"] == "⏳ Pairing round 1 of **Worker Open** for 6 players..."
    again = await club.run(club.owner, "round next")
    assert again["flags"] & EPHEMERAL
    assert again["content"].startswith("Round 1 of 'Worker Open' is being paired (6 players")
    reply = await fake.reply(started, timeout=60)
    assert "round 1 is paired" in reply["content"]
    for _ in range(200):  # the delivery edits the line into the pairings
        if progress.get("edited_timestamp"):
            break
        await asyncio.sleep(0.05)
    assert progress["edited_timestamp"], "the progress line was not edited"
    assert progress["content"] == "**Round 1** of **Worker Open** is paired."
    assert "Guest 1" in text_of(progress)  # the boards are in the edited message itself
    assert not any("Pairing round" in (m.get("content") or "") for m in club.posts())
    bot.service.pairing.close()


async def test_with_members_the_line_becomes_the_header_and_the_pings_are_posted(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot = await _slow_bot(start_swissbot)
    club = Club(fake, guild)
    await _ready(club, "Ping Open", 4)
    started = await fake.send_slash_command(guild, club.channel, club.owner,
                                            "tournament start", {})
    reply = await fake.reply(started, timeout=60)  # a cold worker on a loaded machine
    assert "round 1 is paired" in reply["content"]
    pairings = await club.wait_post(lambda m: "Round 1" in text_of(m)
                                    and "Pairing" not in text_of(m) and m.get("embeds"),
                                    timeout=60)
    # a new message, so that Discord notifies the paired players (edits notify nobody)
    assert pairings["mentions"] or "<@" in text_of(pairings)
    header = next(m for m in club.posts() if m.get("edited_timestamp"))
    assert header["content"].startswith("**Round 1** of **Ping Open** is paired.")
    assert club.posts().index(header) < club.posts().index(pairings)
    bot.service.pairing.close()


async def test_another_server_is_answered_while_a_round_is_paired(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    other = fake.add_guild("Other Club", players=2)
    bot = await _slow_bot(start_swissbot)
    club, elsewhere = Club(fake, guild), Club(fake, other)
    await _ready(club, "Busy Open", 6, guests=True)
    await elsewhere.run(elsewhere.owner, "tournament create", name="Quiet Cup", rounds=3)
    started = await fake.send_slash_command(guild, club.channel, club.owner,
                                            "tournament start", {})
    await club.wait_post(lambda m: "Pairing round 1" in (m.get("content") or ""), timeout=60)
    answer = await elsewhere.run(elsewhere.owner, "tournament info")
    assert "Quiet Cup" in text_of(answer)
    # answered while the first server's round was still being computed
    assert await bot.service.pairing_state(guild.id) == "Round 1 is being paired (6 players)"
    assert not fake.interactions[started["token"]].answered.is_set()
    assert "round 1 is paired" in (await fake.reply(started, timeout=60))["content"]
    bot.service.pairing.close()
