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
* ``rating-gap:shared`` -- the registered term, played on Burstein's random results (common
  random numbers: the registered ``rating-gap`` draws its own, which only adds noise);
* ``fam:SRC/SD/SCALE`` -- gap * (E(gap) - 1/2) with the Elo curve's scale 400 * SCALE, averaged
  over N(0, SD) noise on the gap, on SRC: ``r`` the ratings, ``t`` the true strengths;
* ``post:PRIOR/SCALE/SD`` -- the term on the posterior estimate after each round, prior SD
  PRIOR (``h``: the paper's (3000 - r) / 20 per player), results read on an Elo curve of scale
  SCALE (about 550 matches Milvang's flatter curve: 0.696 at a 200-point gap), smoothed by SD;
* ``smooth-het`` -- the term averaged over each pair's own rating noise, (3000 - r) / 20 each;
* ``post-smooth:PRIOR/SD`` -- the posterior (curve 400) with the term smoothed by SD;
* ``noisy-truth:SD`` -- the term on the true strengths plus N(0, SD) noise drawn once per
  tournament (how good the ratings would have to be for a given gain);
* ``no-repeat`` -- the registered term below a tier that avoids repeated colours;
* ``rank-cert`` -- the certainty E(gap) - 1/2 times the distance in start numbers;
* ``scaled:K`` -- the term with the Elo curve's scale 400 * K.

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

from swiss.pairing.rating_gap import gap_benefit, gap_matrix
from swiss.sim import fastpair, runner
from swiss.sim.measures import mean_ci95
from swiss.sim.runner import SimulationConfig, play_tournament
from swiss.sim.strengths import parse_strengths

_original_fast_pairs = runner._fast_pairs
_original_make_players = runner.make_players
_TRUTH: dict[int, float] = {}  # the current tournament's true strengths, by player id
VARIANT = ""
_FIELD = [0]  # the current tournament's index (the seed of the noisy-truth variant's noise)


def _make_players(config, index):  # type: ignore[no-untyped-def]
    players, strength = _original_make_players(config, index)
    _TRUTH.clear()
    _TRUTH.update(strength)
    _FIELD[0] = index
    return players, strength


def _pi(state: fastpair.PlainState) -> np.ndarray | None:
    """The variant's system term (n x n, by player index), None for Burstein's own."""
    name, _, arg = VARIANT.partition(":")
    if name == "rating-gap":  # "rating-gap:shared": the registered term on Burstein's results
        return gap_matrix(state.ratings, np.arange(1, state.n + 1))
    if name == "truth-gap":
        r = np.array([_TRUTH[i + 1] for i in range(state.n)])
    elif name == "noisy-truth":  # the true strengths plus N(0, SD), fixed per tournament
        rng = np.random.default_rng([7, _FIELD[0]])
        noise = rng.standard_normal(state.n) * float(arg)
        r = np.array([_TRUTH[i + 1] for i in range(state.n)]) + noise
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
    elif name in _EXTRA:
        return _EXTRA[name](state, arg)
    else:
        return None
    return gap_benefit(r[:, None] - r[None, :])


def _smoothed(gap: np.ndarray, sd: np.ndarray | float, f=gap_benefit) -> np.ndarray:  # type: ignore[no-untyped-def]
    """``f`` averaged over N(0, sd) noise on ``gap`` (Gauss-Hermite, 24 nodes), as integers."""
    nodes, weights = np.polynomial.hermite_e.hermegauss(24)
    total = sum(w * f(gap + sd * x) for x, w in zip(nodes, weights, strict=True))
    return np.rint(total / weights.sum()).astype(np.int64)


def _het(state, arg):  # type: ignore[no-untyped-def]
    # the paper's own rating noise per player, (3000 - r) / 20, for both ratings of a pair
    r = state.ratings.astype(np.float64)
    sd = np.maximum((3000.0 - r) / 20.0, 20.0) * float(arg or 1)
    pair = np.sqrt(sd[:, None] ** 2 + sd[None, :] ** 2)
    return _smoothed(np.abs(r[:, None] - r[None, :]), pair)


def _post_smooth(state, arg):  # type: ignore[no-untyped-def]
    # post-smooth:PRIOR/SD -- the posterior (Elo curve 400) and the term smoothed by SD
    prior, _, smooth = arg.partition("/")
    r = fastpair.plain_estimates(state, rated_sd=float(prior or 60))
    return _smoothed(np.abs(r[:, None] - r[None, :]), float(smooth or 85))


def _rank_cert(state, arg):  # type: ignore[no-untyped-def]
    # the certainty from the ratings, times the distance in start numbers (a rank count)
    r = state.ratings.astype(np.float64)
    d = np.abs(r[:, None] - r[None, :])
    cert = 1.0 / (1.0 + np.power(10.0, -d / 400.0)) - 0.5
    seed = np.arange(state.n, dtype=np.float64)
    span = 800.0 / state.n
    return np.rint(cert * np.abs(seed[:, None] - seed[None, :]) * span * 100).astype(np.int64)


def _scaled(state, arg):  # type: ignore[no-untyped-def]
    # the term with the Elo curve's scale changed (400 * arg): flatter or steeper certainty
    r = state.ratings.astype(np.float64)
    d = np.abs(r[:, None] - r[None, :])
    cert = 1.0 / (1.0 + np.power(10.0, -d / (400.0 * float(arg)))) - 0.5
    return np.rint(d * cert * 100).astype(np.int64)


def _family(state, arg):  # type: ignore[no-untyped-def]
    # fam:SOURCE/SMOOTH/SCALE -- SOURCE r (ratings), t (truth) or pNN (posterior, prior SD NN)
    src, sd, scale = [*arg.split("/"), "", "", ""][:3]
    if src == "t":
        r = np.array([_TRUTH[i + 1] for i in range(state.n)])
    elif src.startswith("p"):
        r = fastpair.plain_estimates(state, rated_sd=float(src[1:]))
    else:
        r = state.ratings.astype(np.float64)
    k = 400.0 * float(scale or 1)

    def f(gap):  # type: ignore[no-untyped-def]
        d = np.abs(gap)
        return d * (1.0 / (1.0 + np.power(10.0, -d / k)) - 0.5) * 100

    return _smoothed(np.abs(r[:, None] - r[None, :]), float(sd or 0), f)


def _post(state, arg):  # type: ignore[no-untyped-def]
    # post:PRIOR/SCALE/SMOOTH -- posterior with prior SD PRIOR ("h": (3000 - r) / 20), results
    # read on an Elo curve of scale SCALE, then the term smoothed by SMOOTH
    from swiss.pairing import posterior
    prior, scale, sd = [*arg.split("/"), "", "", ""][:3]
    r0 = state.ratings.astype(np.float64)
    prior_sd = np.maximum((3000.0 - r0) / 20.0, 20.0) if prior == "h" else float(prior or 60)
    saved = posterior._K  # the estimator's curve; the simulator's results are flatter
    posterior._K = math.log(10) / float(scale or 400)
    try:
        r = fastpair.plain_estimates(state, rated_sd=prior_sd)
    finally:
        posterior._K = saved

    def f(gap):  # type: ignore[no-untyped-def]
        d = np.abs(gap)
        return d * (1.0 / (1.0 + np.power(10.0, -d / 400.0)) - 0.5) * 100

    return _smoothed(np.abs(r[:, None] - r[None, :]), float(sd or 0), f)


def _no_repeat(state, arg):  # type: ignore[no-untyped-def]
    # the registered term below a tier that avoids pairs whose colours repeat a player's
    # previous colour: equal colour differences and equal last colours, or the lower colour
    # difference (who gets white) having had white last, or the other black
    n = state.n
    last = np.zeros(n, dtype=np.int64)
    for row in state.colors:
        last = np.where(row != 0, row, last)
    cd = state.color_diff
    white_i = cd[:, None] < cd[None, :]  # i gets white against j
    white_j = cd[:, None] > cd[None, :]
    same = (last[:, None] == last[None, :]) & (last[:, None] != 0)
    repeat = np.where(white_i, (last[:, None] == 1) | (last[None, :] == -1),
                      np.where(white_j, (last[None, :] == 1) | (last[:, None] == -1), same))
    term = gap_matrix(state.ratings, np.arange(1, n + 1))
    big = int(term.max()) * n + 1
    return term + big * (1 - repeat.astype(np.int64))  # the packing wants benefits >= 0


_EXTRA = {"no-repeat": _no_repeat, "post": _post, "fam": _family, "smooth-het": _het,
          "post-smooth": _post_smooth, "rank-cert": _rank_cert, "scaled": _scaled}


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
