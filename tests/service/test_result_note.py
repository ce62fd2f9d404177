"""An organiser's /result set on a game its players had reported or disputed queues one public
note for the two players: in the game's thread when it has one, else the event's channel."""

from __future__ import annotations

from pathlib import Path

import pytest

from service import TournamentService
from storage import notify as notify_repo
from tests.service_helpers import START, Clock, member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()
CHANNEL = 555
THREAD = 777


async def _round_one(service: TournamentService) -> list:
    info = await service.create_tournament(ORG, "Noted", 2, channel_id=CHANNEL, seed=3)
    for user in range(1, 7):
        await service.join(member(100 + user), info.id)
    return list((await service.start_tournament(ORG)).games)


async def _notes(service: TournamentService) -> list:
    return [a for a in await service.announcements() if a.kind == "result_settled"]


async def test_a_settled_dispute_is_noted_once_for_both_players(tmp_path: Path) -> None:
    async with open_service(tmp_path / "t.db", Clock()) as service:
        disputed, reported, untouched = await _round_one(service)
        outcome = await service.report_result(member(disputed.white.user_id), "win")
        await service.dispute_result(member(disputed.black.user_id), outcome.game.id)
        await service.report_result(member(reported.white.user_id), "draw")
        # the game of board 1 has a thread: its note goes there
        async with service.db.transaction() as conn:
            await notify_repo.save_thread(
                conn, game_id=outcome.game.id, guild_id=ORG.guild_id,
                tournament_id=outcome.game.tournament_id, round_number=1, parent_id=CHANNEL,
                thread_id=THREAD, private=True, problem=None, now=START)

        await service.set_result(ORG, 1, f"#{disputed.white.number}", "draw")
        await service.set_result(ORG, 1, f"#{reported.white.number}", "win")
        await service.set_result(ORG, 1, f"#{untouched.white.number}", "loss")  # not reported
        # the same result set again (a double click, a retry) tells nobody twice
        await service.set_result(ORG, 1, f"#{disputed.white.number}", "draw")

        first, second = await _notes(service)  # none for the game nobody had reported
        assert first.channel_id == THREAD and second.channel_id == CHANNEL
        assert first.payload["was"] == "disputed" and first.payload["by"] == ORG.display_name
        assert first.payload["reported_result"] == "1-0"
        assert first.payload["game"]["result"] == "1/2-1/2"
        assert second.payload["was"] == "reported"

        # a correction of a final result is told too
        await service.set_result(ORG, 1, f"#{reported.white.number}", "loss")
        corrected = (await _notes(service))[-1]
        assert corrected.payload["was"] == "final"
        assert corrected.payload["previous_result"] == "1-0"
        assert {first.payload["game"]["white"]["user_id"],
                first.payload["game"]["black"]["user_id"]} == \
            {disputed.white.user_id, disputed.black.user_id}
