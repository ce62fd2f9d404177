"""Plots of a simulation run in the style of the paper: violin plots per pairing system.

Each violin is the kernel density of one measure over the tournaments of a system, with the
quartiles as dashed lines (as in Führlich, Cseh and Lenzner's figures). With a baseline run
(an earlier ``tournaments.csv``) two violins stand side by side per system: this run in blue,
the baseline in orange, as the paper compares beta = 0.1 with beta = 2.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no display

import matplotlib.pyplot as plt
import numpy as np

from cli.simulation.experiment import measure_values
from swiss.sim.runner import TournamentMeasures

# (measure, file stem, axis label)
PLOTS: tuple[tuple[str, str, str], ...] = (
    ("kendall_tau", "kendall_tau", "normalized Kendall τ (higher is better)"),
    ("spearman_rho", "spearman_rho", "normalized Spearman ρ"),
    ("ndcg", "ndcg", "NDCG"),
    ("float_pairs", "float_pairs", "float pairs per tournament (lower is better)"),
    ("acd_even", "colour_difference", "absolute colour difference after the last even round"),
    ("strength_diff_ratio", "strength_diff_ratio", "normalized strength difference"),
)
BLUE, ORANGE = "#1f77b4", "#ff7f0e"
# Counts: their density is smoothed over at least one unit, or the violins show every integer.
DISCRETE = {"float_pairs", "acd_even"}


def plot_run(
    results: dict[str, list[TournamentMeasures]],
    out_dir: Path,
    *,
    title: str = "",
    baseline: dict[str, list[TournamentMeasures]] | None = None,
    labels: tuple[str, str] = ("this run", "baseline"),
) -> list[Path]:
    """Write one PNG per measure into ``out_dir``; return their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for measure, stem, ylabel in PLOTS:
        data = {s: _finite(measure_values(rs, measure)) for s, rs in results.items()}
        if not any(data.values()):
            continue
        base = None
        if baseline is not None:
            base = {s: _finite(measure_values(baseline.get(s, []), measure)) for s in results}
        path = out_dir / f"{stem}.png"
        _violins(data, base, ylabel, title, labels, path, discrete=measure in DISCRETE)
        written.append(path)
    path = out_dir / "colour_difference_by_round.png"
    _acd_lines(results, title, path)
    written.append(path)
    return written


def _acd_lines(results: dict[str, list[TournamentMeasures]], title: str, path: Path) -> None:
    """Mean absolute colour difference after each round, one line per system (paper Fig. 25)."""
    fig, ax = plt.subplots(figsize=(6.5, 4.2), dpi=110)
    for system, records in results.items():
        if not records:
            continue
        rounds = len(records[0].acd)
        means = [sum(r.acd[k] for r in records) / len(records) for k in range(rounds)]
        ax.plot(range(1, rounds + 1), means, marker="o", label=system)
    ax.set_xlabel("round")
    ax.set_ylabel("mean absolute colour difference (acd)")
    if title:
        ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _finite(values: Sequence[float]) -> list[float]:
    return [v for v in values if v == v]  # drop NaN


def _unit_bandwidth(kde: object) -> float:
    """Scott's factor, but never a kernel narrower than one unit (for integer counts)."""
    scott = float(kde.scotts_factor())  # type: ignore[attr-defined]
    spread = float(np.std(kde.dataset))  # type: ignore[attr-defined]
    return max(scott, 1.0 / spread) if spread > 0 else scott


def _violins(
    data: dict[str, list[float]],
    base: dict[str, list[float]] | None,
    ylabel: str,
    title: str,
    labels: tuple[str, str],
    path: Path,
    *,
    discrete: bool = False,
) -> None:
    systems = list(data)
    fig, ax = plt.subplots(figsize=(1.3 * len(systems) + 2.5, 4.2), dpi=110)
    series = [(data, BLUE, 0.0 if base is None else -0.2, labels[0])]
    if base is not None:
        series.append((base, ORANGE, 0.2, labels[1]))
    width = 0.8 if base is None else 0.38
    for values, colour, shift, label in series:
        positions = [i + shift for i, s in enumerate(systems) if len(values.get(s, [])) > 1]
        sets = [values[s] for s in systems if len(values.get(s, [])) > 1]
        if not sets:
            continue
        parts = ax.violinplot(
            sets, positions=positions, widths=width, showextrema=False,
            quantiles=[[0.25, 0.5, 0.75]] * len(sets),
            bw_method=_unit_bandwidth if discrete else None,
        )
        for body in parts["bodies"]:
            body.set_facecolor(colour)
            body.set_edgecolor(colour)
            body.set_alpha(0.55)
        quartiles = parts["cquantiles"]
        quartiles.set_color("black")
        quartiles.set_linestyle("--")
        quartiles.set_linewidth(0.8)
        ax.plot([], [], color=colour, linewidth=8, alpha=0.55, label=label)
    ax.set_xticks(range(len(systems)), systems)
    ax.set_xlabel("pairing system")
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title, fontsize=10)
    if base is not None:
        ax.legend(loc="best", fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
