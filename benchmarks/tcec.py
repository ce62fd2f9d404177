"""Benchmark the TCEC Swiss pairing: seconds per round for 50 players over 25 rounds, and
big fields (1,000 and 9,999 players: round 1 and round 6) beside their reference.

Every round re-derives the encounter history from the stored rounds (one viability check per
earlier round, more when rounds were removed), so the cost per round grows with the round
number; the figures show the first, the last and the mean round. The big fields show each of
rounds 1-6 paired one after the other (the bot: earlier replays remembered) and round 6 again
from nothing (``swissbot pair``: a fresh process replays rounds 1-5). Run:

    .venv/bin/python benchmarks/tcec.py [--players 50] [--rounds 25] [--events 3]
                                        [--big 1000,9999]
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import time

from swiss.model import Player, Result, Round, Tournament
from swiss.pairing import PairingConfig, pair_round, tcec
from swiss.pairing.tcec import encounter_history

RESULTS = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)
# Before the viability questions were answered by one graph per history and warm-started
# searches (a fresh rustworkx matching per question): `swissbot pair --system tcec` on a
# valid round 1.
REFERENCE = {1000: "43 s", 2000: "over 300 s and 740 MB"}
BIG_ROUNDS = 6


def big_field(players: int) -> None:
    """Rounds 1..BIG_ROUNDS of one event of ``players`` (random results), then the last
    round again with the replays forgotten; seconds per round and the peak memory."""
    rng = random.Random(players)
    t = Tournament(players=tuple(Player(i, f"E{i}", rating=rng.randint(1000, 2800))
                                 for i in range(1, players + 1)))
    config = PairingConfig(system="tcec")
    times = []
    for _ in range(BIG_ROUNDS):
        start = time.perf_counter()
        pairing = pair_round(t, config)
        times.append(time.perf_counter() - start)
        if len(times) < BIG_ROUNDS:
            games = tuple(g.with_result(rng.choice(RESULTS)) for g in pairing.games)
            t = t.with_round(Round(pairing.round_number, games, pairing.byes))
    tcec._REPLAYS.clear()  # what a fresh process (swissbot pair) does: replay rounds 1-5
    start = time.perf_counter()
    pair_round(t, config)
    fresh = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rounds = "  ".join(f"r{i} {x:.2f}" for i, x in enumerate(times, start=1))
    print(f"{players:,} players, s/round: {rounds}  round {BIG_ROUNDS} from nothing "
          f"{fresh:.2f}  peak {peak:.0f} MB (process so far)  reference round 1: "
          f"{REFERENCE.get(players, 'not run (far beyond 2,000)')}")


def run_event(players: int, rounds: int, config: PairingConfig, seed: int
              ) -> tuple[list[float], int]:
    """Play one event with random results; return seconds per round and history removals."""
    rng = random.Random(seed)
    t = Tournament(players=tuple(Player(i, f"E{i}") for i in range(1, players + 1)))
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        pairing = pair_round(t, config)
        times.append(time.perf_counter() - start)
        games = tuple(g.with_result(rng.choice(RESULTS)) for g in pairing.games)
        t = t.with_round(Round(pairing.round_number, games, pairing.byes))
    return times, len(encounter_history(t).removals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=25)
    parser.add_argument("--events", type=int, default=3)
    parser.add_argument("--small", type=int, default=10,
                        help="also a small field over the same rounds (history removals)")
    parser.add_argument("--big", default="1000,9999",
                        help="big fields, comma-separated ('' for none)")
    args = parser.parse_args()
    for players in (int(x) for x in args.big.split(",") if x.strip()):
        big_field(players)
    cases = [
        ("single, exact", PairingConfig(system="tcec")),  # the default (auto)
        ("double, exact", PairingConfig(system="tcec", double_rounds=True)),
        ("single, rustworkx", PairingConfig(system="tcec", backend="rustworkx")),
        ("single, networkx", PairingConfig(system="tcec", backend="networkx")),
    ]
    for players in sorted({args.players, args.players + 1, args.small}, reverse=True):
        print(f"{players} players x {args.rounds} rounds, {args.events} events each")
        for label, config in cases:
            per_round: list[list[float]] = []
            removals = []
            for seed in range(args.events):
                times, removed = run_event(players, args.rounds, config, seed)
                per_round.append(times)
                removals.append(removed)
            flat = [x for times in per_round for x in times]
            first = statistics.mean(times[0] for times in per_round)
            last = statistics.mean(times[-1] for times in per_round)
            print(
                f"  {label:18s} s/round: mean {statistics.mean(flat):.4f}  "
                f"round 1 {first:.4f}  round {args.rounds} {last:.4f}  max {max(flat):.4f}  "
                f"event total {sum(flat) / args.events:.2f}  history removals {removals}"
            )


if __name__ == "__main__":
    main()
