"""Repeated destructive round commands through Discord act once, whatever their timing.

A forced ``/round next`` without ``round:`` answers with a prompt bound to the state it was
shown for; only its Confirm button acts, once. Two commands 150 ms apart (a double submit, or
two organisers) used to pair round 2 and then round 3, closing round 2 with every game a
double forfeit, because the guard compared the interaction's creation time with the round's.
"""

from __future__ import annotations

import asyncio
from typing import Any

from sandbox import FakeDiscord, SandboxGuild
from tests.e2e.fixtures import Club, has_button, running_club

EPHEMERAL = 64


async def _running(fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any) -> tuple:
    return await running_club(fake, guild, start_swissbot, "Twice Open", 5)  # round 1 open


async def _round_two_untouched(bot: Any, guild: SandboxGuild) -> None:
    assert (await bot.service.tournament_info(guild.id)).current_round == 2
    round_two = await bot.service.pairings(guild.id, round_number=2)
    assert {g.state for g in round_two.games} == {"pending"}  # no double forfeits


async def _confirm_every_prompt(club: Club, replies: list[dict[str, Any]]) -> list[str]:
    """The organiser confirms every prompt shown, in order: the answers."""
    answers = []
    for reply in replies:
        if has_button(reply, "Confirm"):
            answers.append((await club.click(reply, club.owner, "Confirm"))["content"])
    return answers


async def test_two_forced_round_next_150_ms_apart_pair_one_round(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot, club = await _running(fake, guild, start_swissbot)
    first = await fake.send_slash_command(
        guild, club.channel, club.owner, "round next", {"force": True})
    await asyncio.sleep(0.15)
    second = await fake.send_slash_command(
        guild, club.channel, club.owner, "round next", {"force": True})
    replies = [await fake.reply(first), await fake.reply(second)]
    # Nothing happens without a click, and then only once.
    answers = await _confirm_every_prompt(club, replies)
    await _round_two_untouched(bot, guild)
    assert len(answers) == 2, replies
    assert answers[0] == "Round 2 of **Twice Open** is paired (3 boards)."
    assert answers[1] == ("Round 2 of 'Twice Open' is already paired: the next round to pair "
                          "is 3.")


async def test_two_forced_round_next_naming_the_round_150_ms_apart_pair_it_once(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    """``round:`` stated explicitly acts at once, as before: no prompt."""
    bot, club = await _running(fake, guild, start_swissbot)
    first = await fake.send_slash_command(
        guild, club.channel, club.owner, "round next", {"force": True, "round": 2})
    await asyncio.sleep(0.15)
    second = await fake.send_slash_command(
        guild, club.channel, club.owner, "round next", {"force": True, "round": 2})
    replies = [await fake.reply(first), await fake.reply(second)]
    assert not any(has_button(r, "Confirm") for r in replies)
    assert replies[0]["content"] == "Round 2 of **Twice Open** is paired (3 boards)."
    assert replies[1]["flags"] & EPHEMERAL
    assert replies[1]["content"] == ("Round 2 of 'Twice Open' is already paired: the next "
                                     "round to pair is 3.")
    await _round_two_untouched(bot, guild)


async def test_fifty_concurrent_forced_round_next_and_their_clicks_pair_one_round(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot, club = await _running(fake, guild, start_swissbot)
    sent = await asyncio.gather(*(fake.send_slash_command(
        guild, club.channel, club.owner, "round next", {"force": True}) for _ in range(50)))
    replies = [await fake.reply(inter) for inter in sent]
    assert all(has_button(r, "Confirm") for r in replies), replies
    assert (await bot.service.tournament_info(guild.id)).current_round == 1
    clicks = await asyncio.gather(*(fake.click_button(r, club.owner, label="Confirm")
                                    for r in replies))
    answers = [(await fake.reply(click, timeout=30))["content"] for click in clicks]
    assert sum(a.startswith("Round 2 of **Twice Open** is paired") for a in answers) == 1
    for answer in answers:
        assert ("is paired (3 boards)" in answer or "is already paired" in answer
                or "is being paired" in answer), answer
    await _round_two_untouched(bot, guild)


async def test_a_double_click_of_confirm_acts_once_and_disables_the_prompt(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot, club = await _running(fake, guild, start_swissbot)
    prompt = await club.run(club.owner, "round next", force=True)
    clicks = [await fake.click_button(prompt, club.owner, label="Confirm") for _ in range(2)]
    answers = [(await fake.reply(c))["content"] for c in clicks]
    paired = "Round 2 of **Twice Open** is paired (3 boards)."
    assert answers.count(paired) == 1, answers
    refused = next(a for a in answers if a != paired)
    # after the first committed, or while it was being paired
    assert refused == ("Round 2 of 'Twice Open' is already paired: the next round to pair "
                       "is 3.") or refused.startswith("Round 2 of 'Twice Open' is being paired")
    await _round_two_untouched(bot, guild)
    shown = fake.messages[int(prompt["id"])]
    buttons = [c for row in shown["components"] for c in row["components"]]
    assert [b["label"] for b in buttons] == ["Confirm", "Cancel"]
    assert all(b.get("disabled") for b in buttons)
