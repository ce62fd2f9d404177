"""``swissbot simulate``: the paper's experiment -- many simulated tournaments per system.

Prints a table with the mean and a 95 % confidence interval of every measure per system;
``--out DIR`` also writes every tournament as CSV, the summary as CSV and violin plots as PNG.
The same ``--seed`` gives the same numbers for any ``--jobs``. Exit codes: 0 done, 1 a
pairing failed (e.g. the external engine), 3 invalid input, 2 command-line usage, 5 the
``sim`` extra (numpy, matplotlib) is not installed.

numpy and matplotlib are optional (``pip install 'swissbot[sim]'``), so this module imports the
simulator only inside the functions: ``swissbot --help`` and ``swissbot pair`` build this
parser and must not pay for (or need) numpy.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from cli.exit_codes import EXIT_INVALID_INPUT, EXIT_MISSING_EXTRA, EXIT_NO_PAIRING, EXIT_OK
from cli.options import UsageError, exact, system_option, whole
from swiss.numbers import MAX_SEED
from swiss.pairing import MWM_SYSTEMS, SYSTEMS, PairingError
from swiss.pairing.names import DEFAULT_EDITION, EDITIONS

if TYPE_CHECKING:
    from swiss.sim.runner import SimulationConfig

DEFAULT_SYSTEMS = "burstein,random2,dutch,random,monrad"
SIM_EXTRA_HINT = "pip install 'swissbot[sim]'"
# Bounds of the numeric options (parsed by swiss.numbers, never by int()/float()).
MAX_PLAYERS = 4096
MAX_TOURNAMENTS = 10_000_000
MAX_JOBS = 1024
MAX_BETA = 100
MAX_TEAMS = 1024
MAX_BOARDS = 64


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``simulate`` sub-command."""
    parser = subparsers.add_parser(
        "simulate",
        help="simulate many tournaments per pairing system and compare ranking quality "
             "and fairness",
        description=(
            "Simulate Swiss tournaments with known true strengths (Fuehrlich, Cseh and Lenzner's "
            "experiment) and print, per pairing system, the mean and 95% confidence interval "
            "of: normalized Kendall tau, Spearman rho and NDCG against the true order; float "
            "pairs; absolute colour difference; mean strength difference of pairs; share of "
            "paradoxical results; normalized strength difference."
        ),
    )
    parser.add_argument("--players", default="32", type=whole(2, MAX_PLAYERS),
                        help=f"players (default: 32; up to {MAX_PLAYERS})")
    parser.add_argument("--rounds", default="7", type=whole(1, MAX_PLAYERS - 1),
                        help="rounds (default: 7)")
    parser.add_argument(
        "--systems", default=DEFAULT_SYSTEMS,
        help=f"comma-separated pairing systems of our engine: {', '.join(SYSTEMS)} "
             f"(default: {DEFAULT_SYSTEMS}); may be empty with --external",
    )
    parser.add_argument(
        "--rules", default=None, metavar="EDITION",
        help="fide-dutch only: the edition of FIDE C.04.3, 2025 or 2017, as in 'swissbot pair' "
             "(default: 2025; the 2017 edition is labelled 'fide-dutch (2017 rules)' in the "
             "table); refused when --systems has no fide-dutch",
    )
    parser.add_argument("--tournaments", default="1000", type=whole(1, MAX_TOURNAMENTS),
                        help="tournaments per system (default: 1000)")
    parser.add_argument("--seed", default="1", type=whole(0, MAX_SEED),
                        help="run seed (default: 1)")
    parser.add_argument("--jobs", default="1", type=whole(0, MAX_JOBS),
                        help="worker processes; 0 means one per core (default: 1)")
    parser.add_argument("--beta", default="2",
                        type=exact(low=0, high=MAX_BETA, low_open=True, decimals=6,
                                   ratios=True),
                        help="colour bound beta; 0.1 (any value up to 0.5) keeps every colour "
                             "difference within 1 (default: 2)")
    parser.add_argument("--policy", default="avoid", choices=("avoid", "forbid"),
                        help="rematches and colour differences beyond --beta: avoid (only if "
                             "nothing else works) or forbid (never)")
    parser.add_argument(
        "--strengths", default="uniform:1400:2200",
        help="true strengths: uniform:LO:HI, normal:MEAN:SD[:LO:HI] or exp:LO:HI:MEAN "
             "(default: uniform:1400:2200)",
    )
    parser.add_argument("--model", default="milvang",
                        help="game outcomes: milvang, elo or elo:DRAW (default: milvang)")
    parser.add_argument(
        "--tiebreaks", default="fide",
        help="final ranking after points: a standings preset, a comma-separated list of "
             "tiebreaks, or 'none' (default: fide)",
    )
    parser.add_argument("--final-key", default="lot", choices=("lot", "rating"),
                        help="last tie-break: lot or rating (start number) (default: lot)")
    parser.add_argument(
        "--external", metavar="'COMMAND {trf}'",
        help="also pair with an external engine: COMMAND runs on the TRF of the tournament "
             "so far ({trf}) and prints the pairs as bbpPairings does (or writes them to {out})",
    )
    parser.add_argument("--external-name", default="external",
                        help="label of the external engine in the table (default: external)")
    parser.add_argument("--no-strength-difference", action="store_true",
                        help="skip the normalized strength difference (one matching less "
                             "per round)")
    parser.add_argument(
        "--weights", default="engine", choices=("engine", "paper"),
        help="engine: our exact lexicographic weights; paper: the paper's literal "
             "10000/100/pi sum with hard colour edges and random colours (for comparison)",
    )
    parser.add_argument(
        "--score-tier", default="lexicographic", metavar="TIER",
        help="how the score tier compares pairings: lexicographic (fewest pairs at the largest "
             "score difference first, as the FIDE criteria do) or paper (the sum of the score "
             "differences, the paper's rule, for reproducing it) (default: lexicographic)",
    )
    parser.add_argument("--reference-engine", action="store_true",
                        help="pair through swiss.pairing.pair_round every round instead of "
                             "the simulator's identical vectorised path (slow; for checking)")
    parser.add_argument("--out", metavar="DIR",
                        help="write tournaments.csv, summary.csv and PNG violin plots to DIR")
    parser.add_argument("--baseline", metavar="CSV",
                        help="an earlier run's tournaments.csv to draw beside this run")
    parser.add_argument("--labels", default="this run,baseline",
                        help="legend labels 'THIS,BASELINE' for --baseline plots")
    parser.add_argument(
        "--teams", type=whole(2, MAX_TEAMS), metavar="N",
        help="simulate team events of N teams instead (--boards, --system; the options of "
             "individual pairing systems do not apply): each format's Kendall tau, NDCG and "
             "winner against true team strength, or for the e-sports stage how often the "
             "true top half advances")
    parser.add_argument("--boards", default="4", type=whole(1, MAX_BOARDS),
                        help="with --teams: boards per team (default: 4)")
    parser.add_argument(
        "--system", default="fide-team", metavar="SYSTEMS",
        help="with --teams: fide-team (every colour model, match points first and game "
             "points first), esports-swiss, or both comma-separated (default: fide-team)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


class _BadInput(Exception):
    """An invalid option value (exit code 3)."""


def missing_sim_packages(*, plots: bool) -> list[str]:
    """The packages of the ``sim`` extra this run needs but cannot import.

    Imported for real (not just looked up) so a broken install is caught too, before a long
    simulation runs: matplotlib only matters for ``--out``.
    """
    needed = ["numpy", "matplotlib"] if plots else ["numpy"]
    missing = []
    for name in needed:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    return missing


def _config(args: argparse.Namespace) -> SimulationConfig:
    from swiss.sim.outcomes import parse_model
    from swiss.sim.runner import SimulationConfig
    from swiss.sim.strengths import parse_strengths

    beta = args.beta
    if args.weights == "paper" and args.reference_engine:
        raise _BadInput("--weights paper has no reference path; drop --reference-engine")
    if args.rounds >= args.players:
        raise _BadInput(
            f"--rounds must be between 1 and players - 1 = {args.players - 1} (got {args.rounds})"
        )
    tiebreaks: str | tuple[str, ...] = args.tiebreaks.strip()
    if tiebreaks.lower() == "none":
        tiebreaks = "none"
    else:
        from swiss.standings import resolve_tiebreaks

        try:
            resolve_tiebreaks(tiebreaks)
        except ValueError as exc:
            raise _BadInput(f"--tiebreaks: {exc}") from None
    try:
        return SimulationConfig(
            players=args.players,
            rounds=args.rounds,
            strengths=parse_strengths(args.strengths),
            model=parse_model(args.model),
            beta=beta,
            policy=args.policy,
            tiebreaks=tiebreaks,
            final_key=args.final_key,
            seed=args.seed,
            strength_difference=not args.no_strength_difference,
            weights=args.weights,
            score_tier=args.score_tier,
        )
    except ValueError as exc:
        raise _BadInput(str(exc)) from None


def _systems(args: argparse.Namespace) -> list:
    from cli.simulation.experiment import ExternalPairer, SystemSpec

    # --rules is the edition of each plain "fide-dutch"; an earlier combined spelling
    # (fide-dutch-2017) keeps its own, so one table may compare the two editions
    listed = [name.strip() for name in args.systems.split(",") if name.strip()]
    plain = [name.lower() in EDITIONS for name in listed]
    if args.rules is not None and not any(plain):
        raise UsageError(f"--rules applies to {', '.join(EDITIONS)} only, and --systems "
                         "has none")
    systems = [system_option(name, args.rules if has_editions else None)
               for name, has_editions in zip(listed, plain, strict=True)]
    if len(set(systems)) != len(systems):
        raise _BadInput("--systems lists a system twice")
    names = [system for system, _edition in systems]
    specs = []
    for name, edition in systems:
        if name in EDITIONS:
            # The official Dutch has no vectorised path: the engine pairs every round, with
            # the edition asked for (labelled as the bot shows it, so tables never mix them).
            from swiss.sim.runner import EnginePairer

            label = name if edition == DEFAULT_EDITION else f"{name} ({edition} rules)"
            specs.append(SystemSpec(label, EnginePairer(name, args.beta, args.policy,
                                                        edition), fast=False))
        else:
            specs.append(SystemSpec(
                name, fast=not args.reference_engine and name in MWM_SYSTEMS))
    if args.external:
        if args.external_name in names:
            raise _BadInput(f"--external-name {args.external_name!r} clashes with a system")
        try:
            specs.append(SystemSpec(args.external_name, ExternalPairer(args.external), fast=False))
        except ValueError as exc:
            raise _BadInput(f"--external: {exc}") from None
    if not specs:
        raise _BadInput("nothing to simulate: give --systems or --external")
    return specs


def run(args: argparse.Namespace) -> int:
    """Run the experiment, print the table, write the files."""
    missing = missing_sim_packages(plots=bool(args.out))
    if missing:
        verb = "is" if len(missing) == 1 else "are"
        print(
            f"swissbot simulate: {' and '.join(missing)} {verb} not installed; the simulator "
            f"needs its optional extra: {SIM_EXTRA_HINT}",
            file=sys.stderr,
        )
        return EXIT_MISSING_EXTRA
    if args.teams is not None:
        from cli.simulation.teams import run_teams

        return run_teams(args)
    from cli.simulation.experiment import (
        ProgressBar,
        format_table,
        read_csv,
        run_experiment,
        summarize,
        write_csv,
        write_summary_csv,
    )

    try:
        config = _config(args)
        specs = _systems(args)
        jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
        baseline = None
        if args.baseline:
            try:
                baseline = read_csv(Path(args.baseline))
            except (OSError, KeyError, ValueError) as exc:
                raise _BadInput(f"--baseline {args.baseline}: cannot read it ({exc})") from None
        labels = tuple(part.strip() for part in args.labels.split(","))
        if len(labels) != 2:
            raise _BadInput("--labels needs two comma-separated labels")
    except _BadInput as exc:
        print(f"swissbot simulate: {exc}", file=sys.stderr)
        return EXIT_INVALID_INPUT

    progress = None if args.quiet else ProgressBar(sys.stderr)
    try:
        results = run_experiment(config, specs, args.tournaments, jobs=jobs, progress=progress)
    except PairingError as exc:
        print(f"\nswissbot simulate: pairing failed: {exc}", file=sys.stderr)
        return EXIT_NO_PAIRING
    summary = summarize(results)
    beta = f"{float(config.beta):g}"
    print(
        f"# {args.tournaments} tournaments per system, {config.players} players, "
        f"{config.rounds} rounds, beta {beta}, strengths {config.strengths.describe()}, "
        f"model {config.model.describe()}, tiebreaks {config.tiebreaks}, seed {config.seed}"
    )
    print(format_table(summary, markdown=args.markdown))
    if args.out:
        from cli.simulation.plots import plot_run

        out = Path(args.out)
        try:
            out.mkdir(parents=True, exist_ok=True)
            write_csv(results, out / "tournaments.csv")
            write_summary_csv(summary, out / "summary.csv")
            title = (f"{config.players} players, {config.rounds} rounds, beta {beta}, "
                     f"{args.tournaments} tournaments per system")
            plot_run(results, out, title=title, baseline=baseline,
                     labels=(labels[0], labels[1]))
        except OSError as exc:
            print(f"swissbot simulate: cannot write to {out}: {exc.strerror or exc}",
                  file=sys.stderr)
            return EXIT_INVALID_INPUT
    return EXIT_OK
