"""Destructive organiser commands ask first, through the real discord.py client.

Each of the five (a forced /round next, /round undo of a round with results, /tournament
finish with open games, /tournament cancel of an event with players, /admin drop of a player
with results) answers privately with what would happen and Confirm / Cancel buttons bound to
the state it was shown for. The first Confirm acts; an older prompt, a second click, a
non-organiser's click are refused with the reason; a prompt survives a restart.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

from sandbox import FakeDiscord, SandboxGuild
from tests.e2e.fixtures import Club, has_button, running_club, text_of

EPHEMERAL = 64


async def _running(fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any) -> tuple:
    return await running_club(fake, guild, start_swissbot, "Friday Blitz", 7)  # round 1 open


async def _board_one_won(bot: Any, club: Club) -> list[Any]:
    """Round 1's games, after the organiser set board 1 (White wins): one result."""
    games = (await bot.service.pairings(club.guild.id)).games
    await club.run(club.owner, "result set", player=f"<@{games[0].white.user_id}>", round=1,
                   result="win")
    return list(games)


def _buttons(fake: FakeDiscord, message: dict[str, Any]) -> list[dict[str, Any]]:
    shown = fake.messages[int(message["id"])]
    return [c for row in shown["components"] for c in row["components"]]


async def _disabled(fake: FakeDiscord, message: dict[str, Any]) -> bool:
    """Whether the prompt's buttons end up disabled (the edit follows the refusal's
    answer), waiting a little for it."""
    for _ in range(250):
        if all(b.get("disabled") for b in _buttons(fake, message)):
            return True
        await asyncio.sleep(0.02)
    return False


def _prompt_of(reply: dict[str, Any]) -> str:
    assert reply["flags"] & EPHEMERAL
    buttons = [c for row in reply["components"] for c in row["components"]]
    assert [(b["label"], b["style"]) for b in buttons] == [("Confirm", 4), ("Cancel", 2)]
    return str(reply["content"])


async def test_each_destructive_command_shows_its_consequence(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot, club = await _running(fake, guild, start_swissbot)
    owner = club.owner
    games = await _board_one_won(bot, club)
    prompt = _prompt_of(await club.run(owner, "round next", force=True))
    assert prompt.startswith(
        "⚠️ **Pair the next round?** This closes round 1: 2 open games become double "
        "forfeits, then pairs round 2 of 'Friday Blitz'.")
    prompt = _prompt_of(await club.run(owner, "round undo"))
    assert prompt.startswith("⚠️ **Undo the round?** This undoes round 1 of 'Friday Blitz': "
                             "1 result is deleted and its pairings are removed.")
    prompt = _prompt_of(await club.run(owner, "tournament finish", force=True))
    assert prompt.startswith("⚠️ **Finish the tournament?** This finishes 'Friday Blitz' "
                             "after round 1 of 7: 2 open games become double forfeits.")
    prompt = _prompt_of(await club.run(owner, "tournament cancel"))
    assert prompt.startswith(
        "⚠️ **Cancel the tournament?** This cancels 'Friday Blitz' after round 1 of 7: "
        "nothing more can be paired or reported, and its 6 players get no final standings.")
    winner = games[0].white
    prompt = _prompt_of(await club.run(owner, "admin drop", player=f"<@{winner.user_id}>"))
    assert prompt.startswith(
        f"⚠️ **Drop the player?** This drops {winner.name} from 'Friday Blitz': 1 played "
        f"game stays in the standings, and {winner.name} is not paired from round 2 on.")
    # Nothing happened: five prompts, no action.
    info = await bot.service.tournament_info(guild.id)
    assert (info.status, info.current_round) == ("running", 1)
    assert all(p.status == "active" for p in await bot.service.list_players(guild.id))


async def test_confirm_acts_for_each_action(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot, club = await _running(fake, guild, start_swissbot)
    owner = club.owner
    games = await _board_one_won(bot, club)
    reply = await club.run(owner, "admin drop", player=f"<@{games[0].white.user_id}>")
    done = await club.click(reply, owner, "Confirm")
    assert done["content"] == f"**{games[0].white.name}** is withdrawn."
    assert all(b.get("disabled") for b in _buttons(fake, reply))
    reply = await club.run_confirmed(owner, "round next", force=True)
    assert reply["content"] == "Round 2 of **Friday Blitz** is paired (2 boards, 1 bye)."
    round_one = await bot.service.pairings(guild.id, round_number=1)
    assert [g.result for g in round_one.games].count("---") == 2  # double forfeits, on Confirm
    games = (await bot.service.pairings(guild.id)).games
    await club.run(owner, "result set", player=f"#{games[0].white.number}", round=2,
                   result="draw")
    reply = await club.run_confirmed(owner, "round undo")
    assert reply["content"] == "Round 2 of **Friday Blitz** is undone."
    reply = await club.run_confirmed(owner, "tournament finish", force=True)
    assert reply["content"] == "🏁 **Friday Blitz** is finished."
    await club.wait_post(lambda m: "Final standings" in text_of(m))


async def test_cancel_dismisses_and_a_non_organiser_cannot_click(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot, club = await _running(fake, guild, start_swissbot)
    prompt = await club.run(club.owner, "tournament cancel")
    intruder = club.players[0]
    for label in ("Confirm", "Cancel"):
        refused = await club.click(prompt, intruder, label)
        assert refused["flags"] & EPHEMERAL
        assert refused["content"].startswith("Only organisers can answer this prompt")
    assert (await bot.service.tournament_info(guild.id)).status == "running"
    assert not any(b.get("disabled") for b in _buttons(fake, prompt))  # still the owner's
    dismissed = await club.click(prompt, club.owner, "Cancel")
    assert dismissed["content"] == "✋ Cancelled: nothing was done."
    assert all(b.get("disabled") for b in _buttons(fake, prompt))
    assert (await bot.service.tournament_info(guild.id)).status == "running"


async def test_an_older_prompt_is_refused_after_a_newer_one_acted(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    """Two organisers (or one, twice) see a prompt; the newer one is confirmed first. The
    older one would close round 2 now: it is refused, and its buttons are disabled."""
    bot, club = await _running(fake, guild, start_swissbot)
    older = await club.run(club.owner, "round next", force=True)
    newer = await club.run(club.owner, "round next", force=True)
    done = await club.click(newer, club.owner, "Confirm")
    assert done["content"] == "Round 2 of **Friday Blitz** is paired (3 boards)."
    refused = await club.click(older, club.owner, "Confirm")
    assert refused["flags"] & EPHEMERAL
    assert refused["content"] == ("Round 2 of 'Friday Blitz' is already paired: the next "
                                  "round to pair is 3.")
    assert await _disabled(fake, older)
    # Undone and paired again: round 2 once more, but not the round the older prompt saw.
    stale = await club.run(club.owner, "tournament cancel")
    await club.run(club.owner, "round undo", round=2)
    await club.run(club.owner, "round next", round=2)
    refused = await club.click(stale, club.owner, "Confirm")
    assert refused["content"].startswith(
        "This prompt is out of date: 'Friday Blitz' has changed since it was shown")
    assert "round 2 was paired at" in refused["content"]
    info = await bot.service.tournament_info(guild.id)
    assert (info.status, info.current_round) == ("running", 2)
    round_two = await bot.service.pairings(guild.id, round_number=2)
    assert {g.state for g in round_two.games} == {"pending"}


async def test_a_prompt_shown_before_a_restart_still_works(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot, club = await _running(fake, guild, start_swissbot)
    prompt = await club.run(club.owner, "round next", force=True)
    assert has_button(prompt, "Confirm")
    as_first_seen = copy.deepcopy(prompt)  # a client that did not see the edit yet
    await bot.close()
    restarted = await start_swissbot()
    done = await club.click(prompt, club.owner, "Confirm")
    assert done["content"] == "Round 2 of **Friday Blitz** is paired (3 boards)."
    assert (await restarted.service.tournament_info(guild.id)).current_round == 2
    again = await fake.click_button(as_first_seen, club.owner, label="Confirm")
    assert "is already paired" in (await fake.reply(again))["content"]


async def test_nothing_to_lose_acts_at_once(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    """No prompt where nothing is lost: a drop before any result, an undo of a round
    without results, a cancel of an event nobody joined."""
    bot, club = await _running(fake, guild, start_swissbot)
    games = (await bot.service.pairings(guild.id)).games
    reply = await club.run(club.owner, "admin drop", player=f"<@{games[0].black.user_id}>")
    assert reply["content"] == f"**{games[0].black.name}** is withdrawn."
    reply = await club.run(club.owner, "round undo")
    assert reply["content"] == "Round 1 of **Friday Blitz** is undone."
    await club.run(club.owner, "tournament create", name="Nobody Cup", rounds=3)
    reply = await club.run(club.owner, "tournament cancel", tournament="Nobody Cup")
    assert reply["content"] == "**Nobody Cup** is cancelled."


async def test_forged_confirmation_ids_get_a_specific_answer(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    """A modified client can send any custom_id, with numbers beyond the database's
    integers: each click is refused in words, nothing is done, nothing crashes."""
    bot, club = await _running(fake, guild, start_swissbot)
    tid = (await bot.service.tournament_info(guild.id)).id
    huge = "9" * 23
    host = await club.run(club.owner, "tournament info")
    for custom_id in (f"swissbot:sure:next:{huge}:{huge}:{huge}",
                      f"swissbot:sure:cancel:{tid}:{huge}:0",
                      f"swissbot:sure:drop:{tid}:0:0:{huge}",
                      f"swissbot:sure:undo:{tid}:0:{huge}"):
        forged = copy.deepcopy(host)
        forged["id"] = "1"  # a message the sandbox does not know
        forged["components"] = [{"type": 1, "components": [
            {"type": 2, "style": 4, "label": "X", "custom_id": custom_id}]}]
        answer = await club.click(forged, club.owner, "X")
        assert answer["flags"] & EPHEMERAL, (custom_id, answer)
        assert "Something went wrong" not in answer["content"], (custom_id, answer["content"])
    info = await bot.service.tournament_info(guild.id)
    assert (info.status, info.current_round) == ("running", 1)
    assert all(p.status == "active" for p in await bot.service.list_players(guild.id))
