"""Benchmark the FIDE Swiss Team Pairing System (C.04.6): seconds per round for a big team
event, beside the reference of one second per round for 400 teams of 4 boards.

Plays a generated event (:mod:`swiss.teams.generate`) round by round with rating-drawn board
results, reading the TRF file each round as ``swissbot pair --system fide-team`` would, and
times the pairing alone: wall time, and the process's CPU time beside it (a loaded machine
inflates the wall time, not the CPU time). Run:

    .venv/bin/python benchmarks/team_pairing.py [--teams 400] [--boards 4] [--rounds 9]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time

from swiss.teams.fide_team import pair_fide_team
from swiss.teams.generate import RoundPlay, event_spec, play_round, write_trf
from swiss.teams.trf import parse_team_trf

REFERENCE_SECONDS = 1.0  # the goal for 400 teams of 4 boards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=400)
    parser.add_argument("--boards", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--variant", default="FIDE_TEAM_TYPEA_MP_GP",
                        help="the 192 tournament type (colour model and scores)")
    args = parser.parse_args()
    spec = dataclasses.replace(
        event_spec(1), teams=args.teams, boards=args.boards, rounds=args.rounds,
        code=args.variant,
        ratings=tuple(tuple(2700 - team - 10 * board for board in range(args.boards))
                      for team in range(args.teams)))
    played: list[RoundPlay] = []
    times, cpu_times = [], []
    for round_number in range(1, args.rounds + 1):
        event = parse_team_trf(write_trf(spec, played))
        start, cpu_start = time.perf_counter(), time.process_time()
        pairing = pair_fide_team(event.teams, event.rules, round_number, args.rounds)
        times.append(time.perf_counter() - start)
        cpu_times.append(time.process_time() - cpu_start)
        print(f"round {round_number}: {times[-1]:.2f} s wall, {cpu_times[-1]:.2f} s CPU")
        played.append(play_round(spec, round_number,
                                 [(p.white, p.black) for p in pairing.pairs], pairing.bye))
    print(f"{args.teams} teams x {args.boards} boards, {args.variant}: mean "
          f"{statistics.mean(times):.2f} s, worst {max(times):.2f} s wall per round; CPU mean "
          f"{statistics.mean(cpu_times):.2f} s, worst {max(cpu_times):.2f} s "
          f"(reference {REFERENCE_SECONDS:.1f} s per round)")


if __name__ == "__main__":
    main()
