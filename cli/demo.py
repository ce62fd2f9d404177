"""``swissbot demo``: a whole tournament in the local Discord sandbox, printed as it happens."""

from __future__ import annotations

import argparse
import asyncio
import sys

from cli.exit_codes import EXIT_INVALID_INPUT, EXIT_OK
from cli.options import whole
from swiss.numbers import MAX_SEED
from swiss.pairing.types import SYSTEMS

EXIT_DEMO_FAILED = 1
#: The largest demo (the bot's own limit is SWISSBOT_MAX_PLAYERS, 9,999 by default; a demo
#: of more would mostly measure the sandbox answering tens of thousands of commands).
MAX_DEMO_PLAYERS = 5000
MAX_DEMO_ROUNDS = 20
#: Above this many players the demo prints its timings instead of the whole channel.
BIG_DEMO = 200


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "demo",
        help="watch the bot run a tournament in a local Discord sandbox (no token needed)",
        description="Run the real bot against the local Discord sandbox: simulated members "
        "join, play (Milvang's outcome model), report and confirm; the channel is printed "
        "as it happens. No token, no network.",
    )
    parser.add_argument("--players", type=whole(2, MAX_DEMO_PLAYERS), default=12,
                        help=f"members who join (default 12; up to {MAX_DEMO_PLAYERS:,}; above "
                        f"{BIG_DEMO:,} the channel is not printed, the timings are)")
    parser.add_argument("--rounds", type=whole(1, MAX_DEMO_ROUNDS), default=4,
                        help=f"rounds (default 4; up to {MAX_DEMO_ROUNDS})")
    parser.add_argument("--system", default="burstein", help=f"one of {', '.join(SYSTEMS)}")
    parser.add_argument("--seed", type=whole(0, MAX_SEED), default=1,
                        help="random seed for ratings and games (0..2^63-1)")
    parser.add_argument(
        "--show-private", action="store_true", help="also print ephemeral (private) replies"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    problems = []
    if args.system not in SYSTEMS:
        problems.append(f"--system must be one of {', '.join(SYSTEMS)}, got {args.system!r}")
    if not problems and args.rounds >= args.players:
        problems.append("--rounds must be smaller than --players (everyone needs new opponents)")
    if problems:
        for problem in problems:
            print(f"swissbot demo: {problem}", file=sys.stderr)
        return EXIT_INVALID_INPUT

    from bot.logs import configure_logging
    from cli.demo_tournament import run_demo

    configure_logging("WARNING")
    result = asyncio.run(
        run_demo(
            players=args.players,
            rounds=args.rounds,
            system=args.system,
            seed=args.seed,
            out=sys.stdout,
            show_private=args.show_private,
        )
    )
    if result.timings:
        print("\nTimings (wall clock, this machine):")
        for what, seconds in result.timings:
            print(f"  {what:44} {seconds:8.2f} s")
    print(
        f"\nDone: {result.players} players, {result.rounds} rounds in {result.seconds:.1f} s "
        f"({result.messages} messages, {result.requests} requests to the sandbox)."
    )
    if result.errors:
        print("swissbot demo: errors were logged:", file=sys.stderr)
        for error in result.errors:
            print(f"  {error}", file=sys.stderr)
        return EXIT_DEMO_FAILED
    return EXIT_OK
