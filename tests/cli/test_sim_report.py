"""Summaries, tables and CSV files of a simulation run."""

from __future__ import annotations

import math

import pytest

from cli.simulation.experiment import (
    format_table,
    measure_values,
    read_csv,
    summarize,
    write_csv,
)
from swiss.sim.runner import TournamentMeasures


def _record(system: str, index: int, tau: float, floats: int) -> TournamentMeasures:
    return TournamentMeasures(
        system=system, index=index, kendall_tau=tau, spearman_rho=tau, ndcg=0.9,
        float_pairs=floats, acd=(4, 0, 4, 2, 4), mean_strength_diff=200.0,
        paradoxical_share=0.25, strength_diff_ratio=math.nan, games=10, draws=2,
        winner_is_strongest=index % 2 == 0, floats=(0, 1, floats - 1),
    )


RESULTS = {
    "dutch": [_record("dutch", 0, 0.5, 3), _record("dutch", 1, 0.7, 5)],
    "monrad": [_record("monrad", 0, 0.1, 6), _record("monrad", 1, 0.3, 6)],
}


def test_summary_means_and_intervals():
    summary = summarize(RESULTS)
    mean, half = summary["dutch"]["kendall_tau"]
    assert mean == pytest.approx(0.6)
    # sd of (0.5, 0.7) is 0.1414; 1.96 * sd / sqrt(2)
    assert half == pytest.approx(1.959963984540054 * 0.1414213562 / math.sqrt(2))
    assert summary["monrad"]["float_pairs"] == (6.0, 0.0)
    assert summary["dutch"]["acd_even"][0] == 2.0  # round 4 is the last even round of 5
    assert summary["dutch"]["acd_last"][0] == 4.0
    assert summary["dutch"]["winner_is_strongest"][0] == 0.5
    assert math.isnan(summary["dutch"]["strength_diff_ratio"][0])  # not measured


def test_acd_by_round_and_last_even_round():
    records = RESULTS["dutch"]
    assert measure_values(records, "acd_r2") == [0.0, 0.0]
    assert measure_values(records, "acd_even") == [2.0, 2.0]
    assert measure_values(records, "floats_r3") == [2.0, 4.0]


def test_tables_show_every_system_and_dashes_for_missing_measures():
    text = format_table(summarize(RESULTS))
    lines = text.splitlines()
    assert lines[0].split()[0] == "system"
    assert lines[1].startswith("dutch") and lines[2].startswith("monrad")
    assert "0.6000 ± 0.1960" in lines[1]
    assert " - " in lines[1] + " "  # the unmeasured normalized strength difference
    md = format_table(summarize(RESULTS), markdown=True).splitlines()
    assert md[0].startswith("| system | Kendall tau |") and md[1].startswith("|---|")
    assert md[2].startswith("| dutch | 0.6000 ± 0.1960 |")


def test_csv_round_trip(tmp_path):
    path = tmp_path / "t.csv"
    write_csv(RESULTS, path)
    back = read_csv(path)
    assert list(back) == ["dutch", "monrad"]
    for system, records in RESULTS.items():
        for a, b in zip(records, back[system], strict=True):
            assert a.as_row().keys() == b.as_row().keys()
            assert a.acd == b.acd and a.kendall_tau == b.kendall_tau
            assert a.float_pairs == b.float_pairs and a.floats == b.floats
            assert a.winner_is_strongest == b.winner_is_strongest
            assert math.isnan(b.strength_diff_ratio)


class _Terminal:
    def __init__(self, tty: bool) -> None:
        self.text = ""
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass


def test_progress_bar_draws_on_a_terminal_only():
    from cli.simulation.experiment import ProgressBar

    term = _Terminal(tty=True)
    bar = ProgressBar(term, width=10)  # type: ignore[arg-type]
    bar(0, 4)
    bar(2, 4)
    bar(4, 4)
    assert "[#####.....] 2/4 tournaments" in term.text
    assert term.text.endswith("\n") and "[##########] 4/4" in term.text
    pipe = _Terminal(tty=False)
    ProgressBar(pipe)(1, 2)  # type: ignore[arg-type]
    assert pipe.text == ""
