"""Which event a command means when the member names none (service.resolve): the game thread,
the event's channel, the events he plays in, the one taking entries for /join; a question
naming the candidates only when several remain."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service import AmbiguousTournamentError, TournamentService
from storage import notify as notify_repo
from tests.service_helpers import GUILD, OTHER_GUILD, member, open_service, organiser

ORG = organiser()
ME = 500
EVENT_CHANNEL, OTHER_CHANNEL, ELSEWHERE = 11, 12, 99


async def _event(service: TournamentService, name: str, *, channel: int | None = None,
                 players: tuple[int, ...] = (), running: bool = False,
                 guild: int = GUILD) -> int:
    info = await service.create_tournament(organiser(guild=guild), name, 3, channel_id=channel)
    for uid in players:
        await service.join(member(uid, guild=guild), info.id)
    if running:  # the resolver reads the status only: no need to pair a round
        async with service.ctx.db.transaction() as conn:
            await conn.execute("UPDATE tournaments SET status = 'running' WHERE id = ?",
                               (info.id,))
    return info.id


async def test_two_events_open_a_player_in_one_is_not_asked(tmp_path: Path) -> None:
    async with open_service(tmp_path / "r.sqlite3") as service:
        blitz = await _event(service, "Blitz", players=(ME, 501), running=True)
        await _event(service, "Rapid", players=(501, 502), running=True)
        assert await service.resolve_tournament(GUILD, ME, []) == blitz
        assert await service.resolve_tournament(GUILD, ME, [ELSEWHERE]) == blitz
        # 501 plays in both: asked, with both names
        with pytest.raises(AmbiguousTournamentError, match="'Blitz', 'Rapid'"):
            await service.resolve_tournament(GUILD, 501, [])
        # an organiser's command is not guessed from what he plays: the operation decides
        assert await service.resolve_tournament(GUILD, ME, [], "organise") is None


async def test_the_channel_and_the_game_thread_tell_the_event(tmp_path: Path) -> None:
    async with open_service(tmp_path / "r.sqlite3") as service:
        blitz = await _event(service, "Blitz", channel=EVENT_CHANNEL, players=(ME,))
        rapid = await _event(service, "Rapid", channel=OTHER_CHANNEL, players=(ME,))
        assert await service.resolve_tournament(GUILD, ME, [EVENT_CHANNEL]) == blitz
        assert await service.resolve_tournament(GUILD, ME, [OTHER_CHANNEL]) == rapid
        # a thread in the event's channel: the thread first, then its parent
        assert await service.resolve_tournament(GUILD, ME, [777, OTHER_CHANNEL]) == rapid
        assert await service.resolve_tournament(GUILD, 1, [EVENT_CHANNEL], "organise") == blitz
        async with service.ctx.db.transaction() as conn:
            await notify_repo.save_thread(
                conn, game_id=1, guild_id=GUILD, tournament_id=rapid, round_number=1,
                parent_id=EVENT_CHANNEL, thread_id=888, private=True, problem=None,
                now=service.ctx.now())
        # the game thread wins over the channel it was opened from
        assert await service.resolve_tournament(GUILD, ME, [888, EVENT_CHANNEL]) == rapid
        # another server's thread with the same id means nothing here
        assert await service.resolve_tournament(OTHER_GUILD, ME, [888]) is None
        with pytest.raises(AmbiguousTournamentError, match="'Blitz', 'Rapid'"):
            await service.resolve_tournament(GUILD, ME, [ELSEWHERE])


async def test_join_picks_the_one_event_taking_entries(tmp_path: Path) -> None:
    async with open_service(tmp_path / "r.sqlite3") as service:
        await _event(service, "Running", players=(501, 502), running=True)
        spring = await _event(service, "Spring")
        assert await service.resolve_tournament(GUILD, ME, [], "join") == spring
        summer = await _event(service, "Summer", players=(ME,))
        # he is in Summer already: Spring is the one he can join
        assert await service.resolve_tournament(GUILD, ME, [], "join") == spring
        await _event(service, "Autumn")
        with pytest.raises(AmbiguousTournamentError, match="join: 'Spring', 'Autumn'"):
            await service.resolve_tournament(GUILD, ME, [], "join")
        assert summer


EVENTS = st.lists(st.tuples(st.sampled_from([None, EVENT_CHANNEL, OTHER_CHANNEL]),
                            st.booleans(), st.booleans()), min_size=0, max_size=4)
_files = itertools.count()


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(events=EVENTS, channel=st.sampled_from([[], [EVENT_CHANNEL], [ELSEWHERE]]),
       purpose=st.sampled_from(["play", "join", "organise"]))
def test_the_answer_is_one_of_his_servers_open_events_or_a_question_naming_them(
    tmp_path: Path, events: list[tuple[int | None, bool, bool]], channel: list[int],
    purpose: str,
) -> None:
    """Whatever the events (channel, whether he plays, running), the answer is an open event
    of this server, None only when nothing tells, and a question names two or more of them."""
    asyncio.run(_check(tmp_path / f"h{next(_files)}.sqlite3", events, channel, purpose))


async def _check(path: Path, events: list[tuple[int | None, bool, bool]],
                 channel: list[int], purpose: str) -> None:
    async with open_service(path) as service:
        await _event(service, "Elsewhere", channel=EVENT_CHANNEL, players=(ME,),
                     guild=OTHER_GUILD)
        ids: dict[int, str] = {}
        mine: set[int] = set()
        for index, (bound, plays, running) in enumerate(events):
            name = f"Event {index}"
            tid = await _event(service, name, channel=bound, running=running,
                               players=(ME,) if plays else ())
            ids[tid] = name
            if plays:
                mine.add(tid)
        here = [tid for tid, (bound, _, _) in zip(ids, events, strict=True)
                if bound is not None and bound in channel]
        try:
            found = await service.resolve_tournament(GUILD, ME, channel, purpose)
        except AmbiguousTournamentError as question:
            named = [name for name in ids.values() if f"'{name}'" in str(question)]
            assert len(named) >= 2 and len(here) != 1 and purpose != "organise"
            return
        if found is None:
            assert len(here) != 1 and (purpose == "organise" or len(ids) <= 1)
            return
        assert found in ids  # never another server's event
        if len(here) == 1:
            assert found == here[0]
        elif purpose == "play" and not here and len(mine) == 1:
            assert found in mine
