"""Hostile input through the slash commands, with the real discord.py client: mass pings,
role and user mentions, markdown, zero-width and bidi characters, NUL bytes, 10,000-character
strings, numbers out of range (a modified client ignores the declared bounds), junk for
choices and autocomplete.

Every answer arrives (the sandbox refuses with Discord's 400 whatever breaks a limit), every
refusal is ephemeral and says what was wrong, and nothing the bot posts pings anyone but the
players it means to (the sandbox resolves the pings as Discord does, allowed_mentions
included).
"""

from __future__ import annotations

from typing import Any

import pytest

from sandbox import FakeDiscord, SandboxGuild
from sandbox.limits import check_message_limits
from tests.e2e.fixtures import Club, text_of

EPHEMERAL = 64
HUGE = "X" * 10_000


def _no_stray_pings(fake: FakeDiscord, guild: SandboxGuild, allowed_users: set[int]) -> None:
    for message in fake.messages.values():
        where = text_of(message)[:120]
        assert not message.get("mention_everyone"), where
        assert not message.get("mention_roles"), where
        pinged = {int(u["id"]) for u in message.get("mentions") or []}
        assert pinged <= allowed_users, (where, pinged - allowed_users)


def _refused(reply: dict[str, Any], *words: str) -> None:
    assert reply["flags"] & EPHEMERAL, reply
    content = reply["content"] or ""
    assert content and len(content) <= 2000, content
    assert "Something went wrong" not in content, content  # a refusal, not a crash
    for word in words:
        assert word.lower() in content.lower(), (word, content)


@pytest.mark.parametrize(("name", "why"), [
    ("@everyone Cup", "mention"),
    ("@here", "mention"),
    ("Cup <@&1234567890>", "mention"),
    ("<@1234567890>", "mention"),
    ("<#1234567890> Open", "mention"),
    ("\u200b\u200b\u200b", "empty"),
    ("\u202e\u2066", "empty"),
    ("\x00\x00", "empty"),
    (HUGE, "too long"),
    ("12345", "number"),
])
async def test_hostile_tournament_names_are_refused_specifically(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any, name: str, why: str,
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    reply = await club.run(club.owner, "tournament create", name=name, rounds=3)
    _refused(reply)
    content = reply["content"].lower()
    assert why in content or (why == "number" and ("id" in content or "#" in content)) or (
        why == "mention" and "ping" in content), reply["content"]
    assert await bot.service.list_tournaments(guild.id) == []
    assert not [r for r in fake.requests if r.status == 400]
    _no_stray_pings(fake, guild, set())


async def test_hostile_text_is_stored_inert_and_numbers_out_of_range_are_refused(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    owner, players = club.owner, club.players
    # markdown, a bidi override and a zero-width space in a name: stored without the
    # invisible characters, shown without formatting the rest of the message
    reply = await club.run(owner, "tournament create", name="**Bold** _Cup_ \u202eevil\u200b",
                           rounds=3, tiebreaks="BH,SB")
    assert "Created" in reply["content"], reply
    info = await bot.service.tournament_info(guild.id)
    assert info.name == "**Bold** _Cup_ evil"
    reply = await club.run(owner, "pairings", round=7)
    # a refusal quoting the name shows its Markdown as typed (escaped), not bold
    _refused(reply, "no round 7")
    assert "\\*\\*Bold" in reply["content"], reply["content"]

    # numbers beyond the declared bounds (a modified client): a specific refusal each
    for command, options, words in [
        ("join", {"rating": -5}, ["rating"]),
        ("join", {"rating": 10**12}, ["rating"]),
        ("tournament create", {"name": "Two", "rounds": 0}, ["round"]),
        ("tournament create", {"name": "Two", "rounds": 2**53}, ["round"]),
        ("tournament timers", {"deadline_minutes": -1}, ["deadline"]),
        ("pairings", {"round": -3}, []),
        ("standings", {"round": 10**9}, []),
    ]:
        reply = await club.run(players[0] if command == "join" else owner, command, **options)
        _refused(reply, *words)
    assert [t.name for t in await bot.service.list_tournaments(guild.id)] == [info.name]

    # junk for a choice option (Discord offers only the choices; a modified client sends
    # anything and discord.py passes it on): refused for every command, naming the option
    reply = await club.run(owner, "tournament create", name="Three", rounds=3,
                           system="\x00<@&1>" + HUGE)
    _refused(reply, "not a choice for `system`")
    assert "X" * 100 not in reply["content"]
    for member_, command, options, option in [
        (players[0], "notify", {"dm": "maybe"}, "dm"),  # was read as "off"
        (owner, "tournament topcut", {"size": 3}, "size"),
        (owner, "tournament topcut", {"size": 4, "higher_seed": "**x**"}, "higher_seed"),
        (owner, "admin approve", {"request": "both", "player": "#1"}, "request"),
        (players[0], "report", {"result": "victory"}, "result"),
    ]:
        reply = await club.run(member_, command, **options)
        _refused(reply, f"not a choice for `{option}`")
    assert "\\*\\*x" in reply["content"] or option != "higher_seed"
    assert not (await bot.service.dm_setting(guild.id, players[0].id)).enabled

    # guests named with mentions are refused; @ and markdown alone are fine and inert
    reply = await club.run(owner, "admin add-player", **{"member-or-name": "@everyone"})
    _refused(reply, "mention")
    reply = await club.run(owner, "admin add-player", **{"member-or-name": "Guest\x00 ||x||"})
    assert reply["content"] and not reply["content"].startswith("Something"), reply
    for player in players[:3]:
        await club.run(player, "join")

    # a decklist full of pings and 10,000 characters: refused or stored without pinging
    await club.run(owner, "decklist setup", mode="text")
    reply = await club.run(players[0], "decklist submit", decklist="@everyone " + HUGE)
    _refused(reply, "long")
    reply = await club.run(players[0], "decklist submit",
                           decklist=f"@everyone <@&{guild.everyone.id}> <@{players[1].id}> 4x Bolt")
    assert reply["content"], reply
    reply = await club.run(players[1], "decklist show", player=f"<@{players[0].id}>")
    assert reply["flags"] & EPHEMERAL

    # junk in reference options: a specific "no such ..." answer, cut short
    for command, options in [
        ("tournament info", {"tournament": "\u202e" + HUGE}),
        ("admin drop", {"player": "<@&999>" + HUGE}),
        ("admin drop", {"player": "#999999999999999999999"}),
        ("why", {"player": "\x00"}),
    ]:
        reply = await club.run(owner, command, **options)
        _refused(reply)
        assert "X" * 100 not in reply["content"]

    # autocomplete with junk: an answer (maybe empty), never an error
    for command, focused in [("join", "tournament"), ("admin drop", "player"),
                             ("tournament info", "tournament")]:
        inter = await fake.send_autocomplete(guild, club.channel, owner, command, focused,
                                             {focused: "\x00\u202e<@&1>" + HUGE})
        answer = await fake.reply(inter)
        assert isinstance(answer.get("choices"), list) and len(answer["choices"]) <= 25

    # the event runs with these names: the posts ping only the paired players
    reply = await club.run(owner, "tournament start")
    assert "has started" in reply["content"], reply
    post = await club.wait_post(lambda m: "pairings" in text_of(m))
    check_message_limits(post, [])
    assert not [r for r in fake.requests if r.status == 400]
    _no_stray_pings(fake, guild, {p.id for p in players[:3]})


async def test_numbers_in_other_scripts_get_a_private_specific_refusal(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    """"²" passes str.isdigit() and then fails int(); "١٢" (Arabic-Indic 12) is read as 12 by
    int(). Reminders are typed as text, so a member can send either: each one gets a private
    refusal naming the character (the fake fixture fails the test on any logged error), and
    nothing is stored."""
    bot = await start_swissbot()
    club = Club(fake, guild)
    owner = club.owner
    reply = await club.run(owner, "tournament create", name="Cup", rounds=3)
    assert "Created" in reply["content"], reply
    for reminders in ("²", "5,²", "5,١٢"):
        reply = await club.run(owner, "tournament settings", setting="reminders",
                               value=reminders)
        _refused(reply, "ASCII digits")
    assert (await bot.service.tournament_info(guild.id)).settings.reminders == ""
    await club.configure(owner, reminders="15,5")
    for reminders in ("²", "5,²", "5,١٢", "١٢", "99999999999999999999"):
        reply = await club.run(owner, "tournament timers", reminders=reminders)
        _refused(reply, "reminder")
    info = await bot.service.tournament_info(guild.id)
    assert info.settings.reminders == "15,5"
