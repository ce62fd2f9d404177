"""The event's PGN: every board with swissbot's tags (Event, Round round.board, White, Black,
Result, Site), the moves of finished Lichess games read from Lichess once (kept: a second
export asks only for the new ones), the games Lichess cannot give now with their result
only (said in the file's note), and an event not on Lichess without any call."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from service import TournamentService
from storage.lichess_games import GameLinks
from swiss.pgn import read_games
from tests.lichess_helpers import lichess_event, stub_of
from tests.service_helpers import open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")
ORG = organiser()


def _lichess_pgn(game_id: str, white: str, black: str, result: str) -> str:
    return (f'[Event "Rated blitz game"]\n[Site "https://lichess.org/{game_id}"]\n'
            f'[Date "2026.11.28"]\n[White "{white}"]\n[Black "{black}"]\n'
            f'[Result "{result}"]\n[TimeControl "180+2"]\n\n1. e4 e5 2. Nf3 {result}\n')


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TournamentService]:
    async with open_service(tmp_path / "pgn.sqlite3") as opened:
        yield opened


async def test_the_events_pgn_has_every_board_with_lichess_moves_fetched_once(
        service: TournamentService) -> None:
    await lichess_event(service, 6)
    round1 = await service.start_tournament(ORG, "Club Blitz")
    stub = stub_of(service)
    for board in await service.lichess_boards_to_create():
        await service.store_lichess_game(board, GameLinks(
            board.game_id, f"ch{board.board:06d}",
            f"https://lichess.org/ch{board.board:06d}?color=white",
            f"https://lichess.org/ch{board.board:06d}?color=black"))
    first, second, third = round1.games
    for game in (first, second):
        stub.pgns[f"ch{game.board:06d}"] = _lichess_pgn(
            f"ch{game.board:06d}", f"Player{game.white.user_id}",
            f"Player{game.black.user_id}", "1-0")
        await service.set_result(ORG, 1, game.white.user_id, "win")

    exported = await service.export_pgn(ORG.guild_id, "Club Blitz")
    assert exported.filename == "club-blitz.pgn" and exported.note == ""
    games = {g.tags["Round"]: g for g in read_games(exported.content)}
    assert set(games) == {"1.1", "1.2", "1.3"}
    one = games[f"1.{first.board}"]
    assert one.tags["Event"] == "Club Blitz" and one.tags["Result"] == "1-0"
    assert (one.tags["White"], one.tags["Black"]) == (first.white.name, first.black.name)
    assert one.tags["Site"] == f"https://lichess.org/ch{first.board:06d}"
    assert one.tags["Date"] == "2026.11.28" and one.movetext == "1. e4 e5 2. Nf3"
    pending = games[f"1.{third.board}"]
    assert pending.tags["Result"] == "*" and pending.movetext == ""
    assert stub.calls.count("pgn 2") == 1

    # an organiser's correction wins over Lichess; the moves are not asked again
    await service.set_result(ORG, 1, first.black.user_id, "win")
    again = {g.tags["Round"]: g for g in read_games(
        (await service.export_pgn(ORG.guild_id, "Club Blitz")).content)}
    assert again[f"1.{first.board}"].tags["Result"] == "0-1"
    assert again[f"1.{first.board}"].movetext == "1. e4 e5 2. Nf3"
    assert [c for c in stub.calls if c.startswith("pgn")] == ["pgn 2"]

    # Lichess down: the new finished game has its result only, and the note says so
    stub.down = True
    await service.set_result(ORG, 1, third.white.user_id, "draw")
    down = await service.export_pgn(ORG.guild_id, "Club Blitz")
    assert "1 game(s) could not be read from Lichess" in down.note
    late = {g.tags["Round"]: g for g in read_games(down.content)}[f"1.{third.board}"]
    assert late.tags["Result"] == "1/2-1/2" and late.movetext == ""


async def test_an_event_not_on_lichess_has_its_results_and_no_call(
        service: TournamentService) -> None:
    await service.create_tournament(ORG, "Over the Board", 3)
    for index, name in enumerate(["Ann", "Bob", "Cleo"]):
        await service.add_player(ORG, name, tournament="Over the Board", rating=2000 - index)
    await service.start_tournament(ORG, "Over the Board")
    exported = await service.export_pgn(ORG.guild_id, "Over the Board")
    [game] = read_games(exported.content)  # the third player has the bye: no game
    assert game.tags["Site"] == "?" and game.tags["Result"] == "*"
    assert game.tags["Round"] == "1.1"
