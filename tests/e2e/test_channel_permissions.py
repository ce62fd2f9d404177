"""The bot's own permissions in the tournament channel (item 5 of issue 11).

The sandbox computes them as Discord does (role permissions, channel overwrites) and the real
discord.py client sees them through the gateway; posts the bot may not make get Discord's 403
(50013 Missing Permissions, 50001 Missing Access) and posts to a deleted channel 404 (10003).
"""

from __future__ import annotations

import asyncio
from typing import Any

from sandbox import FakeDiscord, SandboxGuild
from sandbox.payloads import EMBED_LINKS, SEND_MESSAGES, VIEW_CHANNEL
from service import Actor
from storage import journal
from storage.timefmt import to_text
from tests.e2e.fixtures import Club, text_of

EPHEMERAL = 64


def _organiser(guild: SandboxGuild, fake: FakeDiscord) -> Actor:
    return Actor(user_id=fake.owner.id, guild_id=guild.id, display_name="Owner",
                 is_organiser=True)


async def _retry_now(bot: Any) -> None:
    """Make the announcements waiting for their retry due now (the outbox keeps the retry
    time, and with it the channel's order)."""
    async with bot.service.db.transaction() as conn:
        await conn.execute(
            "UPDATE outbox SET next_attempt_at = ? WHERE delivered_at IS NULL"
            " AND next_attempt_at < '9999'", (to_text(bot.service.now()),))


async def _running(club: Club, players: int = 4) -> None:
    await club.run(club.owner, "tournament create", name="Perm Open", rounds=3)
    for player in club.players[:players]:
        await club.run(player, "join")
    reply = await club.run(club.owner, "tournament start")
    assert "has started" in reply["content"], reply["content"]
    await club.wait_post(lambda m: "pairings" in text_of(m))


async def test_commands_refuse_when_the_bot_cannot_post_in_the_channel(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    owner, channel, role = club.owner, club.channel, fake.bot_role(guild)

    await fake.set_channel_permissions(guild, channel, role, deny=SEND_MESSAGES)
    reply = await club.run(owner, "tournament create", name="Perm Open", rounds=3)
    assert reply["flags"] & EPHEMERAL
    assert "missing the Send Messages permission" in reply["content"]
    assert f"<#{channel.id}>" in reply["content"]
    assert await bot.service.list_tournaments(guild.id) == []

    await fake.set_channel_permissions(guild, channel, fake.bot_member(guild), deny=EMBED_LINKS)
    await fake.set_channel_permissions(guild, channel, role)  # role overwrite removed
    reply = await club.run(owner, "tournament create", name="Perm Open", rounds=3)
    assert "missing the Embed Links permission" in reply["content"]

    await fake.set_channel_permissions(guild, channel, fake.bot_member(guild))
    await fake.set_channel_permissions(guild, channel, guild.everyone, deny=VIEW_CHANNEL)
    reply = await club.run(owner, "tournament create", name="Perm Open", rounds=3)
    assert "missing the View Channel permission" in reply["content"]
    # another channel where the bot may post is fine
    reply = await club.run(owner, "tournament create", name="Elsewhere", rounds=3,
                           channel=guild.channel("general"))
    assert "Created" in reply["content"]
    await club.run(owner, "tournament cancel")

    await fake.set_channel_permissions(guild, channel, guild.everyone)
    reply = await club.run(owner, "tournament create", name="Perm Open", rounds=3)
    assert "Created" in reply["content"]
    for player in club.players[:4]:
        await club.run(player, "join")
    await fake.set_channel_permissions(guild, channel, role, deny=SEND_MESSAGES)
    reply = await club.run(owner, "tournament start")
    assert "missing the Send Messages permission" in reply["content"]
    assert (await bot.service.tournament_info(guild.id)).status == "registration"

    await fake.set_channel_permissions(guild, channel, role)
    reply = await club.run(owner, "tournament start")
    assert "has started" in reply["content"]
    await club.wait_post(lambda m: "pairings" in text_of(m))
    await fake.set_channel_permissions(guild, channel, role, deny=SEND_MESSAGES)
    reply = await club.run(owner, "round next", force=True)
    assert reply["flags"] & EPHEMERAL and "missing the Send Messages permission" in reply["content"]
    assert (await bot.service.tournament_info(guild.id)).current_round == 1
    # nothing was attempted in the channel while the bot could not post
    assert not [r for r in fake.requests if r.status == 403]


async def test_a_post_refused_later_is_reported_to_the_command_and_in_info(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await _running(club)
    # the permission goes away without the gateway telling the bot (a race with the check)
    await fake.set_channel_permissions(guild, club.channel, fake.bot_role(guild),
                                       deny=SEND_MESSAGES, notify=False)
    reply = await club.run_confirmed(club.owner, "round next", force=True)
    assert "Round 2" in reply["content"]
    warning = await fake.wait_for_message(
        lambda m: "cannot post the announcements" in (m.get("content") or "")
    )
    assert warning["flags"] & EPHEMERAL
    assert "missing Send Messages in #tournaments" in warning["content"]
    refused = [r for r in fake.requests if r.kind == "create_message" and r.status == 403]
    assert refused and refused[0].response["code"] == 50013

    reply = await club.run(club.owner, "tournament info")
    assert "Announcements failing: missing Send Messages in #tournaments" in text_of(reply)
    info = await bot.service.tournament_info(guild.id)
    async with bot.service.db.transaction(readonly=True) as conn:
        audit = await journal.list_audit(conn, info.id)
    failed = [a for a in audit if a.action == "announcement.failed"]
    assert len(failed) == 1 and "Send Messages" in failed[0].after["problem"]

    # once allowed again, the held announcements go out and info no longer warns
    await fake.set_channel_permissions(guild, club.channel, fake.bot_role(guild))
    await _retry_now(bot)  # the organiser fixed it: do not wait for the back-off
    bot.delivery.wake()
    await club.wait_post(lambda m: "Round 2" in text_of(m) and "pairings" in text_of(m),
                         timeout=15)
    for _ in range(100):
        if (await bot.service.tournament_info(guild.id)).delivery_problem is None:
            break
        await asyncio.sleep(0.05)
    reply = await club.run(club.owner, "tournament info")
    assert "Announcements failing" not in text_of(reply)


async def test_without_a_command_to_answer_the_organiser_gets_a_dm(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await _running(club)
    await fake.set_channel_permissions(guild, club.channel, fake.bot_role(guild),
                                       deny=SEND_MESSAGES)
    # a round paired without a command (as auto-advance does): no interaction to answer
    bot.delivery._commands.clear()
    await bot.service.pair_next_round(_organiser(guild, fake), force=True, round_number=2)
    bot.delivery.wake()
    for _ in range(200):
        if fake.direct_messages(club.owner):
            break
        await asyncio.sleep(0.05)
    (dm,) = fake.direct_messages(club.owner)
    assert "missing Send Messages in #tournaments" in dm["content"]

    # DMs closed too: the audit log and /tournament info still say it
    fake.closed_dms.add(club.owner.id)
    await fake.set_channel_permissions(guild, club.channel, fake.bot_role(guild),
                                       deny=EMBED_LINKS)  # a new problem: told again
    await _retry_now(bot)  # do not wait for the back-off of the earlier failure
    bot.delivery.wake()
    info = await bot.service.tournament_info(guild.id)
    for _ in range(200):
        info = await bot.service.tournament_info(guild.id)
        if "Embed Links" in (info.delivery_problem or ""):
            break
        await asyncio.sleep(0.05)
    assert info.delivery_problem == "missing Embed Links in #tournaments"
    refused_dm = await fake.wait_for_request(lambda r: r.status == 403 and r.response.get(
        "code") == 50007)
    assert refused_dm.kind == "create_message"
    assert len(fake.direct_messages(club.owner)) == 1
    reply = await club.run(club.owner, "tournament info")
    assert "Announcements failing: missing Embed Links in #tournaments" in text_of(reply)
    async with bot.service.db.transaction(readonly=True) as conn:
        audit = await journal.list_audit(conn, info.id)
    problems = [a.after["problem"] for a in audit if a.action == "announcement.failed"]
    # recorded once per announcement and problem (two announcements met the second one)
    assert problems[0] == "missing Send Messages in #tournaments"
    assert set(problems[1:]) == {"missing Embed Links in #tournaments"}


async def test_an_announcement_for_a_deleted_channel_is_given_up(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await _running(club)
    channel_id = club.channel.id
    await fake.delete_channel(guild, club.channel, notify=False)  # the bot's cache still has it
    view = await bot.service.pair_next_round(_organiser(guild, fake), force=True, round_number=2)
    assert view.number == 2
    bot.delivery.wake()

    def to_deleted() -> list:  # type: ignore[type-arg]
        return [r for r in fake.requests if r.kind == "create_message"
                and r.params.get("channel_id") == str(channel_id) and r.status != 200]

    given_up: list = []  # type: ignore[type-arg]
    for _ in range(200):  # every announcement of round 2 is tried once, then given up
        pending = await bot.service.pending_announcements()  # first: rows in flight
        undelivered = [a for a in await bot.service.announcements(view.tournament_id)
                       if a.attempts and a.last_error]
        given_up = [a for a in undelivered if a.last_error.startswith("gave up")]
        if given_up and not pending:
            break
        await asyncio.sleep(0.05)
    assert given_up, "the announcement to the deleted channel was never given up"
    tried = to_deleted()
    assert tried[0].status == 404 and tried[0].response["code"] == 10003
    assert len(tried) == len(given_up)
    for _ in range(10):  # a few delivery ticks: no new attempt for the given-up rows
        bot.delivery.wake()
        await asyncio.sleep(0.1)
    assert len(to_deleted()) == len(tried)
    info = await bot.service.tournament_info(guild.id)
    assert "gave up" in (info.delivery_problem or "")
