"""A whole event in German through the real discord.py client: the server's Discord language
is German and so are its members' clients.

The commands are synced with their German names; every answer is in the member's language
(an English member in the same server is answered in English); the posts in the channel are
in the server's language: its Discord locale until ``/config language`` chooses another.
"""

from __future__ import annotations

from typing import Any

import pytest

from sandbox import FakeDiscord, SandboxGuild
from tests.e2e.fixtures import BotStarter, Club, text_of

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

EPHEMERAL = 64


def speaking(guild: SandboxGuild, locale: str) -> None:
    """The server's Discord language and each member's client in ``locale``."""
    guild.preferred_locale = locale
    for member in guild.members.values():
        member.locale = locale


async def _play_round(club: Club, bot: Any) -> None:
    """Every white player reports a win, black confirms: the confirmations are German."""
    view = await bot.service.pairings(club.guild.id)
    for game in view.games:
        white = club.guild.members[game.white.user_id]
        black = club.guild.members[game.black.user_id]
        prompt = await club.run(white, "report", result="win")
        assert f"Runde {game.round}, Brett {game.board}: Ergebnis gemeldet" in text_of(prompt)
        assert "Gemeldet von" in text_of(prompt)
        confirmed = await club.click(prompt, black, "Bestätigen")
        assert "ist endgültig" in text_of(confirmed)


async def test_a_whole_event_in_german(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: BotStarter
) -> None:
    speaking(guild, "de")
    bot = await start_swissbot()
    club = Club(fake, guild)

    # the commands as Discord was sent them: German names and descriptions beside English
    synced = {command["name"]: command for command in fake.guild_commands[guild.id]}
    assert synced["tournament"]["name_localizations"]["de"] == "turnier"
    assert synced["standings"]["name_localizations"]["de"] == "rangliste"
    assert synced["join"]["description_localizations"]["de"] == "Dem Turnier beitreten"

    reply = await club.run(club.owner, "tournament create", name="Herbstopen", rounds=2)
    assert "Turnier **Herbstopen** erstellt" in reply["content"]
    assert "Runde" in text_of(reply) and "Farben" in text_of(reply)  # the info embed
    for player in club.players[:4]:
        reply = await club.run(player, "join")
        assert "ist beigetreten" in reply["content"]
    # a refusal of the service, privately, in German
    again = await club.run(club.players[0], "join")
    assert again["flags"] & EPHEMERAL
    assert "Du bist bereits in 'Herbstopen' angemeldet." in text_of(again)

    reply = await club.run(club.owner, "tournament start")
    assert "**Herbstopen** hat begonnen: Runde 1 ist gepaart (2 Bretter)" in text_of(reply)
    # the post in the channel: the server's Discord language (no /config language yet)
    post = await club.wait_post(lambda m: "Paarungen" in text_of(m))
    assert "Runde 1 von 2" in text_of(post)
    assert "2 Bretter. Meldet euer Ergebnis mit `/report`." in text_of(post)
    assert "Weiß steht zuerst." in text_of(post)

    await _play_round(club, bot)
    standings = await club.wait_post(lambda m: "Rangliste nach Runde 1" in text_of(m))
    assert "Pkt" in text_of(standings) and "Name" in text_of(standings)
    await club.wait_post(lambda m: "Ergebnisse Runde 1" in text_of(m))

    # a member whose Discord speaks English is answered in English in the same server
    english = club.players[5]
    english.locale = "en-US"
    reply = await club.run(english, "standings")
    assert "standings after round 1" in text_of(reply)
    refusal = await club.run(english, "report", result="win")
    assert "You are not playing in 'Herbstopen'." in text_of(refusal)

    # the organisers choose French for the posts; the owner's own answer stays German
    reply = await club.run(club.owner, "config show")
    assert "Sprache der Beiträge: Deutsch (die Discord-Sprache des Servers)." in text_of(reply)
    reply = await club.run(club.owner, "config language", language="fr")
    assert reply["flags"] & EPHEMERAL
    assert "Die Beiträge des Servers sind jetzt auf Français." in text_of(reply)
    reply = await club.run(club.owner, "config show")
    assert "Sprache der Beiträge: Français." in text_of(reply)
    reply = await club.run(club.owner, "round next")
    assert "Runde 2 von **Herbstopen** ist gepaart" in text_of(reply)
    post = await club.wait_post(lambda m: "appariements" in text_of(m))
    assert "Ronde 2 sur 2" in text_of(post) and "Déclarez votre résultat" in text_of(post)


async def test_a_locale_swissbot_does_not_speak_gets_english(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot: BotStarter
) -> None:
    speaking(guild, "ja")
    await start_swissbot()
    club = Club(fake, guild)
    reply = await club.run(club.owner, "tournament create", name="Autumn", rounds=1)
    assert "Created **Autumn**" in reply["content"]
    await club.run(club.players[0], "join")
    refusal = await club.run(club.players[0], "join")
    assert "You are already registered in 'Autumn'." in text_of(refusal)
    synced = {command["name"]: command for command in fake.guild_commands[guild.id]}
    assert "ja" not in synced["tournament"].get("name_localizations", {})
