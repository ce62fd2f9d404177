"""``swissbot pair``: pair the next round of a TRF file, printed like bbpPairings and JaVaFo.

Arbiters can run the same file through ``bbpPairings --dutch FILE.trf -p`` and compare the
output line by line. Exit codes: 0 paired, 1 no valid pairing exists, 3 invalid input (the file,
or an option value), 2 command-line usage (argparse).
"""

from __future__ import annotations

import argparse
import sys

from cli.exit_codes import EXIT_INVALID_INPUT, EXIT_NO_PAIRING, EXIT_OK
from cli.options import UsageError, exact, system_option, whole
from cli.pair_teams import MAX_WINS
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
            "the pairing-allocated bye as 'ID 0' last. The default system is the official "
            "FIDE Dutch (fide-dutch, 2025 rules), which bbpPairings --dutch and JaVaFo pair "
            "too. Exit codes: 0 paired, 1 no valid pairing exists, 2 usage (an unknown "
            "option or option value), 3 invalid input (the file)."
        ),
    )
    parser.add_argument("file", metavar="FILE.trf", help="the tournament (FIDE TRF-16)")
    parser.add_argument(
        "--system", default="fide-dutch", metavar="SYSTEM",
        help=f"pairing system: {', '.join(SYSTEMS)}, and for team events fide-team, "
             "esports-swiss (default: fide-dutch, the official FIDE Dutch)",
    )
    parser.add_argument(
        "--rules", default=None, metavar="EDITION",
        help=f"fide-dutch only: the edition of FIDE C.04.3, {' or '.join(DUTCH_RULES)} "
             f"(default: {DUTCH_RULES[0]}); refused with another system",
    )
    parser.add_argument(
        "--beta", default="2",
        type=exact(low=0, high=MAX_BETA, low_open=True, decimals=6, ratios=True),
        help="colour bound: the largest allowed colour difference; fractions such as 0.1 "
             "mean strict alternation (default: 2)",
    )
    parser.add_argument(
        "--policy", default="avoid", metavar="POLICY", choices=POLICIES,
        help="rematches, second byes and colour differences beyond --beta: 'avoid' (only when "
             "nothing else is possible) or 'forbid' (never; exit 1 if no pairing exists) "
             "(default: avoid)",
    )
    parser.add_argument(
        "--score-tier", default="lexicographic", metavar="TIER", choices=SCORE_TIERS,
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
        "--backend", default="auto", metavar="BACKEND", choices=BACKENDS,
        help=f"matching library: {', '.join(BACKENDS)} (default: auto)",
    )
    parser.add_argument(
        "--wins", default=None, metavar="N", type=whole(1, MAX_WINS),
        help="esports-swiss only: wins that advance a team and losses that eliminate it "
             "(default: 3)",
    )
    parser.add_argument("-o", "--output", metavar="OUT",
                        help="write the pairs to OUT instead of standard output ('-': "
                             "standard output)")
    parser.add_argument("--explain", action="store_true",
                        help="print each pair's weight components to standard error")
    parser.set_defaults(func=run)


def _config(args: argparse.Namespace, event_seed: int) -> PairingConfig:
    """The pairing asked for (the option values were checked by :func:`_system`)."""
    seed = event_seed if args.seed is None else args.seed
    return PairingConfig(system=args.system, beta=args.beta, policy=args.policy,
                         backend=args.backend, seed=seed, rules=args.rules,
                         explain=args.explain, score_tier=args.score_tier)


def _check_options(args: argparse.Namespace) -> None:
    """``--system`` and ``--rules`` read together (one of ours, an earlier spelling such as
    fide-dutch-2017 too); a mistake is a usage error (exit 2), before the file is read."""
    from cli.pair_teams import TEAM_SYSTEMS

    args.system, args.rules = system_option(args.system, args.rules,
                                            systems=SYSTEMS + TEAM_SYSTEMS)
    if args.wins is not None and args.system != "esports-swiss":
        raise UsageError(f"--wins applies to --system esports-swiss only, not {args.system}")


def run(args: argparse.Namespace) -> int:
    """Pair the next round; the exit code says how it went."""
    from cli.pair_teams import TEAM_SYSTEMS, run_team_system

    _check_options(args)
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
