"""The ``advise`` operation: organisers only, the event's own settings, limits, one advice at a
time per guild, and the work in a worker process (the event loop stays free)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from service import (
    AdviceView,
    ConflictError,
    InvalidInputError,
    NotOrganiserError,
    TournamentService,
)
from service import advice as advice_module
from service.advice import advice_request
from service.limits import MAX_ADVICE_PLAYERS
from swiss.pairing import SYSTEMS
from tests.service_helpers import OTHER_GUILD, member, open_service, organiser

ORG = organiser()


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TournamentService]:
    async with open_service(tmp_path / "advice.sqlite3") as service:
        service.advice_tournaments = 10  # type: ignore[attr-defined]
        await service.create_tournament(ORG, "Open", 3, system="burstein", scoring="match",
                                        seed=4)
        for uid in range(101, 109):
            await service.join(member(uid), rating=1500 + 10 * uid)
        yield service


@pytest.mark.slow
async def test_an_organiser_gets_the_advice_for_the_events_own_settings(
    service: TournamentService,
) -> None:
    view = await service.advise(ORG)
    assert isinstance(view, AdviceView) and view.tournament_name == "Open"
    request = view.advice.request
    assert (request.players, request.rounds, request.scoring, request.current) == (
        8, 3, "match", "burstein")
    assert request.strengths.kind == "normal"  # the players' ratings describe the field
    assert request.tournaments == 10
    assert {r.system for r in view.advice.systems} == set(SYSTEMS)
    assert view.advice.sentence.startswith(("Use ", "No clear difference: use burstein"))


async def test_a_player_is_refused(service: TournamentService) -> None:
    with pytest.raises(NotOrganiserError, match="Only organisers can ask the pairing advisor"):
        await service.advise(member(101))


async def test_more_players_than_rounds_are_needed(service: TournamentService) -> None:
    await service.create_tournament(ORG, "Tiny", 5)
    for uid in (201, 202, 203):
        await service.join(member(uid), "Tiny")
    with pytest.raises(InvalidInputError, match="'Tiny' has 3 players for 5 rounds"):
        await service.advise(ORG, "Tiny")


async def test_too_big_a_field_is_refused(service: TournamentService,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(advice_module, "MAX_ADVICE_PLAYERS", 7)
    with pytest.raises(InvalidInputError, match="up to 7 players"):
        await service.advise(ORG)
    assert MAX_ADVICE_PLAYERS >= 256


@pytest.mark.slow
async def test_one_advice_at_a_time_per_guild(service: TournamentService) -> None:
    other = organiser(guild=OTHER_GUILD, user_id=9)
    await service.create_tournament(other, "Elsewhere", 3)
    for uid in range(301, 306):
        await service.join(member(uid, guild=OTHER_GUILD), "Elsewhere")
    first = asyncio.create_task(service.advise(ORG))
    while ORG.guild_id not in service.advice.advising:  # the first one is running
        await asyncio.sleep(0.001)
    with pytest.raises(ConflictError, match="already simulating an event of this server"):
        await service.advise(ORG)
    # another guild is not refused, and the first one finishes
    elsewhere, mine = await asyncio.gather(service.advise(other), first)
    assert elsewhere.tournament_name == "Elsewhere" and mine.tournament_name == "Open"
    assert (await service.advise(ORG)).tournament_name == "Open"  # free again


@pytest.mark.slow
async def test_the_event_loop_stays_free_while_it_simulates(service: TournamentService) -> None:
    service.advice_seconds = 2.0  # type: ignore[attr-defined]
    service.advice_tournaments = None  # type: ignore[attr-defined]
    await service.advise(ORG)  # the worker process is up (its start is not the point here)
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticker = asyncio.create_task(tick())
    began = time.monotonic()
    await service.advise(ORG)
    elapsed = time.monotonic() - began
    ticker.cancel()
    # The loop ran the ticker all along: a blocked loop would have ticked once or twice.
    assert ticks > elapsed / 0.01 / 4


def test_the_request_follows_the_event() -> None:
    chess = advice_request(players=16, rounds=5, scoring="chess", system="dutch",
                           ratings=[], seed=3, seconds=10)
    assert (chess.scoring, chess.strengths.describe(), chess.current) == (
        "chess", "uniform:1400:2200", "dutch")
    match = advice_request(players=16, rounds=5, scoring="3-1-0", system="tcec",
                           ratings=[1200, 1400, 1600, 1800] * 2, seed=3, seconds=10)
    assert match.scoring == "match"
    assert match.strengths.kind == "normal" and match.strengths.mean == 1500
    few = advice_request(players=16, rounds=5, scoring="chess", system="dutch",
                         ratings=[1200, 1400], seed=3, seconds=10)
    assert few.strengths.kind == "uniform"  # 2 of 16 rated: the default field
    forbid = advice_request(players=16, rounds=5, scoring="chess", system="dutch",
                            ratings=[], seed=3, seconds=10, policy="forbid")
    assert forbid.config().policy == "forbid"  # the event's rematch rule
