"""Seconds per round of the MWM engine for both matching backends (a figure, not a test).

A late, dense round: the history of ``--history`` rounds is made by a cheap greedy Swiss (no
rematches, random results with draws), then round ``history + 1`` is paired by the real engine,
timing graph building and matching together, as the bot would.

    python benchmarks/pairing.py                  # n = 32, 128, 512, 1000, both backends
    python benchmarks/pairing.py --sizes 32,128 --backends rustworkx
"""

from __future__ import annotations

import argparse
import random
import time

from swiss.model import Game, Player, Result, Round, Tournament
from swiss.pairing import PairingConfig, pair_round
from swiss.state import player_states


def greedy_history(n: int, rounds: int, seed: int) -> Tournament:
    rng = random.Random(seed)
    players = tuple(Player(i, f"P{i}", 2600 - i) for i in range(1, n + 1))
    t = Tournament(players=players, total_rounds=rounds + 1)
    results = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)
    for number in range(1, rounds + 1):
        states = player_states(t)
        order = sorted(range(1, n + 1), key=lambda p: (-states[p].score, p))
        free = list(order)
        games = []
        while len(free) >= 2:
            a = free.pop(0)
            partner = next((b for b in free if not states[a].times_met(b)), free[0])
            free.remove(partner)
            white, black = (a, partner) if states[a].color_diff <= states[partner].color_diff \
                else (partner, a)
            games.append(Game(white, black, rng.choice(results), board=len(games) + 1))
        t = t.with_round(Round(number, tuple(games)))
    return t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="32,128,512,1000")
    parser.add_argument("--backends", default="rustworkx,networkx")
    parser.add_argument("--system", default="burstein")
    parser.add_argument("--history", type=int, default=6, help="rounds played before")
    parser.add_argument("--repeat", type=int, default=3, help="timings per size (median)")
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    backends = args.backends.split(",")
    print(f"system={args.system}, round {args.history + 1} after {args.history} rounds")
    print(f"{'n':>6} {'edges':>9} " + " ".join(f"{b + ' s/round':>18}" for b in backends))
    for n in sizes:
        t = greedy_history(n, args.history, seed=n)
        cells = []
        edges = 0
        for backend in backends:
            config = PairingConfig(system=args.system, backend=backend)  # type: ignore[arg-type]
            repeat = 1 if (backend == "networkx" and n >= 512) else args.repeat
            times = []
            for _ in range(repeat):
                start = time.perf_counter()
                result = pair_round(t, config)
                times.append(time.perf_counter() - start)
            times.sort()
            cells.append(f"{times[len(times) // 2]:>18.4f}")
            edges = n * (n - 1) // 2 - n * args.history // 2
            assert len(result.games) == n // 2
        print(f"{n:>6} {edges:>9} " + " ".join(cells), flush=True)


if __name__ == "__main__":
    main()
