"""`swissbot pair` for the FIDE Dutch engine and the posterior system: the command line around
the engines the tests in tests/swiss check."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.main import EXIT_NO_PAIRING, main
from swiss.model import ByeKind, Result
from swiss.pairing import PairingConfig, pair_round
from swiss.trf.pairs import read_pairs
from swiss.trf.writer import write_trf
from tests.pairing_helpers import new_tournament, round_of
from tests.paths import FIXTURES
from tests.swiss.test_pairing_posterior import _swapping_tournament


def test_cli_pairs_both_editions_and_refuses_other_rules(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for rules in ("2025", "2017"):
        trf = FIXTURES / f"dutch-{rules}" / "t0003" / "round-03.trf"
        assert main(["pair", "--system", "fide-dutch", "--rules", rules, str(trf)]) == 0
        assert capsys.readouterr().out == trf.with_suffix(".pairs").read_text()
    trf = FIXTURES / "dutch-2025" / "t0003" / "round-03.trf"
    # an edition that does not exist is a usage error: exit 2 with the sub-command's usage
    with pytest.raises(SystemExit) as exit_info:
        main(["pair", "--system", "fide-dutch", "--rules", "2019", str(trf)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "unknown FIDE Dutch rules edition '2019'" in err and "usage: swissbot pair" in err
    t = new_tournament(3, rounds=4)
    t = t.with_round(round_of(1, [(1, 2, Result.DRAW)], [(3, ByeKind.PAIRING)]))
    t = t.with_round(round_of(2, [(3, 1, Result.DRAW)], [(2, ByeKind.PAIRING)]))
    t = t.with_round(round_of(3, [(2, 3, Result.DRAW)], [(1, ByeKind.PAIRING)]))
    path = tmp_path / "stuck.trf"
    path.write_text(write_trf(t))
    assert main(["pair", "--system", "fide-dutch", str(path)]) == EXIT_NO_PAIRING
    assert "C1" in capsys.readouterr().err


@pytest.mark.parametrize("rules", ["2025", "2017"])
def test_cli_explain_prints_one_line_per_board_and_the_bye(
    rules: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = FIXTURES / f"dutch-{rules}" / "t0003" / "round-03.trf"
    assert main(["pair", "--system", "fide-dutch", "--rules", rules, "--explain",
                 str(path)]) == 0
    captured = capsys.readouterr()
    pairs = captured.out.splitlines()[1:]
    lines = captured.err.splitlines()
    assert len(lines) == len(pairs)
    for pair, line in zip(pairs, lines, strict=True):
        white, black = pair.split()
        if black == "0":
            assert line.startswith(f"{white} bye: bye score") and "eligible below=" in line
        else:
            assert line.startswith(f"{white}-{black}: score difference")
            assert "excluded: met=" in line and "colour rule=" in line


def test_swissbot_pair_posterior_on_a_trf(tmp_path, capsys):  # type: ignore[no-untyped-def]
    t = _swapping_tournament()
    path = tmp_path / "event.trf"
    path.write_text(write_trf(t), encoding="utf-8")
    assert main(["pair", "--system", "posterior", str(path)]) == 0
    pairs, bye = read_pairs(capsys.readouterr().out)
    expected = pair_round(t, PairingConfig(system="posterior"))
    assert pairs == {(g.white, g.black) for g in expected.games} and bye is None
    assert frozenset((1, 4)) not in {frozenset(p) for p in pairs}  # not Burstein's pairing
