"""``swissbot pgn``: a JSON export's games as PGN (byes left out, Site from game_url), and
bad files answered with exit 3 and where (the line and column of broken JSON)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli.main import main
from cli.pgn import ExportError, pgn_of_export
from swiss.pgn import read_games

EXPORT = {
    "tournament": {"name": "Club Blitz"},
    "games": [
        {"round": 1, "board": 1, "white_name": "Ann", "black_name": "Bob", "result": "1-0",
         "game_url": "https://lichess.org/abcd1234"},
        {"round": 1, "board": None, "white_name": "Cleo", "black_name": None,
         "result": "bye:pairing", "game_url": None},
        {"round": 2, "board": 1, "white_name": "Bob", "black_name": "Cleo", "result": "+--"},
    ],
}


def test_an_exports_games_become_pgn(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                     ) -> None:
    source = tmp_path / "club.json"
    source.write_text(json.dumps(EXPORT), encoding="utf-8")
    assert main(["pgn", str(source)]) == 0
    games = read_games(capsys.readouterr().out)
    assert [g.tags["Round"] for g in games] == ["1.1", "2.1"]  # the bye is no game
    assert games[0].tags["Site"] == "https://lichess.org/abcd1234"
    assert games[1].tags["Result"] == "1-0" and "forfeited" in games[1].movetext
    out = tmp_path / "club.pgn"
    assert main(["pgn", str(source), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith('[Event "Club Blitz"]')


def test_bad_files_exit_3_saying_where(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"games": [\n  {"round": 1,,}\n]}', encoding="utf-8")
    assert main(["pgn", str(broken)]) == 3
    assert "line 2, column 15" in capsys.readouterr().err
    standings = tmp_path / "standings.json"
    standings.write_text('{"standings": []}', encoding="utf-8")
    assert main(["pgn", str(standings)]) == 3
    assert 'no "games"' in capsys.readouterr().err
    assert main(["pgn", str(tmp_path / "missing.json")]) == 3


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200))
def test_any_text_is_a_pgn_or_a_clear_refusal(text: str) -> None:
    try:
        pgn_of_export(text)
    except ExportError as exc:
        assert str(exc)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["round", "board", "white_name", "black_name", "result", "game_url",
                         "name"]), inner, max_size=6),
    max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(JSON, JSON)
def test_any_export_shaped_json_is_a_pgn_or_a_clear_refusal(games: object,
                                                              tournament: object) -> None:
    text = json.dumps({"tournament": tournament, "games": games})
    try:
        pgn_of_export(text)
    except ExportError as exc:
        assert str(exc)
