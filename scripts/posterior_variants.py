"""The variants tried while designing the ``posterior`` pairing system (docs/simulation.md).

Plays the same tournaments (same seed, so the same fields of players) with Burstein and with
each variant, and prints per variant the mean Kendall tau, float pairs and colour difference
with 95 % intervals, and the paired difference of Kendall tau against Burstein (tournament k
of a variant minus tournament k of Burstein, mean and 95 % interval).

Variants (all keep the engine's repeat, colour and score-difference tiers first):

* ``posterior:SD`` -- Burstein's terms over ranks by score, then the posterior strength
  estimate with prior standard deviation SD for rated players (the registered system uses 100);
* ``gap`` -- the system term is the estimated strength gap itself (pair the most unequal
  players by estimate, not by rank distance);
* ``infogain`` -- Glickman and Jensen's criterion inside the score tiers: pair the players whose
  estimated strengths are closest (the most uncertain, most informative games).

    nice .venv/bin/python scripts/posterior_variants.py --tournaments 300 --players 32 --rounds 7
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from swiss.pairing import posterior
from swiss.sim import fastpair, runner
from swiss.sim.runner import SimulationConfig, play_tournament
from swiss.sim.strengths import parse_strengths

_original_fast_pairs = runner._fast_pairs
_original_make_players = runner.make_players
UNRATED = False


def _players_rated_by_truth(config, index):  # type: ignore[no-untyped-def]
    """The field with every rating replaced by the true strength (oracle upper bounds)."""
    players, strength = _original_make_players(config, index)
    return tuple(
        dataclasses.replace(p, rating=round(strength[p.id])) for p in players
    ), strength
_original_estimates = fastpair.plain_estimates


def _unrated_players(config, index):  # type: ignore[no-untyped-def]
    """The same strengths, but nobody has a rating and the start numbers are drawn by lot
    (an unrated club or e-sports event): the strengths are shuffled over the ids."""
    players, strength = _original_make_players(config, index)
    rng = np.random.default_rng([config.seed, 99, index])
    values = [strength[p.id] for p in players]
    shuffled = rng.permutation(len(values))
    return (
        tuple(dataclasses.replace(p, rating=0) for p in players),
        {p.id: values[j] for p, j in zip(players, shuffled, strict=True)},
    )


def _estimates_with(sd: float):  # type: ignore[no-untyped-def]
    def estimates(state: fastpair.PlainState) -> np.ndarray:
        assert state.ratings is not None
        iu, iv = np.triu_indices(state.n, 1)
        games = state.met[iu, iv]
        played = np.flatnonzero(games)
        points = (state.score2 - 2 * state.byes) / 2.0
        return posterior.strength_estimates(
            state.ratings, iu[played], iv[played], games[played], points, rated_sd=sd
        )
    return estimates


def _gap_pairs(close: bool, estimates=None):  # type: ignore[no-untyped-def]
    estimates = estimates or _original_estimates

    def fast_pairs(plain, number, system, config, seed, initial):  # type: ignore[no-untyped-def]
        if plain is None:
            return None
        est = np.rint(estimates(plain)).astype(np.int64)
        gap = np.abs(est[:, None] - est[None, :])
        pi = (gap.max() - gap) if close else gap
        return fastpair.pair_plain(
            plain, number, "burstein", beta=config.beta, policy=config.policy, seed=seed,
            initial_color=initial, pi=pi,
        )
    return fast_pairs


def _matrix_pairs(kind: str, estimates=None):  # type: ignore[no-untyped-def]
    """Pair with a system term built here: ``slide`` (Burstein's rank distance, then the
    *smaller* square: equal distances) or ``certainty`` (the predicted certainty |2p - 1| of
    the game from the estimates, Elo's curve: fewest expected upsets)."""
    estimates = estimates or _original_estimates

    def fast_pairs(plain, number, system, config, seed, initial):  # type: ignore[no-untyped-def]
        if plain is None:
            return None
        n = plain.n
        if kind == "slide":
            order = np.lexsort((np.arange(n), -plain.score2))
            rank = np.empty(n, dtype=np.int64)
            rank[order] = np.arange(n)
            d = np.abs(rank[:, None] - rank[None, :])
            c = (n - 1) ** 2
            pi = d * ((n // 2) * c + 1) + (c - d * d)
        else:
            est = estimates(plain)
            gap = np.abs(est[:, None] - est[None, :])
            pi = np.rint(10000 * np.tanh(math.log(10) / 800 * gap)).astype(np.int64)
        return fastpair.pair_plain(
            plain, number, "burstein", beta=config.beta, policy=config.policy, seed=seed,
            initial_color=initial, pi=pi,
        )
    return fast_pairs


def play(config: SimulationConfig, variant: str, count: int) -> list[runner.TournamentMeasures]:
    """Measures of tournaments 0..count-1 of one variant."""
    runner._fast_pairs = _original_fast_pairs
    fastpair.plain_estimates = _original_estimates
    system = variant
    if variant.startswith("oracle-"):
        # upper bounds, not systems: the true strengths as ratings, trusted (sd 1)
        runner.make_players = _players_rated_by_truth
        variant = {"oracle-order": "posterior:1", "oracle-gap": "gap1"}[variant]
    if variant == "gap1":
        fastpair.plain_estimates = _estimates_with(1.0)
        _original = fastpair.plain_estimates
        runner._fast_pairs = _gap_pairs(close=False, estimates=_original)
        system = "posterior"
    if variant.startswith("posterior:"):
        fastpair.plain_estimates = _estimates_with(float(variant.split(":")[1]))
        system = "posterior"
    elif variant in ("slide", "certainty"):
        runner._fast_pairs = _matrix_pairs(variant)
        system = "posterior"
    elif variant in ("gap", "infogain"):
        runner._fast_pairs = _gap_pairs(close=variant == "infogain")
        system = "posterior"  # so that the runner keeps the players' ratings
    try:
        return [play_tournament(config, system, k).measures for k in range(count)]
    finally:
        runner._fast_pairs = _original_fast_pairs
        fastpair.plain_estimates = _original_estimates
        runner.make_players = _original_make_players
        if UNRATED:
            runner.make_players = _unrated_players


def interval(values: np.ndarray) -> str:
    half = 1.96 * values.std(ddof=1) / math.sqrt(values.size) if values.size > 1 else math.nan
    return f"{values.mean():+.4f} ± {half:.4f}"


def paired_from_csv(path: Path, system: str, baseline: str) -> None:
    """Paired differences ``system - baseline`` per measure from a ``swissbot simulate --out``
    run's tournaments.csv (tournament k of one against tournament k of the other)."""
    import csv

    rows: dict[str, dict[int, dict[str, str]]] = {}
    with path.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            rows.setdefault(row["system"], {})[int(row["tournament"])] = row
    common = sorted(set(rows[system]) & set(rows[baseline]))
    print(f"{system} - {baseline}, {len(common)} paired tournaments")
    for column in ("kendall_tau", "spearman_rho", "ndcg", "float_pairs", "winner_is_strongest"):
        diff = np.array([float(rows[system][k][column]) - float(rows[baseline][k][column])
                         for k in common])
        print(f"  {column:<22}{interval(diff)}")
    rounds = max(int(c[5:]) for c in rows[system][common[0]] if c.startswith("acd_r"))
    last = rounds - rounds % 2
    if last:
        diff = np.array([float(rows[system][k][f"acd_r{last}"])
                         - float(rows[baseline][k][f"acd_r{last}"]) for k in common])
        print(f"  {'acd_r' + str(last):<22}{interval(diff)}")


def estimate_error(config: SimulationConfig, count: int) -> None:
    """RMSE (rating points) against the true strengths, after the last round of Burstein
    tournaments, of the ratings alone and of the posterior estimate for several prior SDs."""
    squares: dict[str, list[float]] = {"rating": []}
    for k in range(count):
        played = play_tournament(config, "burstein", k)
        t = played.tournament
        truth = np.array([played.strengths[p.id] for p in t.players])
        squares["rating"].append(float(np.mean((np.array([p.rating for p in t.players])
                                                - truth) ** 2)))
        index = {p.id: i for i, p in enumerate(t.players)}
        first, second, points = [], [], np.zeros(len(truth))
        for rnd in t.rounds:
            for g in rnd.games:
                w, b = index[g.white], index[g.black]
                white = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}[g.result.value]
                first.append(w)
                second.append(b)
                points[w] += white
                points[b] += 1 - white
        for sd in (30, 45, 60, 80, 100, 200):
            est = posterior.strength_estimates(
                [p.rating for p in t.players], np.array(first), np.array(second),
                np.ones(len(first)), points, rated_sd=float(sd),
            )
            squares.setdefault(f"posterior:{sd}", []).append(float(np.mean((est - truth) ** 2)))
    for name, values in squares.items():
        print(f"{name:<16} RMSE {math.sqrt(float(np.mean(values))):6.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=300)
    parser.add_argument("--players", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--variants", default="posterior:50,posterior:100,posterior:200,gap,infogain"
    )
    parser.add_argument("--strengths", default="uniform:1400:2200")
    parser.add_argument("--unrated", action="store_true",
                        help="nobody rated, start numbers by lot (every system, Burstein too)")
    parser.add_argument("--estimate-error", action="store_true",
                        help="only print how far ratings and estimates are from the truth")
    parser.add_argument("--paired", metavar="CSV",
                        help="only print posterior - burstein paired differences from a "
                             "swissbot simulate --out tournaments.csv")
    args = parser.parse_args()
    if args.estimate_error:
        estimate_error(SimulationConfig(players=args.players, rounds=args.rounds, seed=args.seed,
                                        tiebreaks="none", strength_difference=False,
                                        strengths=parse_strengths(args.strengths)),
                       args.tournaments)
        return
    if args.paired:
        paired_from_csv(Path(args.paired), "posterior", "burstein")
        return
    global UNRATED
    UNRATED = args.unrated
    if UNRATED:
        runner.make_players = _unrated_players
    config = SimulationConfig(
        players=args.players, rounds=args.rounds, seed=args.seed, strength_difference=False,
        strengths=parse_strengths(args.strengths),
    )
    last = args.rounds - (args.rounds % 2)
    start = time.perf_counter()
    base = play(config, "burstein", args.tournaments)
    base_tau = np.array([m.kendall_tau for m in base])
    print(f"{args.players} players, {args.rounds} rounds, {args.tournaments} tournaments each")
    print(f"{'variant':<16}{'Kendall tau':>20}{'minus Burstein':>20}{'float pairs':>16}"
          f"{'acd rd ' + str(last):>16}")
    rows = [("burstein", base)] + [
        (v, play(config, v, args.tournaments)) for v in args.variants.split(",")
    ]
    for name, measures in rows:
        tau = np.array([m.kendall_tau for m in measures])
        floats = np.array([m.float_pairs for m in measures], dtype=float)
        acd = np.array([m.acd[last - 1] for m in measures], dtype=float)
        diff = interval(tau - base_tau) if name != "burstein" else "-"
        print(f"{name:<16}{interval(tau):>20}{diff:>20}{floats.mean():>10.2f} ± "
              f"{1.96 * floats.std(ddof=1) / math.sqrt(floats.size):.2f}"
              f"{acd.mean():>10.2f} ± {1.96 * acd.std(ddof=1) / math.sqrt(acd.size):.2f}")
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
