"""Destructive actions are described before they are done, and a confirmation acts once.

``preview_action`` says what a forced /round next, an undo with results, a finish with open
games, a cancel and a drop would do, in words, with the state it was computed from (the
course version, migration 0015, and the round). The operations take that state back and refuse
it, inside their own transaction, once it changed: the first click acts, every later click of
that prompt or of an older one is refused. On SQLite and PostgreSQL, fifty clicks at once on
one connection and on two.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from service import (
    ConflictError,
    NotOrganiserError,
    RoundChangedError,
    TournamentNotRunningError,
    TournamentService,
    UnknownTournamentError,
)
from storage import tournaments as tournament_repo
from tests.service_helpers import (
    GUILD,
    MODES,
    Clock,
    member,
    open_service,
    organiser,
    two_services,
)

pytestmark = pytest.mark.usefixtures("backend")  # each test on SQLite and on PostgreSQL

ORG = organiser()
OTHER_ORG = organiser(user_id=2, name="Otto")


async def _running(service: TournamentService, players: int = 8) -> int:
    info = await service.create_tournament(ORG, "Friday Blitz", 7, seed=3)
    for uid in range(1, players + 1):
        await service.join(member(100 + uid, name=f"Ann{uid}"), rating=1500 + uid)
    await service.start_tournament(ORG)
    return info.id


async def _version(service: TournamentService, tid: int) -> int:
    async with service.db.transaction(readonly=True) as conn:
        return await tournament_repo.course_version(conn, tid)


async def _fifty(make: object, a: TournamentService, b: TournamentService) -> list[object]:
    calls = [make(a if i % 2 else b) for i in range(50)]  # type: ignore[operator]
    return await asyncio.gather(*calls, return_exceptions=True)


def _acted_once(results: list[object]) -> list[BaseException]:
    ok = [r for r in results if not isinstance(r, BaseException)]
    errors = [r for r in results if isinstance(r, BaseException)]
    for error in errors:
        if not isinstance(error, ConflictError):
            raise error
    assert len(ok) == 1, f"{len(ok)} clicks acted"
    return errors


# -- the consequences, in words ----------------------------------------------------------------
async def test_each_preview_says_what_would_happen(tmp_path: Path) -> None:
    async with open_service(tmp_path / "p.sqlite3", Clock()) as service:
        tid = await _running(service)
        games = (await service.pairings(GUILD, round_number=1)).games
        await service.report_result(member(games[0].white.user_id), "win")  # waits
        await service.set_result(ORG, 1, games[1].white.user_id, "draw")  # final

        nxt = await service.preview_action(ORG, "next")
        assert nxt.needs_confirmation and nxt.round_number == 2
        assert nxt.consequence == (
            "closes round 1: 2 open games become double forfeits and 1 waiting report "
            "stands as if confirmed, then pairs round 2 of 'Friday Blitz'")

        undo = await service.preview_action(ORG, "undo")
        assert undo.needs_confirmation and undo.round_number == 1
        assert undo.consequence == ("undoes round 1 of 'Friday Blitz': 1 result is deleted "
                                    "and its pairings are removed")

        finish = await service.preview_action(ORG, "finish")
        assert finish.needs_confirmation
        assert finish.consequence == (
            "finishes 'Friday Blitz' after round 1 of 7: 2 open games become double forfeits "
            "and 1 waiting report stands as if confirmed")

        cancel = await service.preview_action(ORG, "cancel")
        assert cancel.needs_confirmation
        assert cancel.consequence == (
            "cancels 'Friday Blitz' after round 1 of 7: nothing more can be paired or "
            "reported, and its 8 players get no final standings")

        drop = await service.preview_action(ORG, "drop", player=games[1].white.user_id)
        assert drop.needs_confirmation and drop.player_number == games[1].white.number
        name = games[1].white.name
        assert drop.consequence == (
            f"drops {name} from 'Friday Blitz': 1 played game stays in the standings, and "
            f"{name} is not paired from round 2 on")
        # all five were shown for the same state
        assert len({p.version for p in (nxt, undo, finish, cancel, drop)}) == 1
        assert {p.tournament_id for p in (nxt, undo, finish, cancel, drop)} == {tid}


async def test_nothing_to_lose_needs_no_confirmation(tmp_path: Path) -> None:
    async with open_service(tmp_path / "p.sqlite3", Clock()) as service:
        await service.create_tournament(ORG, "Empty Cup", 3)
        cancel = await service.preview_action(ORG, "cancel")
        assert not cancel.needs_confirmation  # nobody registered
        await service.join(member(101))
        cancel = await service.preview_action(ORG, "cancel")
        assert cancel.needs_confirmation  # an event with players: they are told it is off
        assert cancel.consequence == "cancels 'Empty Cup' before its start: 1 player registered"
        await service.join(member(102))
        await service.start_tournament(ORG)
        for game in (await service.pairings(GUILD, round_number=1)).games:
            await service.set_result(ORG, 1, game.white.user_id, "win")
        nxt = await service.preview_action(ORG, "next")
        assert not nxt.needs_confirmation  # round 1 is complete
        assert nxt.consequence == "pairs round 2 of 'Empty Cup'"
        await service.pair_next_round(ORG, round_number=2)
        undo = await service.preview_action(ORG, "undo")
        assert not undo.needs_confirmation
        assert "no result is lost" in undo.consequence


async def test_only_organisers_preview(tmp_path: Path) -> None:
    async with open_service(tmp_path / "p.sqlite3", Clock()) as service:
        await _running(service)
        with pytest.raises(NotOrganiserError):
            await service.preview_action(member(101), "next")


# -- the course version ------------------------------------------------------------------------
async def test_the_course_version_moves_with_the_course_not_with_results(
    tmp_path: Path,
) -> None:
    async with open_service(tmp_path / "p.sqlite3", Clock()) as service:
        info = await service.create_tournament(ORG, "Friday Blitz", 7, seed=3)
        for uid in range(1, 9):
            await service.join(member(100 + uid))
        before = await _version(service, info.id)
        await service.start_tournament(ORG)
        started = await _version(service, info.id)
        assert started > before
        game = (await service.pairings(GUILD, round_number=1)).games[0]
        await service.report_result(member(game.white.user_id), "win")
        await service.set_result(ORG, 1, game.black.user_id, "win")
        assert await _version(service, info.id) == started  # results leave prompts usable
        await service.drop_player(ORG, game.white.user_id)
        dropped = await _version(service, info.id)
        assert dropped > started
        await service.pair_next_round(ORG, force=True, round_number=2)
        paired = await _version(service, info.id)
        assert paired > dropped
        await service.undo_round(ORG, round_number=2)
        undone = await _version(service, info.id)
        assert undone > paired
        await service.cancel_tournament(ORG)
        assert await _version(service, info.id) > undone


# -- cancel and drop act once ------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
async def test_fifty_cancel_clicks_cancel_once(tmp_path: Path, mode: str) -> None:
    async with two_services(tmp_path / "c.sqlite3", mode) as (a, b):
        tid = await _running(a)
        shown = await a.preview_action(ORG, "cancel")
        results = await _fifty(lambda s: s.cancel_tournament(ORG, tid, version=shown.version),
                               a, b)
        for error in _acted_once(results):
            assert isinstance(error, TournamentNotRunningError)
            assert error.message == "'Friday Blitz' is already cancelled."
        kinds = [n.kind for n in await a.announcements(tid)]
        assert kinds.count("tournament_cancelled") == 1


async def test_a_cancel_prompt_shown_before_a_pairing_is_refused(tmp_path: Path) -> None:
    async with open_service(tmp_path / "c.sqlite3", Clock()) as service:
        await _running(service)
        shown = await service.preview_action(ORG, "cancel")  # "after round 1 of 7"
        await service.pair_next_round(OTHER_ORG, force=True, round_number=2)
        with pytest.raises(RoundChangedError) as refused:
            await service.cancel_tournament(ORG, version=shown.version)
        assert refused.value.message.startswith(
            "This prompt is out of date: 'Friday Blitz' has changed since it was shown")
        assert "run /tournament cancel again" in refused.value.message
        assert (await service.tournament_info(GUILD)).status == "running"


@pytest.mark.parametrize("mode", MODES)
async def test_fifty_drop_clicks_drop_once(tmp_path: Path, mode: str) -> None:
    async with two_services(tmp_path / "d.sqlite3", mode) as (a, b):
        tid = await _running(a)
        player = (await a.pairings(GUILD, round_number=1)).games[0].white
        shown = await a.preview_action(ORG, "drop", player=f"#{player.number}")
        results = await _fifty(
            lambda s: s.drop_player(ORG, f"#{shown.player_number}", tid,
                                    version=shown.version), a, b)
        for error in _acted_once(results):
            assert error.message == f"{player.name} has already withdrawn from 'Friday Blitz'."
        actions = [p.status for p in await a.list_players(GUILD)]
        assert actions.count("withdrawn") == 1


async def test_a_drop_prompt_shown_before_another_drop_is_refused(tmp_path: Path) -> None:
    """The consequence named the round the player leaves from; after another player's drop
    the event is not what the prompt showed (it may have been re-paired around him)."""
    async with open_service(tmp_path / "d.sqlite3", Clock()) as service:
        await _running(service)
        games = (await service.pairings(GUILD, round_number=1)).games
        shown = await service.preview_action(ORG, "drop", player=games[0].white.user_id)
        await service.drop_player(OTHER_ORG, games[1].white.user_id)
        with pytest.raises(RoundChangedError, match="This prompt is out of date"):
            await service.drop_player(ORG, games[0].white.user_id, version=shown.version)
        statuses = {p.user_id: p.status for p in await service.list_players(GUILD)}
        assert statuses[games[0].white.user_id] == "active"


async def test_a_prompt_of_another_server_names_nothing_here(tmp_path: Path) -> None:
    """A forged button naming another server's tournament: the click acts only in the
    clicker's server, where that id names nothing."""
    async with open_service(tmp_path / "g.sqlite3", Clock()) as service:
        tid = await _running(service)
        shown = await service.preview_action(ORG, "cancel")
        stranger = organiser(guild=GUILD + 1, user_id=9, name="Mallory")
        with pytest.raises(UnknownTournamentError):
            await service.cancel_tournament(stranger, tid, version=shown.version)
        with pytest.raises(UnknownTournamentError):
            await service.preview_action(stranger, "cancel", tid)
        assert (await service.tournament_info(GUILD)).status == "running"
