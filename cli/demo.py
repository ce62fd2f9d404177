"""``swissbot demo``: a whole tournament in the local Discord sandbox, printed as it happens."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING, Any

from cli.exit_codes import EXIT_INVALID_INPUT, EXIT_OK
from cli.options import UsageError, system_option, whole
from swiss.numbers import MAX_SEED
from swiss.pairing.names import EDITIONS
from swiss.pairing.types import DUTCH_RULES, SYSTEMS
from swiss.wording import plural

if TYPE_CHECKING:
    from cli.demo_tournament import DemoResult

EXIT_DEMO_FAILED = 1
#: ``--system all``: one tournament with every system in turn.
ALL = "all"
#: Lines of the bot's log printed when it logged problems (the rest are counted).
MAX_ERRORS_SHOWN = 40
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
    parser.add_argument("--system", default="burstein", metavar="SYSTEM",
                        help=f"pairing system: {', '.join(SYSTEMS)}, or 'all' for one "
                        "tournament with each in turn (default: burstein)")
    parser.add_argument("--rules", default=None, metavar="EDITION",
                        help=f"fide-dutch only: the edition of FIDE C.04.3, "
                        f"{' or '.join(DUTCH_RULES)} (default: {DUTCH_RULES[0]})")
    parser.add_argument("--seed", type=whole(0, MAX_SEED), default=1,
                        help="random seed for ratings and games (0..2^63-1)")
    parser.add_argument(
        "--show-private", action="store_true", help="also print ephemeral (private) replies"
    )
    parser.add_argument(
        "--lichess", action="store_true",
        help="play the event on a fake Lichess: the members link their accounts, each "
             "board's game is made there and its result read from it (nobody reports)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.system.strip().lower() == ALL:
        if args.rules is not None:
            raise UsageError("--rules names one system's edition; with --system all each "
                             "system plays by its default")
        systems = [(system, None) for system in SYSTEMS]
    else:
        system, edition = system_option(args.system, args.rules)
        systems = [(system, edition if system in EDITIONS else None)]
    if args.rounds >= args.players:
        print("swissbot demo: --rounds must be smaller than --players (everyone needs new "
              "opponents)", file=sys.stderr)
        return EXIT_INVALID_INPUT

    from bot.logs import configure_logging
    from cli.demo_tournament import run_demo

    configure_logging("WARNING")
    for system, rules in systems:
        result = asyncio.run(
            _demo(run_demo, lichess=args.lichess, players=args.players, rounds=args.rounds,
                  system=system, rules=rules, seed=args.seed, out=sys.stdout,
                  show_private=args.show_private))
        if not _reported(result):
            return EXIT_DEMO_FAILED
    return EXIT_OK


async def _demo(run_demo: Any, *, lichess: bool, **options: Any) -> DemoResult:
    """The demo, with a fake Lichess running beside the sandbox when asked."""
    if not lichess:
        return await run_demo(**options)  # type: ignore[no-any-return]
    from functools import partial

    from cli.demo_lichess import LichessPlay
    from sandbox.lichess import FakeLichess

    server = await FakeLichess().start()
    try:
        return await run_demo(  # type: ignore[no-any-return]
            play_as=partial(LichessPlay, lichess=server),
            environment={"SWISSBOT_LICHESS_URL": server.url}, **options)
    finally:
        await server.stop()


def _reported(result: DemoResult) -> bool:
    """Print the demo's summary; False when it failed (a step, an error, a late heartbeat)."""
    if result.timings:
        print("\nTimings (wall clock, this machine):")
        for what, seconds in result.timings:
            print(f"  {what:44} {seconds:8.2f} s")
    if result.failure is not None:
        print(f"swissbot demo: stopped: {result.failure}", file=sys.stderr)
    else:
        print(
            f"\nDone: {result.players} players, {plural(result.rounds, 'round')} in "
            f"{result.seconds:.1f} s ({result.messages} messages, {result.requests} requests "
            f"to the sandbox; the bot's heartbeat at most {result.heartbeat_lag:.2f} s late)."
        )
    if result.errors:
        print("swissbot demo: the bot logged problems:", file=sys.stderr)
        for error in result.errors[:MAX_ERRORS_SHOWN]:
            print(f"  {error}", file=sys.stderr)
        if len(result.errors) > MAX_ERRORS_SHOWN:
            print(f"  ... and {len(result.errors) - MAX_ERRORS_SHOWN:,} more lines",
                  file=sys.stderr)
    if result.exit_code != 0:
        print(f"swissbot demo: the bot did not stop cleanly (exit code {result.exit_code})",
              file=sys.stderr)
    return result.failure is None and not result.errors and result.exit_code == 0
