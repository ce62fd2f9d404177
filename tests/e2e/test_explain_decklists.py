"""``/why``, ``/tiebreak`` and ``/decklist`` through Discord (the real discord.py client
against the sandbox): ephemeral answers within Discord's limits, refusals in words."""

from __future__ import annotations

import json

from sandbox import FakeDiscord, SandboxGuild
from tests.e2e.fixtures import Club, text_of

EPHEMERAL = 64


async def test_why_and_tiebreak(fake: FakeDiscord, guild: SandboxGuild, start_swissbot) -> None:
    bot = await start_swissbot()
    club = Club(fake, guild)
    owner, players = club.owner, club.players[:5]
    await club.run(owner, "tournament create", name="Why Cup", rounds=3)
    for rating, player in zip((2000, 1900, 1800, 1700, 1600), players, strict=True):
        await club.run(player, "join", rating=rating)
    await club.run(owner, "tournament start")
    view = await bot.service.pairings(guild.id)
    bye = view.byes[0].player.user_id
    loner = next(p for p in players if p.id == bye)
    reply = await club.run(loner, "why")
    assert reply["flags"] & EPHEMERAL
    text = text_of(reply)
    assert "pairing bye" in text and "lowest-ranked player" in text, text
    white = next(p for p in players if p.id == view.games[0].white.user_id)
    reply = await club.run(white, "why", round=1)
    text = text_of(reply)
    assert "You got white" in text and "swissbot pair --explain" in text, text
    # Another player's pairing: organisers only.
    reply = await club.run(white, "why", player=f"<@{bye}>")
    assert reply["flags"] & EPHEMERAL and "Only organisers" in reply["content"]
    reply = await club.run(owner, "why", player=f"<@{bye}>")
    assert "pairing bye" in text_of(reply)
    # Results, then the tiebreak working of a player.
    for game in view.games:
        await club.run(owner, "result set", player=f"#{game.white.number}", round=1,
                       result="win")
    reply = await club.run(white, "tiebreak")
    assert reply["flags"] & EPHEMERAL
    text = text_of(reply)
    assert "FIDE C.07 edition" in text and "BH" in text and "art." in text, text
    standings = await bot.service.standings(guild.id)
    first = standings.rows[0]
    reply = await club.run(loner, "tiebreak", player=f"#{first.number}")
    assert f"place {first.rank}" in text_of(reply)


async def test_decklists(fake: FakeDiscord, guild: SandboxGuild, start_swissbot) -> None:
    await start_swissbot()
    club = Club(fake, guild)
    owner, (ann, ben) = club.owner, club.players[:2]
    await club.run(owner, "tournament create", name="Deck Cup", rounds=3, scoring="match")
    reply = await club.run(ann, "decklist submit", decklist="4 Bolt")
    assert "does not take decklists" in reply["content"]
    reply = await club.run(owner, "decklist setup", mode="text")
    assert "Decklists: **text**" in reply["content"], reply["content"]
    for player in (ann, ben):
        await club.run(player, "join")
    reply = await club.run(ann, "decklist submit", decklist="4 Bolt; 4 Guide; 20 @everyone")
    assert reply["flags"] & EPHEMERAL and "Decklist saved" in reply["content"]
    assert "4 Guide" in text_of(reply) and reply["mentions"] == []
    # Hidden from other players until published; organisers see it.
    reply = await club.run(ben, "decklist show", player=f"<@{ann.id}>")
    assert "hidden until an organiser publishes" in reply["content"]
    reply = await club.run(owner, "decklist show", player=f"<@{ann.id}>")
    assert "4 Bolt" in text_of(reply)
    reply = await club.run(owner, "decklist status")
    assert "Submitted (1)" in text_of(reply) and "Missing (1)" in text_of(reply)
    # The JSON export: hidden lists only for organisers.
    reply = await club.run(ben, "tournament export", format="json")
    assert "decklists" not in json.loads(reply["attachments"][0]["content"])
    reply = await club.run(owner, "tournament export", format="json")
    decks = json.loads(reply["attachments"][0]["content"])["decklists"]
    assert [d["decklist"] for d in decks] == ["4 Bolt; 4 Guide; 20 @everyone"]
    reply = await club.run(ben, "decklist publish")
    assert "Only organisers" in reply["content"]
    reply = await club.run(owner, "decklist publish")
    assert "Published" in text_of(reply)
    reply = await club.run(owner, "decklist publish")
    assert "already published" in reply["content"]
    reply = await club.run(ben, "decklist show", player=f"<@{ann.id}>")
    assert "4 Bolt" in text_of(reply) and reply["flags"] & EPHEMERAL
    # Locked once the event starts.
    await club.run(owner, "tournament start")
    reply = await club.run(ben, "decklist submit", decklist="1 Late card")
    assert "decklists are locked" in reply["content"]


async def test_decklist_links(fake: FakeDiscord, guild: SandboxGuild, start_swissbot) -> None:
    await start_swissbot()
    club = Club(fake, guild)
    owner, ann = club.owner, club.players[0]
    await club.run(owner, "tournament create", name="Link Cup", rounds=3)
    await club.run(owner, "decklist setup", mode="link", deadline="2099-01-01T18:00")
    await club.run(ann, "join")
    reply = await club.run(ann, "decklist submit", decklist="javascript:alert(1)")
    assert "web link" in reply["content"]
    reply = await club.run(ann, "decklist submit", decklist="https://moxfield.com/decks/x_1")
    embed = reply["embeds"][0]
    assert embed["url"] == "https://moxfield.com/decks/x_1"
