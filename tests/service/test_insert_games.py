"""A round's boards stored in one statement (storage.rounds.insert_games; on SQLite from one
JSON text, issue 13): every board with its players, in board order, and the constraints
still checked. Both backends."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import players as player_repo
from storage import rounds as round_repo
from storage.connection import IntegrityError
from tests.service_helpers import START, member, open_service, organiser

pytestmark = pytest.mark.usefixtures("backend")


async def test_every_board_is_stored_with_its_players_in_order(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.sqlite3") as service:
        info = await service.create_tournament(organiser(), "Cup", 3)
        for user in range(10, 17):
            await service.join(member(user))
        async with service.db.transaction() as conn:
            ids = [p.id for p in await player_repo.list_players(conn, info.id)]
            pairs = [(ids[5], ids[0]), (ids[2], ids[6]), (ids[1], ids[3])]  # any order
            round_id = await round_repo.insert_round(
                conn, tournament_id=info.id, number=1, now=START, paired_by=1, forced=False,
                deadline=None)
            await round_repo.insert_games(conn, tournament_id=info.id, round_id=round_id,
                                          pairs=pairs)
        async with service.db.transaction(readonly=True) as conn:
            games = await round_repo.list_games(conn, info.id, 1)
            assert await round_repo.game_ids(conn, round_id) == [g.id for g in games]
    assert [(g.board, g.white_id, g.black_id, g.state, g.result) for g in games] == [
        (board, white, black, "pending", "*") for board, (white, black) in enumerate(pairs, 1)]


async def test_a_board_that_breaks_a_constraint_stores_none(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.sqlite3") as service:
        info = await service.create_tournament(organiser(), "Cup", 3)
        for user in range(10, 14):
            await service.join(member(user))
        async with service.db.transaction() as conn:
            ids = [p.id for p in await player_repo.list_players(conn, info.id)]
            round_id = await round_repo.insert_round(
                conn, tournament_id=info.id, number=1, now=START, paired_by=1, forced=False,
                deadline=None)
        for bad in ([(ids[0], ids[1]), (ids[2], ids[2])],  # a player against himself
                    [(ids[0], ids[1]), (ids[2], 999_999)]):  # no such player
            with pytest.raises(IntegrityError):
                async with service.db.transaction() as conn:
                    await round_repo.insert_games(conn, tournament_id=info.id,
                                                  round_id=round_id, pairs=bad)
        async with service.db.transaction(readonly=True) as conn:
            assert await round_repo.list_games(conn, info.id, 1) == []
