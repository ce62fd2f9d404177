"""The rating fields of the TRF 001 lines (sex, title, name as Last, First, federation, FIDE
id, birth date) survive the command line: a file read and written again by ``swissbot
header`` keeps every field in its column."""

from __future__ import annotations

from pathlib import Path

from cli.main import main
from swiss.model import Player, Tournament
from swiss.trf import TrfPlayerInfo, parse_trf, write_trf

TOURNAMENT = Tournament(
    players=(Player(id=1, name="Carlsen, Magnus", rating=2830),
             Player(id=2, name="Hou, Yifan", rating=2630),
             Player(id=3, name="Guest, Without Fields")),
    total_rounds=3, name="Rated Open")
FIELDS = {
    1: TrfPlayerInfo(sex="m", title="GM", federation="NOR", fide_id="1503014",
                     birth="1990/11/30"),
    2: TrfPlayerInfo(sex="w", title="GM", federation="CHN", fide_id="8602980", birth="1994"),
}


def test_the_header_command_keeps_every_player_field(tmp_path: Path) -> None:
    source = tmp_path / "in.trf"
    source.write_text(write_trf(TOURNAMENT, players=FIELDS), encoding="utf-8")
    out = tmp_path / "out.trf"
    assert main(["header", str(source), "--set", "city=Oslo", "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    parsed = parse_trf(text)
    assert parsed.tournament == TOURNAMENT  # the names as Last, First included
    for pid, expected in FIELDS.items():
        got = parsed.players[pid]
        assert (got.sex, got.title, got.federation, got.fide_id, got.birth) == (
            expected.sex, expected.title, expected.federation, expected.fide_id,
            expected.birth)
    line = next(row for row in text.splitlines() if row.startswith("001    1"))
    assert line[9:13] == "m GM" and line[53:56] == "NOR" and line[69:79] == "1990/11/30"
    assert parsed.players[3].federation == "" and parsed.players[3].fide_id == ""
