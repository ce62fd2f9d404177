"""Two events open in one server, through the sandbox and the real discord.py client: a
player never names the event he is in. /report in a game thread acts on that game's event;
a player of one event is not asked; a player of both is asked, by the events' names, and the
autocomplete lists them."""

from __future__ import annotations

import asyncio
from typing import Any

from sandbox import FakeDiscord, SandboxGuild
from sandbox.payloads import SandboxChannel, SandboxMember
from tests.e2e.fixtures import Club, text_of

EPHEMERAL = 64


async def _run_in(club: Club, channel: SandboxChannel, member: SandboxMember, command: str,
                  **options: Any) -> dict[str, Any]:
    inter = await club.fake.send_slash_command(club.guild, channel, member, command, options)
    return await club.fake.reply(inter)


async def _until(condition: Any, timeout: float = 10.0) -> None:
    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.02)
    await asyncio.wait_for(wait(), timeout)


async def test_report_finds_the_event_from_the_thread_and_from_the_player(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    general = guild.channel("general")
    for name in ("Blitz", "Rapid"):
        reply = await club.run(club.owner, "tournament create", name=name, rounds=2)
        assert f"Created **{name}**" in reply["content"], reply
        await club.configure(club.owner, name, game_threads=True)
    both = club.players[8]  # the top seed of both events: board 1, never the bye
    blitz_only, rapid_only = club.players[:4], club.players[4:8]
    # In the events' channel with both taking entries, /join without the option asks...
    asked = await club.run(blitz_only[0], "join")
    assert asked["flags"] & EPHEMERAL and "'Blitz', 'Rapid'" in asked["content"], asked
    for player in blitz_only:
        assert "joined" in (await club.run(player, "join", tournament="Blitz"))["content"]
    for player in rapid_only:
        assert "joined" in (await club.run(player, "join", tournament="Rapid"))["content"]
    # ...and a player in one of them joins the other one without naming it.
    assert "joined" in (await club.run(both, "join", tournament="Blitz", rating=2500))[
        "content"]
    assert "joined" in (await club.run(both, "join", rating=2500))["content"]
    assert {p.user_id for p in await bot.service.list_players(guild.id, "Rapid")} >= {both.id}
    for name in ("Blitz", "Rapid"):
        await club.run(club.owner, "tournament start", tournament=name)
    blitz = await bot.service.pairings(guild.id, "Blitz")
    rapid = await bot.service.pairings(guild.id, "Rapid")
    threads: dict[int, int] = {}

    def opened() -> bool:
        return all(threads.get(g.id) for g in (blitz.games[0], rapid.games[0]))

    async def look() -> None:
        while not opened():
            for game in (blitz.games[0], rapid.games[0]):
                seen = await bot.service.game_thread(game.id)
                if seen is not None and seen.thread_id:
                    threads[game.id] = seen.thread_id
            await asyncio.sleep(0.05)
    await asyncio.wait_for(look(), 10)

    # 1. A player of both events, in the server's general channel: asked, by name.
    asked = await _run_in(club, general, both, "report", result="win")
    assert asked["flags"] & EPHEMERAL, asked
    assert "'Blitz', 'Rapid'" in asked["content"] and "tournament option" in asked["content"]
    choices = await fake.reply(await fake.send_autocomplete(
        guild, general, both, "report", "tournament", {"result": "win"}))
    names = [c["name"] for c in choices["choices"]]
    assert any("Blitz" in n for n in names) and any("Rapid" in n for n in names), choices

    # 2. The same player in his Rapid game's thread: the Rapid game, without a question.
    thread = guild.channels[threads[rapid.games[0].id]]
    reply = await _run_in(club, thread, both, "report", result="win")
    assert "'Blitz'" not in text_of(reply), reply
    rapid_game = await bot.service.get_game(guild.id, rapid.games[0].id)
    assert rapid_game.state != "pending" or rapid_game.reported_result, rapid_game
    blitz_game = await bot.service.get_game(guild.id, blitz.games[0].id)
    assert not blitz_game.reported_result  # the other event's game is untouched

    # 3. A player of one event only, in the general channel: his event, no question.
    blitz_player = next(p for p in blitz_only
                        if p.id in {blitz.games[1].white.user_id, blitz.games[1].black.user_id})
    reply = await _run_in(club, general, blitz_player, "report", result="draw")
    assert "Which tournament" not in text_of(reply), reply
    assert (await bot.service.get_game(guild.id, blitz.games[1].id)).reported_result


async def test_commands_in_an_events_channel_act_on_that_event(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: Any
) -> None:
    """Each event posts in its own channel: /join there joins it, and an organiser's
    /tournament start there starts it, the other event untouched."""
    bot = await start_swissbot()
    club = Club(fake, guild)
    general = guild.channel("general")
    await club.run(club.owner, "tournament create", name="Blitz", rounds=2,
                   channel=club.channel)
    await club.run(club.owner, "tournament create", name="Rapid", rounds=2, channel=general)
    for player in club.players[:4]:
        reply = await _run_in(club, general, player, "join")
        assert "joined" in reply["content"], reply
    assert len(await bot.service.list_players(guild.id, "Rapid")) == 4
    assert await bot.service.list_players(guild.id, "Blitz") == []
    reply = await _run_in(club, general, club.owner, "tournament start")
    assert "Which tournament" not in text_of(reply) and "Several" not in text_of(reply), reply
    infos = {t.name: t.status for t in await bot.service.list_tournaments(guild.id)}
    assert infos == {"Blitz": "registration", "Rapid": "running"}
    # in the other channel, the organiser's command is about the other event
    reply = await club.run(club.owner, "tournament info")
    assert "Blitz" in text_of(reply) and "Rapid" not in text_of(reply), reply
