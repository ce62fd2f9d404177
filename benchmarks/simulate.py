"""Simulator speed: tournaments per second per core, 32 players and 7 rounds, per system.

Run: ``.venv/bin/python benchmarks/simulate.py [--tournaments N] [--reference N]``.

One process, so the figures are per core; CPU time is reported beside wall time because the
machine may be shared. Three set-ups per system:

* ``full``: what ``swissbot simulate`` does by default (vectorised pairing, the normalized
  strength difference, FIDE tiebreaks for the final ranking);
* ``no nsd``: without the normalized strength difference (one matching less per round);
* ``reference``: every round through ``swiss.pairing.pair_round`` (the engine's own path).
"""

from __future__ import annotations

import argparse
import time

from swiss.sim.runner import SimulationConfig, play_tournament

SYSTEMS = ("burstein", "random2", "dutch", "random", "monrad")


def measure(config: SimulationConfig, system: str, count: int, fast: bool) -> tuple[float, float]:
    """(tournaments per wall second, tournaments per CPU second)."""
    play_tournament(config, system, 10**6, fast=fast)  # warm-up: imports, caches
    wall, cpu = time.perf_counter(), time.process_time()
    for k in range(count):
        play_tournament(config, system, k, fast=fast)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return count / wall, count / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=200, help="per system (default 200)")
    parser.add_argument("--reference", type=int, default=20,
                        help="tournaments per system for the reference engine path (default 20; "
                             "0 skips it)")
    args = parser.parse_args()
    full = SimulationConfig(players=32, rounds=7)
    lean = SimulationConfig(players=32, rounds=7, strength_difference=False)
    print("tournaments per second on one core, 32 players, 7 rounds (wall / CPU)")
    print(f"{'system':10} {'full':>17} {'no nsd':>17} {'reference':>17}")
    totals = [0.0, 0.0, 0.0]
    for system in SYSTEMS:
        cells = []
        for i, (config, count, fast) in enumerate(
            ((full, args.tournaments, True), (lean, args.tournaments, True),
             (full, args.reference, False))
        ):
            if count <= 0:
                cells.append(f"{'-':>17}")
                continue
            wall, cpu = measure(config, system, count, fast)
            totals[i] += 1 / cpu
            cells.append(f"{wall:7.1f} / {cpu:7.1f}")
        print(f"{system:10} " + " ".join(cells), flush=True)
    mean_full = len(SYSTEMS) / totals[0]
    print(f"\nmean over the systems (full, CPU): {mean_full:.1f} tournaments/s/core; "
          f"100,000 tournaments take {100_000 / mean_full / 60:.1f} CPU minutes, "
          f"{100_000 / mean_full / 120:.1f} minutes on 2 cores")


if __name__ == "__main__":
    main()
