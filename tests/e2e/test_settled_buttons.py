"""Confirm / Dispute buttons of a result that is already settled (issue: robustness sweep).

A DM prompt is disabled when its result is settled another way (here by ``/result set`` in the
server); a click on a stale copy of a prompt (a client that has not refreshed, or a prompt
posted before a restart) is refused with a specific ephemeral answer and disables the clicked
message's buttons.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

from sandbox import FakeDiscord, SandboxGuild
from service import Actor
from tests.e2e.fixtures import Club, stop_swissbot

EPHEMERAL = 64


async def _until(condition: Any, timeout: float = 10.0) -> None:
    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.02)
    await asyncio.wait_for(wait(), timeout)


def _buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for row in message.get("components") or [] for b in row["components"]]


async def _started(club: Club) -> None:
    await club.run(club.owner, "config organiser-role", role=club.guild.role("Organisers"))
    await club.run(club.owner, "tournament create", name="Button Open", rounds=3)
    for player in club.players[:4]:
        await club.run(player, "join")
    assert "has started" in (await club.run(club.owner, "tournament start"))["content"]


async def _pair_of(bot: Any, guild: SandboxGuild) -> tuple[Any, Any, Any]:
    view = await bot.service.pairings(guild.id)
    game = view.games[0]
    return game, guild.members[game.white.user_id], guild.members[game.black.user_id]


async def test_a_dm_prompt_is_disabled_when_the_result_is_set_in_the_server(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await _started(club)
    game, white, black = await _pair_of(bot, guild)
    await club.run(black, "notify", dm="on")
    await club.run(white, "report", result="win")
    await _until(lambda: any(_buttons(m) for m in fake.direct_messages(black)))
    prompt = next(m for m in fake.direct_messages(black) if _buttons(m))
    stale = copy.deepcopy(prompt)
    assert not any(b.get("disabled") for b in _buttons(prompt))

    # the organiser settles it in the server: the DM's buttons are disabled by the bot
    reply = await club.run(club.owner, "result set", player=f"<@{white.id}>", round=1,
                           result="draw")
    assert reply["content"], reply
    await _until(lambda: all(b.get("disabled") for b in _buttons(fake.messages[int(prompt["id"])])))
    edited = fake.messages[int(prompt["id"])]
    assert "final" in edited["content"] and "½" in edited["content"]
    assert edited["allowed_mentions"]["parse"] == []

    # a click on the stale copy (a client that did not refresh): a specific refusal
    answer = await club.click(stale, black, "Confirm")
    assert answer["flags"] & EPHEMERAL
    assert "already final" in answer["content"], answer["content"]
    assert (await bot.service.get_game(guild.id, game.id)).result == "1/2-1/2"


async def test_a_stale_prompt_clicked_after_a_restart_is_refused_and_disabled(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await _started(club)
    game, white, black = await _pair_of(bot, guild)
    prompt = await club.run(white, "report", result="win")
    assert _buttons(prompt) and not any(b.get("disabled") for b in _buttons(prompt))
    await stop_swissbot(bot)

    bot = await start_swissbot()
    # settled without any command of this bot (as a deadline action or another process does)
    organiser = Actor(user_id=fake.owner.id, guild_id=guild.id, display_name="Owner",
                      is_organiser=True)
    await bot.service.set_result(organiser, 1, white.id, "loss")
    answer = await club.click(prompt, black, "Confirm")
    assert answer["flags"] & EPHEMERAL
    assert "already final" in answer["content"], answer["content"]
    clicked = fake.messages[int(prompt["id"])]
    await _until(lambda: all(b.get("disabled") for b in _buttons(clicked)))
    # the game is untouched by the refused click
    assert (await bot.service.get_game(guild.id, game.id)).result == "0-1"

    # a round undone: the game is gone, and the answer says so
    await club.run_confirmed(club.owner, "round undo", force=True)  # deletes a result
    other = copy.deepcopy(prompt)
    for button in _buttons(other):
        button["disabled"] = False
    answer = await club.click(other, black, "Dispute")
    assert "any more" in answer["content"] and "undone" in answer["content"], answer


FORGED = [
    "swissbot:confirm:99999999999999999999999",
    "swissbot:dispute:0",
    "swissbot:result:99999999999999999999999:white",
    "swissbot:noshow-object:99999999999999999999999",
    "swissbot:draft:publish:99999999999999999999999:99999999999999999999999",
    "swissbot:leave:99999999999999999999999:1",
    "swissbot:decide:approve:bye:99999999999999999999999:99999999999999999999999:1",
]


async def test_forged_button_ids_get_a_specific_answer_not_a_crash(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    """A modified client can click a button the bot never sent, with ids beyond the
    database's integers: each gets a specific ephemeral refusal (and no ERROR is logged,
    which the e2e fixtures would fail on)."""
    await start_swissbot()
    club = Club(fake, guild)
    await _started(club)
    host = await club.run(club.owner, "tournament info")
    for custom_id in FORGED:
        forged = copy.deepcopy(host)
        forged["id"] = "1"  # a message the sandbox does not know: the click carries this one
        forged["components"] = [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "X", "custom_id": custom_id}]}]
        answer = await club.click(forged, club.players[0], "X")
        assert answer["flags"] & EPHEMERAL, (custom_id, answer)
        assert "Something went wrong" not in answer["content"], (custom_id, answer["content"])
