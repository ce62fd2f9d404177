"""Forgetting a random member of a random event: the standings stay exactly as they were,
his id is nowhere, and the other members keep their names everywhere (names that contain
his, "Ann Lee" beside "Ann", included)."""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.results import ORGANISER_CHOICES
from storage.redaction import Redaction
from tests.privacy_helpers import ORG, database_text, table_of
from tests.service_helpers import GUILD, member, open_service

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

NAMES = ["Ann", "Ann Lee", "Lee", "Bo", "Bo Ann", "Cy", "Dee-Ann", "ann"]
FIRST_ID = 811234567890123400  # long ids: a bare id is never a piece of another number


def _seats(value: Any) -> list[tuple[int, str]]:
    """(user id, name) of every seat in a payload."""
    found: list[tuple[int, str]] = []
    if isinstance(value, dict):
        if isinstance(value.get("user_id"), int) and "name" in value:
            found.append((value["user_id"], value["name"]))
        for item in value.values():
            found += _seats(item)
    elif isinstance(value, list):
        for item in value:
            found += _seats(item)
    return found


async def _forget_one(path: Path, names: list[str], rounds: int, chosen: int,
                      draws: st.DataObject) -> None:
    async with open_service(path) as service:
        await service.create_tournament(ORG, "Property Open", rounds, seed=7)
        members = {FIRST_ID + i: name for i, name in enumerate(names)}
        for uid, name in members.items():
            await service.join(member(uid, name=name), rating=2000 - uid % 100)
        view = await service.start_tournament(ORG)
        for number in range(1, rounds + 1):
            for game in view.games:
                choice = draws.draw(st.sampled_from(ORGANISER_CHOICES))
                await service.set_result(ORG, number, f"#{game.white.number}", choice)
            if number < rounds:
                view = await service.pair_next_round(ORG, round_number=number + 1)
        before = await service.standings(GUILD)
        target = FIRST_ID + chosen

        outcome = await service.privacy_forget(member(target, name=members[target]))

        after = await service.standings(GUILD)
        assert table_of(after) == table_of(before)
        assert {r.user_id: r.name for r in after.rows} == {
            **{uid: name for uid, name in members.items() if uid != target},
            None: outcome.pseudonym}
        assert str(target) not in await database_text(service)
        for announcement in await service.announcements():
            for uid, name in _seats(announcement.payload):
                assert uid != target and name == members[uid]


@pytest.mark.slow
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=st.lists(st.sampled_from(NAMES), min_size=3, max_size=8),
       rounds=st.integers(1, 3), data=st.data())
def test_forgetting_anyone_keeps_the_standings_and_the_others_names(
    names: list[str], rounds: int, data: st.DataObject
) -> None:
    chosen = data.draw(st.integers(0, len(names) - 1))
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(_forget_one(Path(folder) / "p.sqlite3", names, rounds, chosen, data))


@given(name=st.text(min_size=1, max_size=12), other=st.text(max_size=12),
       user_id=st.integers(10**17, 2**63 - 1))
def test_a_redaction_leaves_no_id_and_no_seat_of_the_member(name: str, other: str,
                                                            user_id: int) -> None:
    redaction = Redaction(user_id, frozenset({name}), "Withdrawn player 1")
    payload = {"seats": [{"user_id": user_id, "name": name}, {"user_id": 5, "name": other}],
               "by": f"<@{user_id}> ({name})", "ids": [user_id, 5]}
    redacted = json.loads(redaction.json_text(json.dumps(payload)) or "")
    assert str(user_id) not in json.dumps(redacted)
    assert redacted["seats"] == [{"user_id": None, "name": "Withdrawn player 1"},
                                 {"user_id": 5, "name": other}]
    assert redacted["ids"] == [5]
