"""``swissbot advise``: which pairing system suits an event of N players and R rounds?

Simulates the event with every pairing system for a few seconds (:mod:`swiss.sim.advisor`)
and prints a short table (ranking accuracy, chance the strongest player wins, clear winners,
floats, colour balance, rematches) and a recommendation in one sentence. ``--tournaments K``
plays exactly K events per system (the same numbers for any ``--jobs``); otherwise
``--seconds`` decides how many. Exit codes: 0 done, 2 bad input (with a message), 5 the
``sim`` extra (numpy) is not installed.

Like ``simulate``, this module imports the simulator only inside :func:`run`.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from fractions import Fraction
from typing import TYPE_CHECKING

from cli.exit_codes import EXIT_MISSING_EXTRA, EXIT_OK, EXIT_USAGE
from cli.simulate import MAX_PLAYERS, SIM_EXTRA_HINT, missing_sim_packages
from swiss.numbers import MAX_SEED, NumberError, parse_int, parse_real

if TYPE_CHECKING:
    from swiss.sim.advisor import AdviceRequest, Batch, BatchResult, BatchRunner

MAX_SECONDS = 3600
MAX_TOURNAMENTS = 100_000
MAX_JOBS = 256


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``advise`` sub-command."""
    parser = subparsers.add_parser(
        "advise",
        help="simulate an event with every pairing system and recommend one",
        description=(
            "Simulate an event of --players players and --rounds rounds with every pairing "
            "system for a few seconds and print, per system and with 95% intervals: ranking "
            "accuracy (mean Kendall tau, and its difference from the default system on the "
            "same simulated fields), how often the strongest player wins, how often one "
            "player is alone on the top score, floats per round, colour balance and forced "
            "rematches; then the recommended system (another than the default only when it "
            "ranks clearly better), whether more rounds are needed to find a clear winner, "
            "and whether ranking ties by rating would rank better than the FIDE tiebreaks."
        ),
    )
    parser.add_argument("--players", required=True, help="players in the event (2..4096)")
    parser.add_argument("--rounds", required=True, help="rounds (1..players - 1)")
    parser.add_argument("--scoring", default="chess", choices=("chess", "match"),
                        help="chess: 1/0.5/0; match: 3/1/0 (default: chess)")
    parser.add_argument(
        "--draw-rate", metavar="P",
        help="share of draws between equal players, 0 to below 1 (default: Milvang's chess "
             "model for chess, no draws for match scoring)",
    )
    parser.add_argument(
        "--strengths", default="uniform:1400:2200",
        help="true strengths: uniform:LO:HI, normal:MEAN:SD[:LO:HI] or exp:LO:HI:MEAN "
             "(default: uniform:1400:2200)",
    )
    parser.add_argument("--seconds", default="10",
                        help="time budget in seconds (default: 10); ignored with --tournaments")
    parser.add_argument("--tournaments", metavar="K",
                        help="simulate exactly K events per system (reproducible)")
    parser.add_argument("--seed", default="1", help="run seed (default: 1)")
    parser.add_argument("--jobs", default="1",
                        help="worker processes; 0 means one per core (default: 1)")
    parser.set_defaults(func=run)


class _BadInput(Exception):
    """An invalid option value (exit code 2)."""


def request_of(args: argparse.Namespace) -> tuple[AdviceRequest, int]:
    """The advisor's request and the number of worker processes, or :class:`_BadInput`."""
    from swiss.sim.advisor import AdviceRequest
    from swiss.sim.strengths import parse_strengths

    try:
        players = parse_int(args.players, "--players", low=2, high=MAX_PLAYERS)
        rounds = parse_int(args.rounds, "--rounds", low=1, high=MAX_PLAYERS - 1)
        seconds = parse_real(args.seconds, "--seconds", low=0, high=MAX_SECONDS)
        tournaments = (None if args.tournaments is None else
                       parse_int(args.tournaments, "--tournaments", low=1, high=MAX_TOURNAMENTS))
        seed = parse_int(args.seed, "--seed", low=0, high=MAX_SEED)
        jobs = parse_int(args.jobs, "--jobs", low=0, high=MAX_JOBS)
        draw_rate = (None if args.draw_rate is None else
                     parse_real(args.draw_rate, "--draw-rate", low=0, high=1))
    except NumberError as exc:
        raise _BadInput(exc.reason) from None
    if rounds >= players:
        raise _BadInput(f"--rounds must be below --players ({players}) so that nobody meets "
                        f"an opponent twice; got {rounds}")
    if seconds <= 0:
        raise _BadInput("--seconds must be more than 0")
    if draw_rate is not None and draw_rate >= 1:
        raise _BadInput("--draw-rate must be below 1 (some games must be decided)")
    try:
        strengths = parse_strengths(args.strengths)
        request = AdviceRequest(
            players=players, rounds=rounds, scoring=args.scoring, draw_rate=draw_rate,
            strengths=strengths, seed=seed, seconds=seconds, tournaments=tournaments,
            beta=Fraction(2),
        )
    except ValueError as exc:
        raise _BadInput(str(exc)) from None
    return request, jobs if jobs > 0 else (os.cpu_count() or 1)


@contextmanager
def batch_runner(jobs: int) -> Iterator[BatchRunner]:
    """Run the advisor's batches here (``jobs`` 1) or in a pool of worker processes."""
    from swiss.sim.advisor import play_batch, run_here

    if jobs <= 1:
        yield run_here
        return
    # fork: the workers start at once with the simulator already imported (no event loop or
    # threads run in this command-line process).
    with multiprocessing.get_context("fork").Pool(jobs) as pool:

        def run_in_pool(batches: Sequence[Batch]) -> Iterable[BatchResult]:
            return pool.imap_unordered(play_batch, batches)  # the advisor sorts by index

        yield run_in_pool


def run(args: argparse.Namespace) -> int:
    """Simulate, print the table and the recommendation."""
    missing = missing_sim_packages(plots=False)
    if missing:
        print(f"swissbot advise: {' and '.join(missing)} is not installed; the advisor needs "
              f"the simulator's optional extra: {SIM_EXTRA_HINT}", file=sys.stderr)
        return EXIT_MISSING_EXTRA
    from swiss.sim.advisor import TAU_MEANING, advise, describe, format_table, notes

    try:
        request, jobs = request_of(args)
    except _BadInput as exc:
        print(f"swissbot advise: {exc}", file=sys.stderr)
        return EXIT_USAGE
    with batch_runner(jobs) as runner:
        advice = advise(request, runner=runner, jobs=jobs)
    print(f"# {describe(advice)}")
    print(format_table(advice))
    for line in notes(advice):
        print(f"# {line}")
    print(f"# {TAU_MEANING}")
    print(advice.sentence)
    for extra in (advice.rounds_sentence, advice.tiebreak_sentence):
        if extra:
            print(extra)
    return EXIT_OK
