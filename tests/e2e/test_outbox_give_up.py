"""Announcements that cannot be posted are given up, not retried forever.

A channel the bot cannot see (403 50001), a deleted channel (404 10003): given up at the first
attempt. A refused post (403 50013) that an admin does not fix: given up after the bounded
number of attempts. Each time the row is kept (audited, shown by /tournament info), the
organiser is told once per event and reason, and the channel's later announcements are not
held back by it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from sandbox import FakeDiscord, SandboxGuild
from sandbox.payloads import SEND_MESSAGES, VIEW_CHANNEL
from service import Actor
from storage import journal
from tests.e2e.fixtures import Club, text_of


def _organiser(guild: SandboxGuild, fake: FakeDiscord) -> Actor:
    return Actor(user_id=fake.owner.id, guild_id=guild.id, display_name="Owner",
                 is_organiser=True)


async def _running(club: Club) -> None:
    await club.run(club.owner, "tournament create", name="Gone Open", rounds=4)
    for player in club.players[:4]:
        await club.run(player, "join")
    reply = await club.run(club.owner, "tournament start")
    assert "has started" in reply["content"], reply["content"]
    await club.wait_post(lambda m: "pairings" in text_of(m))


async def _given_up(bot: Any, tournament_id: int, count: int = 1, timeout: float = 15.0) -> list:  # type: ignore[type-arg]
    rows: list = []  # type: ignore[type-arg]
    for _ in range(int(timeout / 0.05)):
        rows = [a for a in await bot.service.announcements(tournament_id)
                if (a.last_error or "").startswith("gave up")]
        if len(rows) >= count and not await bot.service.pending_announcements():
            return rows
        await asyncio.sleep(0.05)
    return rows


def _posts_to(fake: FakeDiscord, channel_id: int) -> list:  # type: ignore[type-arg]
    return [r for r in fake.requests if r.kind == "create_message"
            and r.params.get("channel_id") == str(channel_id)]


async def test_a_channel_the_bot_cannot_see_is_given_up_at_once_and_told_once(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await _running(club)
    # the channel is hidden from the bot without the gateway telling it
    await fake.set_channel_permissions(guild, club.channel, fake.bot_role(guild),
                                       deny=VIEW_CHANNEL, notify=False)
    bot.delivery._commands.clear()  # as auto-advance: no command to answer, so a DM
    before = len(_posts_to(fake, club.channel.id))
    view = await bot.service.pair_next_round(_organiser(guild, fake), force=True,
                                             round_number=2)
    bot.delivery.wake()
    given_up = await _given_up(bot, view.tournament_id)
    assert given_up, "the announcements to the hidden channel were never given up"
    assert all("Missing Access" in (a.last_error or "") for a in given_up)
    refused = _posts_to(fake, club.channel.id)[before:]
    assert [r.status for r in refused] == [403] * len(given_up)  # each tried exactly once
    assert refused[0].response["code"] == 50001
    for _ in range(10):  # later ticks: no new attempt
        bot.delivery.wake()
        await asyncio.sleep(0.1)
    assert len(_posts_to(fake, club.channel.id)) - before == len(given_up)
    (dm,) = fake.direct_messages(club.owner)  # told once, however many rows
    assert "gave up" in dm["content"] and "Gone Open" in dm["content"]
    assert dm["allowed_mentions"]["parse"] == []
    async with bot.service.db.transaction(readonly=True) as conn:
        audit = await journal.list_audit(conn, view.tournament_id)
    assert [a.action for a in audit].count("announcement.abandoned") == len(given_up)
    info = await bot.service.tournament_info(guild.id)
    assert "gave up" in (info.delivery_problem or "")


async def test_a_refused_post_is_given_up_after_the_bounded_attempts_then_later_posts_go_out(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    bot = await start_swissbot()
    bot.delivery.max_attempts = 2  # the default (10) waits about 14 minutes
    club = Club(fake, guild)
    await _running(club)
    await fake.set_channel_permissions(guild, club.channel, fake.bot_role(guild),
                                       deny=SEND_MESSAGES, notify=False)
    reply = await club.run_confirmed(club.owner, "round next", force=True)
    assert "Round 2" in reply["content"]
    tid = (await bot.service.tournament_info(guild.id)).id
    warning = await fake.wait_for_message(
        lambda m: "cannot post the announcements" in (m.get("content") or ""))
    assert "missing Send Messages in #tournaments" in warning["content"]
    given_up = await _given_up(bot, tid, timeout=20)  # the second attempt comes after 2 s
    assert given_up, "the refused announcement was retried without end"
    assert all("(2 attempts)" in (a.last_error or "") for a in given_up)
    notes = [m for m in fake.messages.values() if "gave up" in (m.get("content") or "")]
    assert len(notes) == 1 and notes[0]["flags"] & 64  # a follow-up to the command, ephemeral
    attempts = len(_posts_to(fake, club.channel.id))
    for _ in range(10):
        bot.delivery.wake()
        await asyncio.sleep(0.1)
    assert len(_posts_to(fake, club.channel.id)) == attempts

    # the admin fixes the permission: the next announcements of the channel go out at once
    await fake.set_channel_permissions(guild, club.channel, fake.bot_role(guild))
    await club.run_confirmed(club.owner, "round next", force=True)
    await club.wait_post(lambda m: "Round 3" in text_of(m) and "pairings" in text_of(m),
                         timeout=15)


async def test_a_deleted_channel_tells_the_organiser_once(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await _running(club)
    await fake.delete_channel(guild, club.channel, notify=False)
    bot.delivery._commands.clear()
    view = await bot.service.pair_next_round(_organiser(guild, fake), force=True,
                                             round_number=2)
    bot.delivery.wake()
    assert await _given_up(bot, view.tournament_id)
    for _ in range(100):
        if fake.direct_messages(club.owner):
            break
        await asyncio.sleep(0.05)
    (dm,) = fake.direct_messages(club.owner)
    assert "gave up" in dm["content"] and "deleted" in dm["content"]


async def test_a_players_command_is_not_where_the_organiser_is_told(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    """The round results queued by a player's /report cannot be posted: the organiser hears
    it (by DM), not the player whose command queued them."""
    bot = await start_swissbot()
    club = Club(fake, guild)
    await _running(club)
    view = await bot.service.pairings(guild.id)
    first, second = view.games
    await bot.service.set_result(_organiser(guild, fake), 1, first.white.user_id, "win")
    await fake.set_channel_permissions(guild, club.channel, fake.bot_role(guild),
                                       deny=SEND_MESSAGES, notify=False)
    white = guild.members[second.white.user_id]
    black = guild.members[second.black.user_id]
    await club.run(white, "report", result="draw")
    reply = await club.run(black, "report", result="draw")  # completes the round
    assert "final" in reply["content"] or "confirmed" in reply["content"].lower(), reply
    for _ in range(200):
        if fake.direct_messages(club.owner):
            break
        await asyncio.sleep(0.05)
    (dm,) = fake.direct_messages(club.owner)
    assert "cannot post the announcements" in dm["content"]
    told = [m for m in fake.messages.values()
            if "cannot post the announcements" in (m.get("content") or "")]
    assert told == [dm]  # no follow-up to the player
