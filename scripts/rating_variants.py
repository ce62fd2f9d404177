"""Burstein against rating-aware system terms on the same fields (docs/simulation.md).

Plays tournaments ``--start`` .. ``--start + --tournaments - 1`` (seed 1: the same fields of
players for every variant) with Burstein and with each variant, and prints per variant the mean
Kendall tau, and against Burstein, tournament by tournament (paired), the differences of Kendall
tau, float pairs, the colour difference after the last even round and the repeated colours
(a player given the same colour as in his previous game), each as mean and 95 % interval.
``--csv FILE`` also writes one row per tournament and variant, so that runs split over several
processes can be pooled (``--pool FILE ...``).

Variants (every tier above the system term stays Burstein's: repeats, colour bound, bye,
score difference, colour):

* ``rating-gap`` -- the registered system: pi = gap * (E(gap) - 1/2) on the ratings;
* ``truth-gap`` -- the same term on the true strengths (an oracle: an upper bound);
* ``posterior-gap:SD`` -- the term on the posterior strength estimate after each round
  (prior: the rating with standard deviation SD; :mod:`swiss.pairing.posterior`);
* ``linear-gap`` -- pi = |gap| on the ratings (not convex);
* ``power:P`` -- pi = |gap| ** P on the ratings (P = 2: the squared gap);
* ``smooth-gap:SD`` -- the rating-gap term averaged over N(0, SD) noise on the gap (what the
  term is worth in expectation when both ratings are off by the simulator's Elo noise).

    nice .venv/bin/python scripts/rating_variants.py --tournaments 500 --players 32 --rounds 7 \\
        --variants rating-gap,truth-gap
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from swiss.pairing.rating_gap import gap_benefit
from swiss.sim import fastpair, runner
from swiss.sim.measures import mean_ci95
from swiss.sim.runner import SimulationConfig, play_tournament
from swiss.sim.strengths import parse_strengths

_original_fast_pairs = runner._fast_pairs
_original_make_players = runner.make_players
_TRUTH: dict[int, float] = {}  # the current tournament's true strengths, by player id
VARIANT = ""


def _make_players(config, index):  # type: ignore[no-untyped-def]
    players, strength = _original_make_players(config, index)
    _TRUTH.clear()
    _TRUTH.update(strength)
    return players, strength


def _pi(state: fastpair.PlainState) -> np.ndarray | None:
    """The variant's system term (n x n, by player index), None for Burstein's own."""
    name, _, arg = VARIANT.partition(":")
    if name == "truth-gap":
        r = np.array([_TRUTH[i + 1] for i in range(state.n)])
    elif name == "posterior-gap":
        r = fastpair.plain_estimates(state, rated_sd=float(arg or 60))
    elif name == "linear-gap":
        r = state.ratings.astype(np.float64)  # type: ignore[union-attr]
        return np.rint(np.abs(r[:, None] - r[None, :]) * 10).astype(np.int64)
    elif name == "power":
        r = state.ratings.astype(np.float64)  # type: ignore[union-attr]
        gap = np.abs(r[:, None] - r[None, :]) / 100.0
        return np.rint(gap ** float(arg) * 1000).astype(np.int64)
    elif name == "smooth-gap":
        # the term's expectation when the observed gap is the true one plus N(0, SD) noise
        r = state.ratings.astype(np.float64)  # type: ignore[union-attr]
        nodes, weights = np.polynomial.hermite_e.hermegauss(24)
        gap = np.abs(r[:, None] - r[None, :])
        total = sum(w * gap_benefit(gap + float(arg) * x)
                    for x, w in zip(nodes, weights, strict=True))
        return np.rint(total / weights.sum()).astype(np.int64)
    else:
        return None
    return gap_benefit(r[:, None] - r[None, :])


def _fast_pairs(plain, number, system, config, seed, initial):  # type: ignore[no-untyped-def]
    if plain is None or system != "burstein" or not VARIANT:
        return _original_fast_pairs(plain, number, system, config, seed, initial)
    pi = _pi(plain)
    return fastpair.pair_plain(
        plain, number, system, beta=config.beta, policy=config.policy, seed=seed,
        initial_color=initial, pi=pi, score_tier=config.score_tier,
    )


def _repeated_colours(tournament) -> int:  # type: ignore[no-untyped-def]
    last: dict[int, int] = {}
    repeats = 0
    for rnd in tournament.rounds:
        for g in rnd.games:
            for player, colour in ((g.white, 1), (g.black, -1)):
                repeats += last.get(player) == colour
                last[player] = colour
    return repeats


def play(config: SimulationConfig, variant: str, index: int) -> dict[str, float]:
    global VARIANT
    system = "rating-gap" if variant == "rating-gap" else "burstein"
    VARIANT = "" if variant in ("burstein", "rating-gap") else variant
    played = play_tournament(config, system, index)
    m = played.measures
    even = len(m.acd) - (len(m.acd) % 2) - 1
    return {
        "tau": m.kendall_tau, "floats": m.float_pairs,
        "acd": m.acd[even] if even >= 0 else 0, "repeated": _repeated_colours(played.tournament),
    }


def report(rows: list[dict[str, str]], variants: list[str]) -> None:
    by = {(r["variant"], int(r["index"])): r for r in rows}
    base = {i: r for (v, i), r in by.items() if v == "burstein"}
    print("variant | N | Kendall tau | tau - burstein | floats - burstein | acd - burstein | "
          "repeated colours - burstein")
    for v in variants:
        common = sorted(i for (w, i) in by if w == v and i in base)
        if not common:
            continue
        tau, tau_h = mean_ci95([float(by[(v, i)]["tau"]) for i in common])
        cells = [v, str(len(common)), f"{tau:.4f} ± {tau_h:.4f}"]
        for key in ("tau", "floats", "acd", "repeated"):
            diffs = [float(by[(v, i)][key]) - float(base[i][key]) for i in common]
            mean, half = mean_ci95(diffs)
            digits = 4 if key == "tau" else 2
            cells.append(f"{mean:+.{digits}f} ± {_or(half):.{digits}f}")
        print(" | ".join(cells))


def _or(x: float) -> float:
    return 0.0 if math.isnan(x) else x


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--strengths", default="uniform:1400:2200")
    parser.add_argument("--elo-sd", type=float, default=None,
                        help="rating noise SD for everybody (default: the paper's)")
    parser.add_argument("--score-tier", default="lexicographic")
    parser.add_argument("--tournaments", type=int, default=200)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--variants", default="rating-gap")
    parser.add_argument("--csv", help="write one row per tournament and variant")
    parser.add_argument("--pool", nargs="*", help="only report these CSV files, pooled")
    args = parser.parse_args()
    variants = ["burstein", *[v for v in args.variants.split(",") if v and v != "burstein"]]
    if args.pool:
        rows = []
        for name in args.pool:
            with open(name, newline="") as f:
                rows += list(csv.DictReader(f))
        report(rows, variants)
        return 0
    runner._fast_pairs = _fast_pairs
    runner.make_players = _make_players
    config = SimulationConfig(
        players=args.players, rounds=args.rounds, strengths=parse_strengths(args.strengths),
        strength_difference=False, score_tier=args.score_tier, elo_sd=args.elo_sd,
    )
    rows = []
    began = time.process_time()
    for k in range(args.start, args.start + args.tournaments):
        for v in variants:
            rows.append({"variant": v, "index": str(k),
                         **{key: str(x) for key, x in play(config, v, k).items()}})
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    report(rows, variants)
    print(f"# {time.process_time() - began:.0f} CPU s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
