"""Benchmark the TCEC Swiss pairing: seconds per round for 50 players over 25 rounds.

Every round re-derives the encounter history from the stored rounds (one viability check per
earlier round, more when rounds were removed), so the cost per round grows with the round
number; the figures show the first, the last and the mean round. Run:

    .venv/bin/python benchmarks/tcec.py [--players 50] [--rounds 25] [--events 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from swiss.model import Player, Result, Round, Tournament
from swiss.pairing import PairingConfig, pair_round
from swiss.pairing.tcec import encounter_history

RESULTS = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)


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
    args = parser.parse_args()
    cases = [
        ("single, rustworkx", PairingConfig(system="tcec")),
        ("double, rustworkx", PairingConfig(system="tcec", double_rounds=True)),
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
