"""``swissbot simulate --teams N``: team formats compared on simulated events.

The pure work is :mod:`swiss.sim.teams`; this module reads the options, runs the formats
(one worker process per format with ``--jobs``) and prints the table: mean and 95 %
confidence interval of each measure per format. Every format faces the same drawn fields,
so the same ``--seed`` gives the same numbers for any ``--jobs``.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import sys

from cli.exit_codes import EXIT_INVALID_INPUT, EXIT_NO_PAIRING, EXIT_OK
from cli.simulation.experiment import format_table
from swiss.pairing import PairingError
from swiss.sim.measures import mean_ci95
from swiss.sim.outcomes import parse_model
from swiss.sim.strengths import parse_strengths
from swiss.sim.teams import (
    ESPORTS,
    ESPORTS_FORMAT,
    TeamEventMeasures,
    TeamFormat,
    TeamSimulationConfig,
    fide_team_formats,
    simulate_teams,
)

TEAM_SYSTEMS = ("fide-team", ESPORTS)
COLUMNS: tuple[tuple[str, str, int], ...] = (
    ("kendall_tau", "Kendall tau", 4),
    ("ndcg", "NDCG", 4),
    ("tau_against_first", "tau - first row's", 4),
    ("winner_is_strongest", "winner = strongest", 3),
    ("top_half_advanced", "true top half advanced", 3),
    ("all_top_half_advanced", "all of it advanced", 3),
)


def _formats(text: str) -> list[TeamFormat]:
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in TEAM_SYSTEMS]
    if unknown or not names:
        raise ValueError(f"--system: unknown team system {', '.join(unknown) or '(none)'}; "
                         f"choose from {', '.join(TEAM_SYSTEMS)}")
    formats: list[TeamFormat] = []
    if "fide-team" in names:
        formats += fide_team_formats()
    if ESPORTS in names:
        formats.append(ESPORTS_FORMAT)
    return formats


def team_config(args: argparse.Namespace) -> TeamSimulationConfig:
    """The experiment's settings from the options; ValueError says which one is wrong."""
    rounds = min(args.rounds, args.teams - 1) if args.system == ESPORTS else args.rounds
    if rounds >= args.teams:
        raise ValueError(f"--rounds must be between 1 and teams - 1 = {args.teams - 1} "
                         f"(got {args.rounds})")
    return TeamSimulationConfig(teams=args.teams, boards=args.boards, rounds=rounds,
                                strengths=parse_strengths(args.strengths),
                                model=parse_model(args.model), seed=args.seed)


def _one_format(config: TeamSimulationConfig, team_format: TeamFormat, tournaments: int
                ) -> list[TeamEventMeasures]:
    return simulate_teams(config, [team_format], tournaments)[team_format.label]


def summarize_teams(results: dict[str, list[TeamEventMeasures]]
                    ) -> dict[str, dict[str, tuple[float, float]]]:
    """Mean and 95 % half-width of every measure per format (nan where it does not apply).

    ``tau_against_first`` is the paired difference to the first format's tau, event by
    event: the formats face the same fields, so this interval is the one to read when two
    formats are compared (it leaves out the fields' own variation)."""
    summary = {}
    first = next(iter(results.values()), [])
    for label, events in results.items():
        row = {}
        for name, _title, _digits in COLUMNS:
            if name == "tau_against_first":
                values = [e.kendall_tau - f.kendall_tau for e, f in zip(events, first,
                                                                        strict=False)]
            else:
                values = [getattr(e, name) for e in events]
            row[name] = mean_ci95([v for v in values if not math.isnan(v)])
        summary[label] = row
    return summary


def run_teams(args: argparse.Namespace) -> int:
    """``simulate --teams``: run, then print the table."""
    try:
        ignored = [option for option, value in (("--out", args.out), ("--external", args.external),
                                                ("--baseline", args.baseline)) if value]
        if ignored:
            raise ValueError(f"{', '.join(ignored)} does not apply to team events (--teams)")
        formats = _formats(args.system)
        config = team_config(args)
    except ValueError as exc:
        print(f"swissbot simulate: {exc}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    tasks = [(config, f, args.tournaments) for f in formats]
    try:
        if jobs > 1 and len(formats) > 1:
            with multiprocessing.get_context("spawn").Pool(min(jobs, len(formats))) as pool:
                outcomes = pool.starmap(_one_format, tasks)
        else:
            outcomes = [_one_format(*task) for task in tasks]
    except PairingError as exc:
        print(f"swissbot simulate: pairing failed: {exc}", file=sys.stderr)
        return EXIT_NO_PAIRING
    results = {f.label: found for f, found in zip(formats, outcomes, strict=True)}
    rounds = "a Swiss stage" if args.system == ESPORTS else f"{config.rounds} rounds"
    print(f"# {args.tournaments} events per format, {config.teams} teams of {config.boards} "
          f"boards, {rounds}, strengths {config.strengths.describe()}, model "
          f"{config.model.describe()}, seed {config.seed}")
    print(format_table(summarize_teams(results), markdown=args.markdown, columns=COLUMNS,
                       first="format"))
    return EXIT_OK
