"""The real bot connects to the sandbox, syncs its commands and answers."""

from __future__ import annotations

from tests.e2e.fixtures import Club, text_of


async def test_bot_syncs_commands_and_creates_a_tournament(fake, guild, start_swissbot) -> None:
    await start_swissbot()
    synced = {c["name"] for c in fake.guild_commands[guild.id]}
    assert {"tournament", "round", "join", "leave", "checkin", "report", "result",
            "pairings", "standings", "admin"} <= synced
    club = Club(fake, guild)
    reply = await club.run(club.owner, "tournament create", name="Friday Blitz", rounds=3)
    assert "Created **Friday Blitz**" in reply["content"], text_of(reply)
    reply = await club.run(club.players[0], "join", rating=1500)
    assert "joined" in reply["content"]
    assert fake.unhandled == []
