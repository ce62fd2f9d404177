"""Item 11.6: organisers answer a report from its buttons (on the audit record), and the bot
learns which posted prompts were answered another way so that it can disable their buttons."""

from __future__ import annotations

from pathlib import Path

import pytest

from service import AlreadyFinalError, NotYourGameError, TournamentService
from storage import journal
from tests.service_helpers import GUILD, OTHER_GUILD, member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser(user_id=7)  # the organiser role; not a player


async def _round(service: TournamentService, players: int = 6) -> list:
    await service.create_tournament(ORG, "Prompt Cup", 2, seed=5)
    for uid in range(101, 101 + players):
        await service.join(member(uid))
    view = await service.start_tournament(ORG)
    for game in view.games:
        await service.report_result(member(game.white.user_id), "win")
    return list(view.games)


async def _actions(service: TournamentService) -> list[tuple[str, int]]:
    info = await service.tournament_info(GUILD)
    async with service.db.transaction(readonly=True) as conn:
        return [(a.action, a.actor_id) for a in await journal.list_audit(conn, info.id)]


async def test_an_organiser_confirms_and_disputes_from_the_buttons(tmp_path: Path) -> None:
    async with open_service(tmp_path / "p.sqlite3") as service:
        first, second, third = await _round(service)
        outcome = await service.confirm_result(ORG, first.id)
        assert outcome.status == "final" and outcome.game.result == "1-0"
        assert outcome.reporter.player_id == first.white.player_id
        disputed = await service.dispute_result(ORG, second.id)
        assert disputed.status == "disputed"
        actions = await _actions(service)
        assert ("result.confirm_by_organiser", ORG.user_id) in actions
        assert ("result.dispute_by_organiser", ORG.user_id) in actions
        alert = [a for a in await service.pending_announcements() if a.kind == "dispute"][-1]
        assert alert.payload["disputed_by"]["organiser"] is True
        # a member who is neither the opponent nor an organiser is still refused
        with pytest.raises(NotYourGameError, match="or an organiser"):
            await service.confirm_result(member(first.white.user_id), third.id)
        # the reporter himself may not confirm, unless he is an organiser
        with pytest.raises(NotYourGameError, match="your opponent \\(or an organiser\\)"):
            await service.confirm_result(member(third.white.user_id), third.id)
        org_reporter = organiser(user_id=third.white.user_id)
        assert (await service.confirm_result(org_reporter, third.id)).status == "final"
        with pytest.raises(AlreadyFinalError):
            await service.confirm_result(ORG, first.id)


async def test_prompts_answered_another_way_are_reported_once(tmp_path: Path) -> None:
    async with open_service(tmp_path / "p.sqlite3") as service:
        first, second, third = await _round(service)
        for index, game in enumerate((first, second, third)):
            await service.remember_prompt(GUILD, game.id, 555, 9000 + index)
        with pytest.raises(Exception, match="does not exist in this server"):
            await service.remember_prompt(OTHER_GUILD, first.id, 555, 1)
        assert await service.settled_prompts(GUILD) == []  # all still wait for an answer
        await service.set_result(ORG, 1, f"#{first.white.number}", "draw")  # /result set
        await service.report_result(member(second.black.user_id), "loss")  # the opponent
        settled = await service.settled_prompts(GUILD)
        assert [(p.game_id, p.message_id) for p in settled] == [(first.id, 9000),
                                                                (second.id, 9001)]
        assert settled[0].game is not None and settled[0].game.result == "1/2-1/2"
        assert await service.settled_prompts(OTHER_GUILD) == []
        assert await service.close_prompt(GUILD, first.id)
        assert not await service.close_prompt(GUILD, first.id)  # once
        assert [p.game_id for p in await service.settled_prompts(GUILD)] == [second.id]
        await service.close_prompt(GUILD, second.id)
        # an undone round: its prompt no longer applies (the game is gone)
        await service.undo_round(ORG, force=True)
        (gone,) = await service.settled_prompts(GUILD)
        assert gone.game_id == third.id and gone.game is None
