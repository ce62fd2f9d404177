"""The real bot on PostgreSQL (issue 17): SWISSBOT_DATABASE=postgresql://... through the
sandbox, a tournament created, joined, started, played and the bot restarted on the same
database. The other e2e tests run on SQLite; the service tests run on both backends."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from sandbox import FakeDiscord, SandboxGuild
from tests.e2e.fixtures import Club, stop_swissbot, text_of
from tests.e2e.test_tournament_flow import play_round, set_up
from tests.pg_cluster import Cluster


@pytest.fixture
async def database(pg_cluster: Cluster) -> AsyncIterator[str]:
    """A fresh migrated PostgreSQL database instead of the SQLite file (conftest's fixture)."""
    url = await pg_cluster.new_database()
    yield url
    await pg_cluster.release([url])


async def test_a_tournament_on_postgresql_survives_a_restart(
    fake: FakeDiscord, guild: SandboxGuild, start_swissbot, database: str
) -> None:
    bot = await start_swissbot()
    assert bot.service.db.dialect == "postgresql"
    club = Club(fake, guild)
    await set_up(club, players=6, rounds=2)
    reply = await club.run(club.owner, "tournament start")
    assert "round 1 is paired (3 boards" in reply["content"], text_of(reply)
    await club.wait_post(lambda m: "Round 1 of 2 · pairings" in text_of(m))
    await play_round(club, bot)

    await stop_swissbot(bot)
    bot = await start_swissbot()
    reply = await club.run(club.owner, "round next")
    assert "Round 2" in text_of(reply) or "round 2" in text_of(reply), text_of(reply)
    await club.wait_post(lambda m: "Round 2 of 2 · pairings" in text_of(m))
    assert fake.unhandled == []
