"""A no-show in an event on Lichess: claimed by the player who is on Lichess while the game
was never joined there, with what Lichess showed; refused (nothing stored) when the game was
joined, when the claimant is offline, or when Lichess cannot be reached; then the usual
objection window and forfeit, and an organiser's /result set still wins."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.render.announcements import render_announcement
from service import TournamentService
from service.lichess_api import LichessGame
from service.lichess_noshow import LICHESS_NOSHOW_MINUTES
from storage.lichess_games import GameLinks
from tests.lichess_helpers import lichess_event, stub_of
from tests.service_helpers import Clock, member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")
ORG = organiser()


@pytest.fixture
async def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(tmp_path: Path, clock: Clock) -> AsyncIterator[TournamentService]:
    async with open_service(tmp_path / "noshow.sqlite3", clock=clock) as opened:
        yield opened


async def _paired(service: TournamentService) -> tuple[int, int, str, int]:
    """The event started, every board's game made: (claimant's user id, his opponent's,
    the challenge id of their board, the board's game id)."""
    await lichess_event(service, 4)
    round1 = await service.start_tournament(ORG, "Club Blitz")
    for board in await service.lichess_boards_to_create():
        await service.store_lichess_game(board, GameLinks(
            board.game_id, f"ch{board.board:06d}", f"https://lichess.org/ch{board.board:06d}"
            "?color=white", f"https://lichess.org/ch{board.board:06d}?color=black"))
    game = round1.games[0]
    assert game.white.user_id is not None and game.black.user_id is not None
    return game.white.user_id, game.black.user_id, f"ch{game.board:06d}", game.id


async def _claims(service: TournamentService) -> int:
    async with service.db.transaction(readonly=True) as conn, conn.execute(
            "SELECT count(*) FROM noshow_claims") as cursor:
        return int((await cursor.fetchone())[0])


async def test_the_player_on_lichess_claims_a_game_never_joined_then_wins_it(
        service: TournamentService, clock: Clock) -> None:
    claimant, opponent, challenge, game_id = await _paired(service)
    stub = stub_of(service)
    with pytest.raises(Exception, match="still has time"):
        await service.lichess_claim_no_show(member(claimant))
    clock.advance(minutes=LICHESS_NOSHOW_MINUTES + 1)
    with pytest.raises(Exception, match="offline"):
        await service.lichess_claim_no_show(member(claimant))
    stub.online.add(f"player{claimant}")
    stub.games[challenge] = LichessGame(challenge, "started", None, f"player{claimant}",
                                        f"player{opponent}", 180, 2, 0)
    with pytest.raises(Exception, match="Both of you joined"):
        await service.lichess_claim_no_show(member(claimant))
    stub.down = True
    with pytest.raises(Exception, match="cannot be reached"):
        await service.lichess_claim_no_show(member(claimant))
    assert await _claims(service) == 0  # every refusal stored nothing
    stub.down = False
    del stub.games[challenge]

    claim = await service.lichess_claim_no_show(member(claimant))
    assert (claim.state, claim.claimant.user_id) == ("open", claimant)
    with pytest.raises(Exception, match="already claimed"):  # a double click
        await service.lichess_claim_no_show(member(claimant))
    told = [a for a in await service.announcements() if a.kind == "noshow_claim"]
    assert len(told) == 1
    assert told[0].payload["lichess"] == {
        "game": challenge, "status": "not joined", "claimant": f"Player{claimant}",
        "opponent": f"Player{opponent}", "opponent_online": False}
    text = render_announcement("noshow_claim", told[0].payload)[0].content
    assert f"<@{opponent}>" in text and f"Player{opponent} is offline" in text
    assert f"https://lichess.org/{challenge}" in text
    async with service.db.transaction(readonly=True) as conn, conn.execute(
            "SELECT after FROM audit_log WHERE action = 'noshow.claim'") as cursor:
        [(after,)] = await cursor.fetchall()
    assert '"lichess"' in after and challenge in after

    clock.advance(minutes=LICHESS_NOSHOW_MINUTES + 1)
    await service.run_timers()
    final = await service.get_game(ORG.guild_id, game_id)
    assert final.state == "final" and final.result == "+--"  # the claimant played white


async def test_a_game_that_ended_without_a_move_can_be_claimed_and_the_opponent_objects(
        service: TournamentService, clock: Clock) -> None:
    claimant, opponent, challenge, game_id = await _paired(service)
    stub = stub_of(service)
    stub.online |= {f"player{claimant}", f"player{opponent}"}
    stub.games[challenge] = LichessGame(challenge, "noStart", None, f"player{claimant}",
                                        f"player{opponent}", 180, 2, 0)
    clock.advance(minutes=LICHESS_NOSHOW_MINUTES + 1)
    await service.lichess_claim_no_show(member(claimant))
    told = [a for a in await service.announcements() if a.kind == "noshow_claim"]
    assert told[0].payload["lichess"]["status"] == "noStart"
    assert told[0].payload["lichess"]["opponent_online"] is True
    view = await service.object_no_show(member(opponent))
    assert view.state == "objected"
    clock.advance(minutes=LICHESS_NOSHOW_MINUTES + 1)
    await service.run_timers()
    assert (await service.get_game(ORG.guild_id, game_id)).state == "pending"
