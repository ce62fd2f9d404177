"""The event's PGN: the Seven Tag Roster in order, swissbot's results as PGN results (a
forfeit with its comment), any name survives a write and a read (quotes, backslashes, new
lines), and a Lichess export is read back game by game."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from swiss.pgn import BoardGame, event_pgn, read_games, tag_value

LICHESS_EXPORT = """[Event "Rated blitz game"]
[Site "https://lichess.org/abcd1234"]
[Date "2026.11.28"]
[White "Ann"]
[Black "Bob"]
[Result "1-0"]
[TimeControl "180+2"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0


[Event "Rated blitz game"]
[Site "https://lichess.org/efgh5678"]
[Date "2026.11.28"]
[White "Cleo"]
[Black "Dan"]
[Result "1/2-1/2"]

1. d4 d5 1/2-1/2
"""


def test_lichess_export_is_read_game_by_game() -> None:
    first, second = read_games(LICHESS_EXPORT)
    assert first.tags["Site"] == "https://lichess.org/abcd1234"
    assert first.movetext == "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#"
    assert (second.tags["White"], second.movetext) == ("Cleo", "1. d4 d5")


def test_event_pgn_has_the_roster_round_dot_board_and_lichess_moves() -> None:
    [lichess] = read_games(LICHESS_EXPORT)[:1]
    text = event_pgn("Club Blitz", [
        BoardGame(1, 1, "Ann", "Bob", "1-0", site="https://lichess.org/abcd1234",
                  moves=lichess),
        BoardGame(1, 2, "Cleo", "Dan", "--+"),
        BoardGame(2, 1, "Bob", "Cleo", "*"),
    ])
    games = read_games(text)
    assert [list(g.tags)[:7] for g in games] == [
        ["Event", "Site", "Date", "Round", "White", "Black", "Result"]] * 3
    assert [g.tags["Round"] for g in games] == ["1.1", "1.2", "2.1"]
    assert [g.tags["Result"] for g in games] == ["1-0", "0-1", "*"]
    assert games[0].tags["Date"] == "2026.11.28" and games[0].tags["TimeControl"] == "180+2"
    assert games[0].movetext == "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#"
    assert games[1].movetext == "{White forfeited}" and games[1].tags["Site"] == "?"
    assert text.count("[Event \"Club Blitz\"]") == 3
    assert max(len(line) for line in text.splitlines()) <= 255


@given(st.text(max_size=60), st.text(max_size=60))
def test_any_name_survives_a_write_and_a_read(white: str, black: str) -> None:
    [game] = read_games(event_pgn('The "Open"', [BoardGame(3, 7, white, black, "1/2-1/2")]))
    assert game.tags["White"] == " ".join(white.split())
    assert game.tags["Black"] == " ".join(black.split())
    assert game.tags["Event"] == 'The "Open"'
    assert "\n" not in tag_value(white)
