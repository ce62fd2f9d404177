"""Issue 16 items 1 and 2 through the sandbox and the real discord.py client: a private thread
per board with both players and working result buttons, archived (and locked) once the result
is final; the fallback to the channel when the bot may not open threads (the organisers told
once per round); a player who left; direct messages for players who opted in (the pairing and
the result to confirm, with working buttons); closed DMs tried once and remembered."""

from __future__ import annotations

import asyncio
from typing import Any

from sandbox import FakeDiscord, SandboxGuild
from sandbox.payloads import (
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SEND_MESSAGES_IN_THREADS,
    SandboxChannel,
)
from service import Actor
from tests.e2e.fixtures import Club, stop_swissbot, text_of

EPHEMERAL = 64


async def _set_up(club: Club, *, players: int = 4, threads: bool = True,
                  rounds: int = 2) -> None:
    organisers = club.guild.role("Organisers")
    await club.run(club.owner, "config organiser-role", role=organisers)
    reply = await club.run(club.owner, "tournament create", name="Thread Open", rounds=rounds)
    assert "Created **Thread Open**" in reply["content"], reply
    if threads:
        await club.configure(club.owner, game_threads=True)
    reply = await club.run(club.owner, "tournament info")
    assert ("Game threads" in text_of(reply)) == threads  # /tournament info shows the setting
    for player in club.players[:players]:
        assert "joined" in (await club.run(player, "join"))["content"]


def _threads(guild: SandboxGuild) -> list[SandboxChannel]:
    return [c for c in guild.channels.values() if c.is_thread]


async def _until(condition: Any, timeout: float = 10.0) -> None:
    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.02)
    await asyncio.wait_for(wait(), timeout)


def _organiser(guild: SandboxGuild) -> Actor:
    return Actor(user_id=guild.owner_id, guild_id=guild.id, display_name="owner",
                 is_organiser=True, is_manager=True)


async def test_a_private_thread_per_board_with_buttons_then_archived_and_locked(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    # the bot may lock threads (Manage Threads); without it they are only archived
    await fake.set_role_permissions(guild, fake.bot_role(guild), MANAGE_THREADS)
    bot = await start_swissbot()
    club = Club(fake, guild)
    await _set_up(club)
    await club.run(club.owner, "tournament start")
    await club.wait_post(lambda m: "Round 1 of 2 · pairings" in text_of(m))
    await _until(lambda: len([t for t in _threads(guild) if t.messages]) == 2)
    view = await bot.service.pairings(guild.id)
    threads = _threads(guild)
    assert {t.type for t in threads} == {PRIVATE_THREAD}
    assert {t.parent_id for t in threads} == {club.channel.id}
    boards = {g.board: g for g in view.games}
    for thread in threads:
        board = int(thread.name.split(" B")[1].split(" ")[0])
        game = boards[board]
        assert {game.white.user_id, game.black.user_id} <= thread.thread_members
        opening = thread.messages[0]
        assert f"board {board}" in opening["content"]
        # only the two players are pinged; no @everyone, no roles
        assert {int(u["id"]) for u in opening["mentions"]} == {
            game.white.user_id, game.black.user_id}
        assert opening["allowed_mentions"]["parse"] == []
        labels = [b["label"] for r in opening["components"] for b in r["components"]]
        assert labels == ["White won", "Draw", "Black won"]
    # the gateway told the bot of each thread (THREAD_CREATE): they are in its cache
    assert all(bot.get_channel(t.id) is not None for t in threads)

    thread = threads[0]
    game = boards[int(thread.name.split(" B")[1].split(" ")[0])]
    white, black = guild.members[game.white.user_id], guild.members[game.black.user_id]
    stranger = next(p for p in club.players[:4] if p.id not in (white.id, black.id))
    refusal = await club.click(thread.messages[0], stranger, "White won")
    assert refusal["flags"] & EPHEMERAL and "Only the two players" in refusal["content"]
    prompt = await club.click(thread.messages[0], white, "White won")
    assert prompt["channel_id"] == str(thread.id)  # the prompt stays in the thread
    assert [int(u["id"]) for u in prompt["mentions"]] == [black.id]
    confirmed = await club.click(prompt, black, "Confirm")
    assert "final" in text_of(confirmed).lower() or "confirmed" in text_of(confirmed).lower()
    await _until(lambda: thread.archived)
    assert thread.locked
    other = threads[1]
    assert not other.archived  # its game is still being played


async def test_threads_are_archived_without_locking_when_the_bot_cannot_lock(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await _set_up(club, players=2)
    await club.run(club.owner, "tournament start")
    await _until(lambda: any(t.messages for t in _threads(guild)))
    view = await bot.service.pairings(guild.id)
    await bot.service.set_result(_organiser(guild), 1, view.games[0].white.user_id, "win")
    bot.delivery.wake()
    thread = _threads(guild)[0]
    await _until(lambda: thread.archived)
    assert not thread.locked


async def test_public_threads_where_private_ones_are_not_available(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    guild.private_threads = False
    await start_swissbot()
    club = Club(fake, guild)
    await _set_up(club)
    await club.run(club.owner, "tournament start")
    await _until(lambda: len([t for t in _threads(guild) if t.messages]) == 2)
    assert {t.type for t in _threads(guild)} == {PUBLIC_THREAD}


async def test_fallback_to_the_channel_without_the_thread_permission(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    await fake.set_channel_permissions(guild, guild.channel("tournaments"), fake.bot_role(guild),
                                       deny=CREATE_PRIVATE_THREADS | CREATE_PUBLIC_THREADS)
    await start_swissbot()
    club = Club(fake, guild)
    await _set_up(club, players=6)
    await club.run(club.owner, "tournament start")
    pairings = await club.wait_post(lambda m: "Round 1 of 2 · pairings" in text_of(m))
    notice = await club.wait_post(lambda m: "could not open every game thread" in text_of(m))
    assert "missing Create Private Threads" in notice["content"]
    assert int(notice["id"]) > int(pairings["id"])
    assert notice["mentions"] == [] and notice["allowed_mentions"]["parse"] == []
    await asyncio.sleep(0.3)  # every board's row has been handled
    notices = [m for m in club.posts() if "could not open every game thread" in text_of(m)]
    assert len(notices) == 1  # once per round, not per board (3 boards)
    assert _threads(guild) == []
    assert not [r for r in fake.requests if r.kind == "create_thread" and r.status < 300]


async def test_a_player_who_left_gets_no_thread_membership_and_organisers_are_told(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    await start_swissbot()
    club = Club(fake, guild)
    await _set_up(club, players=2)
    leaver = club.players[1]
    del guild.members[leaver.id]
    await club.run(club.owner, "tournament start")
    notice = await club.wait_post(lambda m: "left the server" in text_of(m))
    assert leaver.user.username in notice["content"]
    thread = _threads(guild)[0]
    await _until(lambda: bool(thread.messages))
    assert club.players[0].id in thread.thread_members
    assert leaver.id not in thread.thread_members


async def test_dm_opt_in_gets_the_pairing_and_the_confirm_prompt(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await _set_up(club, threads=False)
    first, second = club.players[0], club.players[1]
    reply = await club.run(first, "notify", dm="on")
    assert reply["flags"] & EPHEMERAL and "direct message" in reply["content"]
    await club.run(second, "notify", dm="on")
    await club.run(club.players[2], "notify", dm="off")
    await club.run(club.owner, "tournament start")
    await _until(lambda: fake.direct_messages(first) and fake.direct_messages(second))
    assert fake.direct_messages(club.players[2]) == []
    view = await bot.service.pairings(guild.id)
    game = next(g for g in view.games if first.id in (g.white.user_id, g.black.user_id))
    opponent_id = game.black.user_id if game.white.user_id == first.id else game.white.user_id
    opponent = guild.members[opponent_id]
    dm = fake.direct_messages(first)[0]
    assert f"board {game.board}" in dm["content"] and "round 1" in dm["content"]
    assert opponent.user.username in dm["content"]
    assert ("**white**" in dm["content"]) == (game.white.user_id == first.id)
    # the opponent reports: the result to confirm reaches ``first`` by DM, with buttons
    await club.run(opponent, "report", result="win")
    await _until(lambda: any(m.get("components") for m in fake.direct_messages(first)))
    prompt = next(m for m in fake.direct_messages(first) if m.get("components"))
    assert "reported" in prompt["content"]
    answered = await club.click(prompt, first, "Confirm")
    assert answered["id"] == prompt["id"]
    assert all(b.get("disabled") for r in answered["components"] for b in r["components"])
    final = await bot.service.get_game(guild.id, game.id)
    assert final.state == "final"


async def test_closed_dms_are_tried_once_and_remembered(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await _set_up(club, threads=False)
    shy = club.players[0]
    fake.closed_dms.add(shy.id)
    await club.run(shy, "notify", dm="on")
    await club.run(club.owner, "tournament start")
    notice = await club.wait_post(lambda m: "cannot send you direct messages" in text_of(m))
    assert [int(u["id"]) for u in notice["mentions"]] == [shy.id]  # told, by name, once

    def dm_attempts() -> int:
        channel = fake.dm_channels.get(shy.id)
        return len([r for r in fake.requests if r.kind == "create_message"
                    and channel is not None and r.params["channel_id"] == str(channel)])

    assert dm_attempts() == 1
    assert (await bot.service.dm_setting(guild.id, shy.id)).closed
    # round 2: no second attempt, no second notice
    view = await bot.service.pairings(guild.id)
    for game in view.games:
        await bot.service.set_result(_organiser(guild), 1, game.white.user_id, "win")
    await bot.service.pair_next_round(_organiser(guild))
    bot.delivery.wake()
    await club.wait_post(lambda m: "Round 2 of 2 · pairings" in text_of(m))
    await asyncio.sleep(0.2)
    assert dm_attempts() == 1
    assert len([m for m in club.posts() if "cannot send you direct messages" in text_of(m)]) == 1


async def test_a_thread_is_opened_once_across_a_failure_and_a_restart(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    await _set_up(club)
    # the first thread is opened and stored, then adding its first player fails
    fake.fail_next("add_thread_member", 500)
    await club.run(club.owner, "tournament start")
    await fake.wait_for_request(lambda r: r.kind == "add_thread_member" and r.status == 500)
    await stop_swissbot(bot)  # killed before that board's pairing reached its thread
    await start_swissbot()
    await _until(lambda: len([t for t in _threads(guild) if t.messages]) == 2, timeout=20)
    created = [r for r in fake.requests if r.kind == "create_thread" and r.status < 300]
    assert len(created) == 2  # one per board: the retry reused the stored thread
    assert [len(t.messages) for t in _threads(guild)] == [1, 1]
    assert all(len(t.thread_members) == 3 for t in _threads(guild))  # the bot and two players


async def test_the_thread_limit_and_missing_send_in_threads_fall_back_to_the_channel(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    guild.max_active_threads = 1  # Discord answers 160006 for the second board
    await start_swissbot()
    club = Club(fake, guild)
    await _set_up(club)
    await club.run(club.owner, "tournament start")
    notice = await club.wait_post(lambda m: "could not open every game thread" in text_of(m))
    assert "limit of active threads" in notice["content"]
    await _until(lambda: any(t.messages for t in _threads(guild)))
    assert len(_threads(guild)) == 1
    limited = [r for r in fake.requests if r.kind == "create_thread" and r.status == 400]
    assert [r.response["code"] for r in limited] == [160006]


async def test_missing_send_messages_in_threads_is_named(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    await fake.set_channel_permissions(guild, guild.channel("tournaments"), fake.bot_role(guild),
                                       deny=SEND_MESSAGES_IN_THREADS)
    await start_swissbot()
    club = Club(fake, guild)
    await _set_up(club)
    await club.run(club.owner, "tournament start")
    notice = await club.wait_post(lambda m: "could not open every game thread" in text_of(m))
    assert "missing Send Messages in Threads in #tournaments" in notice["content"]
    assert _threads(guild) == []
