"""The real bot connects to the sandbox, syncs its commands and answers."""

from __future__ import annotations

import gc

import pytest

from bot import heap
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


async def test_the_ready_bot_froze_its_start_up_heap(fake, guild, start_swissbot,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Its start-up objects are out of the collector's full passes (bot/heap.py)."""
    monkeypatch.setattr(heap, "_settled", False)
    gc.unfreeze()
    try:
        bot = await start_swissbot()
        assert gc.get_freeze_count() > 0
        assert not any(o is bot.tree for o in gc.get_objects())
    finally:
        gc.unfreeze()
