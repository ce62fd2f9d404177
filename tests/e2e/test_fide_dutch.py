"""The official FIDE Dutch through Discord (the real discord.py client against the sandbox):
``/tournament create system:fide-dutch rules:2017``, two rounds paired, ``/why`` in the FIDE
terms, the TRF report header and the export."""

from __future__ import annotations

import re
from dataclasses import replace

from sandbox import FakeDiscord, SandboxGuild
from swiss.pairing import SYSTEMS, PairingConfig, pair_round
from swiss.trf import parse_trf
from tests.e2e.fixtures import Club, text_of

EPHEMERAL = 64


async def test_fide_dutch_event_pairs_two_rounds(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    owner, players = club.owner, club.players[:7]
    reply = await club.run(owner, "tournament create", name="Dutch Cup", rounds=4,
                           system="fide-dutch", rules="2017")
    assert "Created **Dutch Cup**" in reply["content"], reply
    assert "fide-dutch (2017 rules)" in text_of(reply)
    for index, player in enumerate(players):
        await club.run(player, "join", rating=2100 - 25 * index)
    reply = await club.run(owner, "tournament start")
    assert "round 1 is paired (3 boards, 1 bye)" in reply["content"], reply["content"]
    for number in (1, 2):
        view = await bot.service.pairings(guild.id)
        for game in view.games:
            await club.run(owner, "result set", player=f"#{game.white.number}",
                           round=number, result="win" if game.board % 2 else "draw")
        if number == 1:
            reply = await club.run(owner, "round next")
            assert "Round 2" in text_of(reply) or "round 2" in text_of(reply), reply
    # /why names the FIDE colour rule and the engine's criteria
    view = await bot.service.pairings(guild.id, round_number=2)
    white = next(p for p in players if p.id == view.games[0].white.user_id)
    reply = await club.run(white, "why", round=2)
    assert reply["flags"] & EPHEMERAL
    text = text_of(reply)
    assert "You got white" in text and "colour rule=" in text, text
    assert re.search(r"\bE\.[1-5]\)", text), text  # the FIDE colour allocation rule
    # the report header, organisers only, then the export carries it
    reply = await club.run(players[0], "tournament trf-header", field="city", value="Oslo")
    assert reply["flags"] & EPHEMERAL and "organiser" in reply["content"].lower()
    reply = await club.run(owner, "tournament trf-header", field="start", value="2026-05-01")
    assert reply["flags"] & EPHEMERAL and "042 2026/05/01" in reply["content"], reply
    reply = await club.run(owner, "tournament trf-header", field="end", value="2026/04/01")
    assert reply["flags"] & EPHEMERAL and "before the date of start" in reply["content"]
    reply = await club.run(owner, "tournament export", format="trf")
    trf = reply["attachments"][0]["content"]
    lines = trf.splitlines()
    assert "042 2026/05/01" in lines and "XXR 4" in lines and "XXC white1" in lines
    # both rounds are exactly the engine's 2017 pairings
    model = parse_trf(trf).tournament
    assert len(model.rounds) == 2
    for rnd in model.rounds:
        before = replace(model, rounds=model.rounds[:rnd.number - 1])
        again = pair_round(before, PairingConfig(system="fide-dutch", rules="2017"))
        assert {(g.white, g.black) for g in again.games} == \
            {(g.white, g.black) for g in rnd.games}


async def test_one_name_per_system_and_the_edition_apart(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot
) -> None:
    """The choices are the systems' names, the same as on the command line (fide-dutch
    among them, as `swissbot demo --system fide-dutch` sends it); the edition is `rules`,
    refused privately for a system without editions, and nothing is created then."""
    bot = await start_swissbot()
    club = Club(fake, guild)
    create = next(c for c in fake.guild_commands[guild.id] if c["name"] == "tournament")
    options = next(o for o in create["options"] if o["name"] == "create")["options"]
    by_name = {o["name"]: o for o in options}
    assert [c["value"] for c in by_name["system"]["choices"]] == list(SYSTEMS)
    assert [c["value"] for c in by_name["rules"]["choices"]] == ["2025", "2017"]
    assert len(options) <= 25  # Discord's limit
    reply = await club.run(club.owner, "tournament create", name="Wrong", rounds=3,
                           system="dutch", rules="2017")
    assert reply["flags"] & EPHEMERAL
    assert "applies to fide-dutch only; dutch has no editions" in reply["content"], reply
    assert await bot.service.list_tournaments(guild.id) == []
    reply = await club.run(club.owner, "tournament create", name="Official", rounds=3,
                           system="fide-dutch")
    assert "fide-dutch (2025 rules)" in text_of(reply), reply
