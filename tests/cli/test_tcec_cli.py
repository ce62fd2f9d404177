"""``swissbot pair --system tcec`` on TRF files: the same pairs as the engine in memory."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cli.main import main
from swiss.pairing import pair_round
from swiss.pairing.tcec import encounter_history
from swiss.trf import format_pairs, write_trf
from tests.tcec_support import TCEC, play, tournament


@pytest.mark.parametrize(("players", "rounds"), [(8, 5), (9, 12)])
def test_swissbot_pair_tcec_on_a_trf_file(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          players: int, rounds: int) -> None:
    rng = random.Random(players)
    t = tournament(players)
    for _ in range(rounds):
        t, _pairing = play(t, TCEC, rng)
    if rounds > players:  # the file's history must be replayed with its removals
        assert encounter_history(t).removals
    path = tmp_path / "event.trf"
    path.write_text(write_trf(t), encoding="utf-8")
    assert main(["pair", str(path), "--system", "tcec"]) == 0
    assert capsys.readouterr().out == format_pairs(pair_round(t, TCEC))


def test_swissbot_pair_tcec_reports_an_impossible_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t = tournament(2, forbidden_pairs=frozenset({frozenset((1, 2))}))
    path = tmp_path / "forbidden.trf"
    path.write_text(write_trf(t), encoding="utf-8")
    assert main(["pair", str(path), "--system", "tcec"]) == 1
    assert "empty encounter history" in capsys.readouterr().err
