"""Run simulation experiments: many tournaments per system, in parallel, with a summary.

The pure work is in :mod:`swiss.sim`; this module adds what it must not do: worker processes,
the progress bar, the external pairing engine (a subprocess on a TRF file), CSV files.

Every tournament ``k`` of a system is seeded from ``(run seed, system, k)`` alone, and results
are collected in index order, so a run gives the same numbers for any ``jobs``.
"""

from __future__ import annotations

import csv
import math
import multiprocessing
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from swiss.model import Bye, ByeKind, Game, Round, Tournament
from swiss.numbers import NumberError, parse_int
from swiss.pairing import PairingError
from swiss.sim.measures import mean_ci95
from swiss.sim.runner import Pairer, SimulationConfig, TournamentMeasures, play_tournament
from swiss.trf import write_trf
from swiss.trf.format import MAX_ID

Progress = Callable[[int, int], None]

# The measures of the summary table: (column, label, digits).
SUMMARY_MEASURES: tuple[tuple[str, str, int], ...] = (
    ("kendall_tau", "Kendall tau", 4),
    ("spearman_rho", "Spearman rho", 4),
    ("ndcg", "NDCG", 4),
    ("float_pairs", "float pairs", 2),
    ("acd_even", "acd (last even rd)", 2),
    ("acd_last", "acd (last rd)", 2),
    ("mean_strength_diff", "mean str. diff", 1),
    ("paradoxical_share", "paradoxical", 4),
    ("strength_diff_ratio", "norm. str. diff", 4),
    ("winner_is_strongest", "winner = strongest", 3),
)


@dataclass(frozen=True, slots=True)
class SystemSpec:
    """One column of the experiment: a label, and who pairs (our engine unless ``pairer``)."""

    label: str
    pairer: Pairer | None = None
    fast: bool = True


# -- the external engine ------------------------------------------------------------------------
class ExternalEngineError(PairingError):
    """The external pairing command failed or printed something that is not a pairing."""


@dataclass(frozen=True, slots=True)
class ExternalPairer:
    """Pairs each round by running ``command`` on the tournament so far as a TRF file.

    ``{trf}`` in the command is replaced by the file's path; the pairs are read in bbpPairings'
    output format from standard output, or from the file ``{out}`` when the command names one
    (``bbpPairings --dutch {trf} -p {out}``).
    """

    command: str
    timeout: float = 60.0

    def __post_init__(self) -> None:
        if "{trf}" not in self.command:
            raise ValueError("the external command must contain {trf} (the TRF file's path)")
        if not shlex.split(self.command):
            raise ValueError("the external command is empty")

    def __call__(self, tournament: Tournament) -> Round:
        with tempfile.TemporaryDirectory(prefix="swissbot-sim-") as tmp:
            trf = Path(tmp) / "tournament.trf"
            out = Path(tmp) / "pairs.txt"
            trf.write_text(write_trf(tournament), encoding="utf-8")
            argv = [
                part.replace("{trf}", str(trf)).replace("{out}", str(out))
                for part in shlex.split(self.command)
            ]
            try:
                done = subprocess.run(
                    argv, capture_output=True, text=True, timeout=self.timeout, check=False
                )
            except FileNotFoundError:
                raise ExternalEngineError(f"external engine not found: {argv[0]!r}") from None
            except subprocess.TimeoutExpired:
                raise ExternalEngineError(
                    f"external engine took more than {self.timeout:g} s on round "
                    f"{tournament.next_round}"
                ) from None
            if done.returncode != 0:
                detail = (done.stderr or done.stdout).strip().splitlines()
                raise ExternalEngineError(
                    f"external engine exited with code {done.returncode} on round "
                    f"{tournament.next_round}: {detail[-1] if detail else 'no message'}"
                )
            if "{out}" in self.command:
                try:
                    text = out.read_text(encoding="utf-8")
                except OSError:
                    raise ExternalEngineError(
                        f"external engine wrote no pairs file ({{out}}) on round "
                        f"{tournament.next_round}"
                    ) from None
            else:
                text = done.stdout
        return parse_pairs(text, tournament)


def parse_pairs(text: str, tournament: Tournament) -> Round:
    """Read bbpPairings' pairs output (count, then ``WHITE BLACK`` lines, bye as ``ID 0``)."""
    lines = [line.split() for line in text.strip().splitlines() if line.strip()]
    # Another program's output is input from outside too: strictly (swiss.numbers).
    try:
        if not lines or len(lines[0]) != 1:
            raise NumberError("the pair count is missing")
        count = parse_int(lines[0][0], "the pair count", low=0, high=MAX_ID)
    except NumberError as exc:
        raise ExternalEngineError("external engine output does not start with the pair count "
                                  f"({exc.reason})") from None
    body = lines[1:]
    if len(body) != count:
        raise ExternalEngineError(
            f"external engine announced {count} pairs but printed {len(body)}"
        )
    known = set(tournament.player_ids)
    seen: set[int] = set()
    games: list[Game] = []
    byes: list[Bye] = []
    for fields in body:
        try:
            if len(fields) != 2:
                raise NumberError("two ids expected")
            white, black = (parse_int(f, "player id", low=0, high=MAX_ID) for f in fields)
        except NumberError:
            shown = " ".join(fields)[:80]
            raise ExternalEngineError(
                f"bad pair line in external engine output: {shown!r}") from None
        for pid in (white, black):
            if pid and (pid not in known or pid in seen):
                raise ExternalEngineError(
                    f"external engine paired an unknown or repeated player {pid}"
                )
            seen.add(pid)
        if black == 0:
            byes.append(Bye(white, ByeKind.PAIRING))
        else:
            games.append(Game(white=white, black=black, board=len(games) + 1))
    return Round(tournament.next_round, tuple(games), tuple(byes))


# -- running ------------------------------------------------------------------------------------
def _chunks(tournaments: int, jobs: int) -> int:
    """Chunk size: big enough to amortise inter-process traffic, small for a live progress bar."""
    return max(1, min(250, tournaments // max(1, 8 * jobs)))


def _work(task: tuple[SimulationConfig, SystemSpec, int, int]) -> list[TournamentMeasures]:
    config, spec, start, stop = task
    return [
        play_tournament(config, spec.label, k, spec.pairer, fast=spec.fast).measures
        for k in range(start, stop)
    ]


def run_experiment(
    config: SimulationConfig,
    systems: Sequence[SystemSpec],
    tournaments: int,
    *,
    jobs: int = 1,
    progress: Progress | None = None,
) -> dict[str, list[TournamentMeasures]]:
    """Play ``tournaments`` tournaments per system; the measures in tournament order."""
    if tournaments < 1:
        raise ValueError("the number of tournaments must be at least 1")
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    size = _chunks(tournaments, jobs)
    tasks = [
        (config, spec, start, min(start + size, tournaments))
        for spec in systems
        for start in range(0, tournaments, size)
    ]
    total = tournaments * len(systems)
    results: dict[str, list[TournamentMeasures]] = {spec.label: [] for spec in systems}
    done = 0
    if progress:
        progress(0, total)
    for chunk in _map(tasks, jobs):
        if chunk:
            results[chunk[0].system].extend(chunk)
            done += len(chunk)
        if progress:
            progress(done, total)
    return results


def _map(
    tasks: list[tuple[SimulationConfig, SystemSpec, int, int]], jobs: int
) -> Iterator[list[TournamentMeasures]]:
    if jobs == 1 or len(tasks) == 1:
        yield from map(_work, tasks)
        return
    with multiprocessing.get_context("fork").Pool(min(jobs, len(tasks))) as pool:
        yield from pool.imap(_work, tasks)  # imap keeps the task order: deterministic output


# -- summaries and files ------------------------------------------------------------------------
def measure_values(records: Sequence[TournamentMeasures], name: str) -> list[float]:
    """One measure over the tournaments; ``acd_even`` / ``acd_last`` pick a round of ``acd``."""
    if name == "acd_even":
        return [float(r.acd[_last_even(len(r.acd))]) for r in records]
    if name == "acd_last":
        return [float(r.acd[-1]) for r in records]
    if name.startswith("acd_r"):
        k = int(name[5:]) - 1
        return [float(r.acd[k]) for r in records]
    if name.startswith("floats_r"):
        k = int(name[8:]) - 1
        return [float(r.floats[k]) for r in records]
    return [float(getattr(r, name)) for r in records]


def _last_even(rounds: int) -> int:
    """Index of the last even round (or round 1 for a one-round event)."""
    return max(0, (rounds // 2) * 2 - 1)


def summarize(
    results: dict[str, list[TournamentMeasures]],
) -> dict[str, dict[str, tuple[float, float]]]:
    """Per system and measure: the mean and the half-width of its 95 % confidence interval."""
    summary: dict[str, dict[str, tuple[float, float]]] = {}
    for label, records in results.items():
        summary[label] = {}
        for name, _title, _digits in SUMMARY_MEASURES:
            values = [v for v in measure_values(records, name) if not math.isnan(v)]
            summary[label][name] = mean_ci95(values)
    return summary


def format_table(
    summary: dict[str, dict[str, tuple[float, float]]], *, markdown: bool = False,
    columns: Sequence[tuple[str, str, int]] = SUMMARY_MEASURES, first: str = "system",
) -> str:
    """The summary as an aligned text table (or a Markdown table): mean ± 95 % CI."""
    header = [first] + [title for _name, title, _d in columns]
    rows = []
    for label, measures in summary.items():
        row = [label]
        for name, _title, digits in columns:
            mean, half = measures[name]
            if math.isnan(mean):
                row.append("-")
            elif math.isnan(half):
                row.append(f"{mean:.{digits}f}")
            else:
                row.append(f"{mean:.{digits}f} ± {half:.{digits}f}")
        rows.append(row)
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(
            cell.ljust(width) if i == 0 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
        )

    return "\n".join([line(header), *(line(r) for r in rows)])


def write_csv(results: dict[str, list[TournamentMeasures]], path: Path) -> None:
    """Every tournament as one CSV row (system, tournament, measures, acd per round)."""
    records = [r for rs in results.values() for r in rs]
    if not records:
        return
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(records[0].as_row()))
        writer.writeheader()
        for record in records:
            writer.writerow(record.as_row())


def write_summary_csv(summary: dict[str, dict[str, tuple[float, float]]], path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["system", "measure", "mean", "ci95_half_width"])
        for label, measures in summary.items():
            for name, (mean, half) in measures.items():
                writer.writerow([label, name, repr(mean), repr(half)])


def read_csv(path: Path) -> dict[str, list[TournamentMeasures]]:
    """Read a ``tournaments.csv`` back (for comparing a run with an earlier one). A value that
    is not a number in ASCII digits is a ValueError naming its line and column."""
    results: dict[str, list[TournamentMeasures]] = {}
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        for row in reader:
            whole, real = _cell_readers(row, reader.line_num)
            rounds = sorted(whole(k, k[5:]) for k in row if k.startswith("acd_r"))
            float_rounds = sorted(whole(k, k[8:]) for k in row if k.startswith("floats_r"))
            record = TournamentMeasures(
                system=row["system"],
                index=whole("tournament"),
                kendall_tau=real("kendall_tau"),
                spearman_rho=real("spearman_rho"),
                ndcg=real("ndcg"),
                float_pairs=whole("float_pairs"),
                acd=tuple(whole(f"acd_r{r}") for r in rounds),
                mean_strength_diff=real("mean_strength_diff"),
                paradoxical_share=real("paradoxical_share"),
                strength_diff_ratio=real("strength_diff_ratio"),
                games=whole("games"),
                draws=whole("draws"),
                winner_is_strongest=bool(whole("winner_is_strongest")),
                floats=tuple(whole(f"floats_r{r}") for r in float_rounds),
            )
            results.setdefault(record.system, []).append(record)
    return results


#: The largest whole number in a tournaments.csv (tournament indices, games, rounds).
MAX_CSV_WHOLE = 10**12


def _cell_readers(row: dict[str, str], line: int) -> tuple[Callable[..., int],
                                                            Callable[[str], float]]:
    """Strict readers of one CSV row's cells (``int()`` and ``float()`` take "١٢" and "inf"):
    whole numbers in ASCII digits, and decimals as ``repr`` writes them (ASCII, exponents
    allowed, ``nan`` for a measure not taken; no infinity)."""

    def whole(column: str, text: str | None = None) -> int:
        try:
            return parse_int(row[column] if text is None else text, column, low=0,
                             high=MAX_CSV_WHOLE)
        except NumberError as exc:
            raise ValueError(f"line {line}, column {column}: {exc.reason}") from None

    def real(column: str) -> float:
        text = row[column].strip()
        try:  # "nan" stays: a measure that was not taken is written as nan
            value = float(text) if text.isascii() and "_" not in text else math.inf
        except ValueError:
            value = math.inf
        if math.isinf(value):
            raise ValueError(f"line {line}, column {column}: {text[:20]!r} is not a number "
                             "written with ASCII digits")
        return value

    return whole, real


class ProgressBar:
    """A one-line progress bar on a terminal stream (nothing when it is not a terminal)."""

    def __init__(self, stream: TextIO = sys.stderr, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.start = time.monotonic()
        self.enabled = bool(getattr(stream, "isatty", lambda: False)())

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        elapsed = time.monotonic() - self.start
        filled = int(self.width * done / total) if total else self.width
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = (total - done) / rate if rate > 0 else 0.0
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} tournaments"
            f"  {rate:.0f}/s  ETA {eta:.0f} s "
        )
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()
