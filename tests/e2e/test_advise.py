"""``/tournament advise`` through Discord (the real discord.py client against the sandbox): the
organiser sees "thinking" at once, then the advice as one ephemeral embed within Discord's
limits; a player is refused."""

from __future__ import annotations

from sandbox import FakeDiscord, SandboxGuild
from sandbox.wire import CB_DEFERRED_MESSAGE
from swiss.pairing import SYSTEMS
from tests.e2e.fixtures import Club, text_of

EPHEMERAL = 64


async def test_the_organiser_gets_the_advice_and_a_player_is_refused(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    bot = await start_swissbot()
    bot.service.advice_tournaments = 10  # a fixed count: the test is short and deterministic
    club = Club(fake, guild)
    owner, players = club.owner, club.players[:6]
    await club.run(owner, "tournament create", name="Advice Cup", rounds=3, system="burstein")
    for player in players:
        await club.run(player, "join")

    inter = await fake.send_slash_command(guild, club.channel, owner, "tournament advise", {})
    # The simulation runs in a worker process; the worker's first start imports the simulator.
    reply = await fake.reply(inter, timeout=120)
    assert fake.interactions[inter["token"]].callback_type == CB_DEFERRED_MESSAGE
    assert reply["flags"] & EPHEMERAL
    text = text_of(reply)
    assert "Pairing advice: Advice Cup" in text, text
    assert "Simulated: 6 players, 3 rounds, chess scoring" in text, text
    embed = reply["embeds"][0]
    table = embed["fields"][0]["value"]
    assert table.startswith("```") and table.endswith("```")
    assert all(system in table for system in SYSTEMS)
    assert "burstein*" in table  # the event's own system is marked
    assert embed["description"].startswith(("Use ", "No clear difference: use burstein"))
    assert all(len(f["value"]) <= 1024 for f in embed["fields"])

    reply = await club.run(players[0], "tournament advise")
    assert reply["flags"] & EPHEMERAL
    assert "Only organisers can ask the pairing advisor" in reply["content"]
