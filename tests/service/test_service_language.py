"""The server's language (``/config language``) and the service's refusals in every language,
on SQLite and on PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

import i18n
from service import InvalidInputError, NotManagerError, ServiceError
from tests.privacy_helpers import ORG
from tests.service_helpers import GUILD, manager, member, open_service

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL


async def test_the_language_is_kept_per_server_and_queued_with_each_post(tmp_path: Path) -> None:
    async with open_service(tmp_path / "l.sqlite3") as service:
        assert await service.guild_language(GUILD) is None  # Discord's locale decides
        assert await service.set_language(manager(), "de") == "de"
        assert await service.set_language(manager(), "de") == "de"  # twice: the same
        assert await service.guild_language(GUILD) == "de"
        assert await service.guild_language(GUILD + 1) is None  # another server
        await service.create_tournament(ORG, "Herbst", 1, seed=1)
        await service.join(member(1001))
        await service.join(member(1002))
        await service.start_tournament(ORG)
        posts = await service.pending_announcements()
        assert posts and all(post.payload["language"] == "de" for post in posts)
        # a later change leaves what was queued as it was: it renders as it was queued
        await service.set_language(manager(), None)
        assert await service.guild_language(GUILD) is None
        assert (await service.pending_announcements())[-1].payload["language"] == "de"


async def test_only_managers_choose_and_only_shipped_languages(tmp_path: Path) -> None:
    async with open_service(tmp_path / "m.sqlite3") as service:
        with pytest.raises(NotManagerError):
            await service.set_language(ORG, "fr")  # an organiser, not a manager
        with pytest.raises(InvalidInputError) as refused:
            await service.set_language(manager(), "xx-<@1>")
        assert "xx-" in str(refused.value) and "pt_BR" in str(refused.value)
        assert await service.guild_language(GUILD) is None  # nothing half-written


async def test_a_refusal_is_worded_where_it_is_shown(tmp_path: Path) -> None:
    async with open_service(tmp_path / "r.sqlite3") as service:
        with pytest.raises(ServiceError) as refused:
            await service.set_language(manager(), "klingon")
    error = refused.value
    english = str(error)
    assert english.startswith("swissbot does not speak 'klingon'")
    for language in ("de", "es", "fr", "pt_BR", "ru"):
        with i18n.speaking(language):
            worded = str(error)
        assert worded != english and "klingon" in worded, language
