"""``swissbot pair``: pair the next round of a TRF file, printed like bbpPairings and JaVaFo.

Arbiters can run the same file through ``bbpPairings --dutch FILE.trf -p`` and compare the
output line by line. Exit codes: 0 paired, 1 no valid pairing exists, 3 invalid input (the file,
or an option value), 2 command-line usage (argparse).
"""

from __future__ import annotations

import argparse
import sys

from cli.exit_codes import EXIT_INVALID_INPUT, EXIT_NO_PAIRING, EXIT_OK
from cli.options import exact, whole
from cli.trf_file import UnreadableFile, read_trf_file, write_output
from swiss.numbers import MAX_SEED
from swiss.pairing import SYSTEMS, PairingConfig, PairingError, pair_round
from swiss.pairing.types import DUTCH_RULES, SCORE_TIERS
from swiss.trf import TrfError, format_pairs

POLICIES = ("avoid", "forbid")
MAX_BETA = 100  # colour differences never get near this; larger values mean "no bound" anyway
BACKENDS = ("auto", "rustworkx", "networkx")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``pair`` sub-command."""
    parser = subparsers.add_parser(
        "pair",
        help="pair the next round of a TRF file (bbpPairings/JaVaFo output format)",
        description=(
            "Pair the next round of the tournament in FILE.trf and print the pairs as "
            "bbpPairings and JaVaFo do: the number of pairs, then 'WHITE BLACK' per board, "
            "the pairing-allocated bye as 'ID 0' last. Exit codes: 0 paired, 1 no valid "
            "pairing exists, 2 usage, 3 invalid input."
        ),
    )
    parser.add_argument("file", metavar="FILE.trf", help="the tournament (FIDE TRF-16)")
    parser.add_argument(
        "--system", default="dutch", metavar="SYSTEM",
        help=f"pairing system: {', '.join(SYSTEMS)}, and for team events fide-team, "
             "esports-swiss (default: dutch)",
    )
    parser.add_argument(
        "--rules", default="2025", metavar="EDITION",
        help="fide-dutch only: the edition of FIDE C.04.3, 2025 or 2017 (default: 2025)",
    )
    parser.add_argument(
        "--beta", default="2",
        type=exact(low=0, high=MAX_BETA, low_open=True, decimals=6, ratios=True),
        help="colour bound: the largest allowed colour difference; fractions such as 0.1 "
             "mean strict alternation (default: 2)",
    )
    parser.add_argument(
        "--policy", default="avoid", metavar="POLICY",
        help="rematches, second byes and colour differences beyond --beta: 'avoid' (only when "
             "nothing else is possible) or 'forbid' (never; exit 1 if no pairing exists) "
             "(default: avoid)",
    )
    parser.add_argument(
        "--score-tier", default="lexicographic", metavar="TIER",
        help="how the score tier compares pairings: lexicographic (fewest pairs at the largest "
             "score difference first, as the FIDE criteria do) or paper (the sum of the score "
             "differences, the paper's rule, for reproducing it) (default: lexicographic)",
    )
    parser.add_argument(
        "--seed", default=None, metavar="N", type=whole(0, MAX_SEED),
        help="seed for the random systems, the round-1 colour coin and ties (default: the "
             "event seed swissbot stored in the file, otherwise 0)",
    )
    parser.add_argument(
        "--backend", default="auto", metavar="BACKEND",
        help=f"matching library: {', '.join(BACKENDS)} (default: auto)",
    )
    parser.add_argument(
        "--wins", default="3", metavar="N",
        help="esports-swiss only: wins that advance a team and losses that eliminate it "
             "(default: 3)",
    )
    parser.add_argument("-o", "--output", metavar="OUT",
                        help="write the pairs to OUT instead of standard output")
    parser.add_argument("--explain", action="store_true",
                        help="print each pair's weight components to standard error")
    parser.set_defaults(func=run)


class _BadInput(Exception):
    """An invalid option value or file (exit code 3)."""


def _config(args: argparse.Namespace, event_seed: int) -> PairingConfig:
    if args.system not in SYSTEMS:
        raise _BadInput(f"unknown pairing system {args.system!r}; choose one of "
                        f"{', '.join(SYSTEMS)}")
    if args.policy not in POLICIES:
        raise _BadInput(f"unknown --policy {args.policy!r}; use 'avoid' or 'forbid'")
    if args.backend not in BACKENDS:
        raise _BadInput(f"unknown --backend {args.backend!r}; choose one of "
                        f"{', '.join(BACKENDS)}")
    beta = args.beta  # read by argparse (cli.options): exit 2 naming the option
    seed = event_seed if args.seed is None else args.seed
    if args.rules not in DUTCH_RULES:
        raise _BadInput(f"unknown --rules {args.rules!r}; use {' or '.join(DUTCH_RULES)}")
    if args.score_tier not in SCORE_TIERS:
        raise _BadInput(f"unknown --score-tier {args.score_tier!r}; use "
                        f"{' or '.join(SCORE_TIERS)}")
    return PairingConfig(system=args.system, beta=beta, policy=args.policy,
                         backend=args.backend, seed=seed, rules=args.rules,
                         explain=args.explain, score_tier=args.score_tier)


def run(args: argparse.Namespace) -> int:
    """Pair the next round; the exit code says how it went."""
    from cli.pair_teams import TEAM_SYSTEMS, run_team_system

    if args.system in TEAM_SYSTEMS:
        return run_team_system(args)
    try:
        trf = read_trf_file(args.file)
        tournament = trf.tournament
        config = _config(args, tournament.seed)
        if tournament.total_rounds and tournament.next_round > tournament.total_rounds:
            played = ("the only round has" if tournament.total_rounds == 1 else
                      f"all {tournament.total_rounds} rounds have")
            raise TrfError(f"{played} been played (XXR "
                           f"{tournament.total_rounds}); there is no round to pair",
                           trf.total_rounds_line, 5)
        result = pair_round(tournament, config, states=trf.states)
    except UnreadableFile as exc:
        print(f"swissbot pair: {exc}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    except TrfError as exc:
        print(f"swissbot pair: {args.file}: {exc}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    except _BadInput as exc:
        print(f"swissbot pair: {exc}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    except PairingError as exc:
        print(f"swissbot pair: no valid pairing: {exc}", file=sys.stderr)
        return EXIT_NO_PAIRING
    except ValueError as exc:  # the engine refusing this tournament state
        print(f"swissbot pair: {args.file}: {exc}", file=sys.stderr)
        return EXIT_INVALID_INPUT

    if args.explain:
        for explanation in result.explanations:
            print(explanation.describe(), file=sys.stderr)
    text = format_pairs(result)
    if not write_output("pair", args.output, text):
        return EXIT_INVALID_INPUT
    return EXIT_OK
