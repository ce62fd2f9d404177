"""A decided knockout game's score as the bracket shows it: the games won when reported,
else 1 and 0 (1F and 0F for a forfeit), white's first (load_bracket turns it high seed first)."""

from __future__ import annotations

import pytest

from service.playoff_state import match_score
from storage.rounds import GameRow


def _game(result: str, white_games: int | None = None, black_games: int | None = None
          ) -> GameRow:
    return GameRow(id=1, tournament_id=1, round_id=1, round_number=4, board=1, white_id=1,
                   black_id=2, result=result, white_games=white_games, black_games=black_games,
                   state="final", reported_result=None, reported_white_games=None,
                   reported_black_games=None, reported_by=None, disputed_by=None,
                   disputed_result=None, confirmed_by=None, set_by_user=None)


@pytest.mark.parametrize(("game", "score"), [
    (_game("1-0", 2, 1), ("2", "1")),
    (_game("0-1", 0, 2), ("0", "2")),
    (_game("1-0"), ("1", "0")),
    (_game("0-1"), ("0", "1")),
    (_game("+--"), ("1F", "0F")),
    (_game("--+"), ("0F", "1F")),
])
def test_match_score(game: GameRow, score: tuple[str, str]) -> None:
    assert match_score(game) == score
