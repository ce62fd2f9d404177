"""Repeated round commands through Discord act once (issue 11, item 3).

The hard case: the second click was sent before the first one took effect but reaches the bot
after it committed (Discord delivered it late). The bot must still read it as meant for the
round the organiser saw, from the interaction's creation time, and refuse it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from sandbox import FakeDiscord, SandboxGuild
from tests.e2e.fixtures import Club

EPHEMERAL = 64


@contextmanager
def sent_at(
    monkeypatch: pytest.MonkeyPatch, fake: FakeDiscord, snowflake: int
) -> Iterator[None]:
    """Interactions created inside the block carry ``snowflake`` as their id, i.e. they were
    created at its timestamp (Discord derives ``created_at`` from the id)."""
    original: Callable[..., dict[str, Any]] = fake._interaction_base

    def created_earlier(*args: Any) -> dict[str, Any]:
        payload = original(*args)
        payload["id"] = str(snowflake)
        return payload

    with monkeypatch.context() as patch:
        patch.setattr(fake, "_interaction_base", created_earlier)
        yield


async def _running(fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any) -> tuple:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await club.run(club.owner, "tournament create", name="Twice Open", rounds=5)
    for player in club.players[:6]:
        await club.run(player, "join")
    await club.run(club.owner, "tournament start")
    return bot, club


async def test_late_second_forced_round_next_is_refused_not_paired(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bot, club = await _running(fake, guild, start_swissbot)
    second_click = fake.snowflake()  # the organiser clicks twice, 0 ms apart
    reply = await club.run(club.owner, "round next", force=True)
    assert "Round 2 of **Twice Open** is paired" in reply["content"]
    with sent_at(monkeypatch, fake, second_click):  # ... the second click arrives late
        reply = await club.run(club.owner, "round next", force=True)
    assert reply["flags"] & EPHEMERAL
    assert reply["content"].startswith("Round 2 of 'Twice Open' was already paired")
    assert "so round 3 was not paired" in reply["content"]
    assert (await bot.service.tournament_info(guild.id)).current_round == 2
    round_two = await bot.service.pairings(guild.id, round_number=2)
    assert {g.state for g in round_two.games} == {"pending"}  # not closed as double forfeits
    # Once the organiser has seen round 2, /round next pairs round 3 as usual.
    reply = await club.run(club.owner, "round next", force=True)
    assert "Round 3 of **Twice Open** is paired" in reply["content"]


async def test_back_to_back_forced_round_next_commands_pair_one_round(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot, club = await _running(fake, guild, start_swissbot)
    first = await fake.send_slash_command(
        guild, club.channel, club.owner, "round next", {"force": True})
    second = await fake.send_slash_command(
        guild, club.channel, club.owner, "round next", {"force": True})
    replies = [await fake.reply(first), await fake.reply(second)]
    assert sum("is paired" in r["content"] for r in replies) == 1, replies
    # the second one arrives after the first committed, or while it is being paired
    assert sum("was already paired" in r["content"] or "is being paired" in r["content"]
               for r in replies) == 1, replies
    assert (await bot.service.tournament_info(guild.id)).current_round == 2


async def test_late_second_forced_round_undo_is_refused_not_undone(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bot, club = await _running(fake, guild, start_swissbot)
    await club.run(club.owner, "round next", force=True)
    second_click = fake.snowflake()
    reply = await club.run(club.owner, "round undo", force=True)
    assert "Round 2 of **Twice Open** is undone" in reply["content"]
    with sent_at(monkeypatch, fake, second_click):
        reply = await club.run(club.owner, "round undo", force=True)
    assert reply["flags"] & EPHEMERAL
    assert reply["content"].startswith("Round 2 of 'Twice Open' was already undone")
    assert (await bot.service.tournament_info(guild.id)).current_round == 1
    # The explicit round option names the round exactly.
    reply = await club.run(club.owner, "round undo", force=True, round=2)
    assert "Round 2 of 'Twice Open' was already undone: its latest round is 1." in \
        reply["content"]
    reply = await club.run(club.owner, "round next", force=True, round=2)
    assert "Round 2 of **Twice Open** is paired" in reply["content"]
