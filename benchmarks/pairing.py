"""Seconds and memory per round of the exact MWM engine at scale (figures, not a test).

A mid-tournament round: the history of ``--history`` rounds is made by a cheap greedy Swiss
(no rematches, random results with draws), then round ``history + 1`` is paired by the real
engine (``pair_round``: candidate graph, exact matching, dual pricing of the full graph),
timing everything the bot would do. Each measurement runs in a fresh process, so the peak
memory (max RSS, including Python and numpy) belongs to it alone. Next to it: round 1 at the
same size, the dense path (every edge packed in Python, one compiled matching) up to
``--dense-max`` players, and bbpPairings' Dutch (``../shared/tools/bbpPairings``, a black
box; skipped when absent) up to ``--bbp-max``.

    python benchmarks/pairing.py                       # 100, 1,000 and 3,000 players
    python benchmarks/pairing.py --sizes 100,1000,3000,10000 --plot docs/img/pairing-scaling.png
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from swiss.model import Color, Game, Player, Result, Round, Tournament
from swiss.pairing import PairingConfig, pair_round
from swiss.state import player_states

ROOT = Path(__file__).resolve().parent.parent
# ../shared next to the checkout (or next to the worktrees' folder)
BBP = next(
    (p for p in (ROOT.parent / "shared", ROOT.parent.parent / "shared")
     if (p / "tools" / "bbpPairings" / "bbpPairings-6.0.0").exists()),
    ROOT.parent / "shared",
) / "tools" / "bbpPairings" / "bbpPairings-6.0.0"


def greedy_history(n: int, rounds: int, seed: int) -> Tournament:
    """``rounds`` rounds of a quick greedy Swiss: down the standings, no rematch if avoidable."""
    rng = random.Random(seed)
    players = tuple(Player(i, f"P{i}", 2600 - i % 2000) for i in range(1, n + 1))
    t = Tournament(players=players, total_rounds=rounds + 1, initial_color=Color.WHITE)
    results = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)
    for number in range(1, rounds + 1):
        states = player_states(t)
        order = sorted(range(1, n + 1), key=lambda p: (-states[p].score, p))
        free = list(order)
        games = []
        while len(free) >= 2:
            a = free.pop(0)
            partner = next((b for b in free[:50] if not states[a].times_met(b)), free[0])
            free.remove(partner)
            white, black = (a, partner) if states[a].color_diff <= states[partner].color_diff \
                else (partner, a)
            games.append(Game(white, black, rng.choice(results), board=len(games) + 1))
        t = t.with_round(Round(number, tuple(games)))
    return t


def measure_one(kind: str, n: int, system: str, history: int,
                rules: str = "2025") -> dict[str, object]:
    """One measurement in this process: ``kind`` is exact, round1, dense or bbp; ``rules``
    the FIDE Dutch edition (fide-dutch, and which bbpPairings build: 6.0.0 for 2025, 5.0.1
    for 2017)."""
    rounds = 0 if kind == "round1" else history
    t = greedy_history(n, rounds, seed=n)
    out: dict[str, object] = {"kind": kind, "n": n, "system": system}
    if kind == "bbp":
        from swiss.trf.writer import write_trf

        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "round.trf"
            path.write_text(write_trf(t))
            start = time.perf_counter()
            engine = BBP if rules == "2025" else BBP.with_name("bbpPairings-5.0.1")
            done = subprocess.run([str(engine), "--dutch", str(path), "-p"],
                                  capture_output=True, check=False)
            out["seconds"] = time.perf_counter() - start
            out["ok"] = done.returncode == 0
            usage = resource.getrusage(resource.RUSAGE_CHILDREN)
            out["cpu"] = usage.ru_utime + usage.ru_stime
            out["peak_mb"] = usage.ru_maxrss / 1024
        return out
    backend = "rustworkx" if kind == "dense" else "auto"  # (rustworkx: the dense path's name)
    config = PairingConfig(system=system, backend=backend,  # type: ignore[arg-type]
                           rules=rules)
    import swiss.pairing.mwm  # noqa: F401  (imports are not part of a round's time)

    start, cpu = time.perf_counter(), time.process_time()
    result = pair_round(t, config)
    out["seconds"] = time.perf_counter() - start
    # CPU seconds beside wall seconds: on a shared machine the wall clock mostly measures
    # the other processes' load.
    out["cpu"] = time.process_time() - cpu
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["stats"] = dict(result.stats)
    out["boards"] = len(result.games)
    return out


def run_child(kind: str, n: int, system: str, history: int, timeout: float,
              rules: str = "2025") -> dict | None:
    cmd = [sys.executable, __file__, "--one", kind, str(n), system, str(history),
           "--rules", rules]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    except subprocess.TimeoutExpired:
        return {"kind": kind, "n": n, "timeout": timeout}
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,3000")
    parser.add_argument("--system", default="burstein")
    parser.add_argument("--history", type=int, default=6, help="rounds played before")
    parser.add_argument("--rules", choices=("2025", "2017"), default="2025",
                        help="fide-dutch: the FIDE Dutch edition (and the bbpPairings build "
                             "compared: 6.0.0 or 5.0.1)")
    parser.add_argument("--dense-max", type=int, default=1000)
    parser.add_argument("--bbp-max", type=int, default=100,
                        help="largest size for bbpPairings (about 50 s at 1,000 players)")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--json", help="also write the measurements to this file")
    parser.add_argument("--plot", help="draw time against players (log-log) into this PNG")
    parser.add_argument("--plot-cpu", action="store_true",
                        help="plot CPU seconds instead of wall seconds (a loaded machine)")
    parser.add_argument("--before", help="also plot the exact round of an earlier run's --json")
    parser.add_argument("--from-json", help="measure nothing: plot the rows of this --json")
    parser.add_argument("--one", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        kind, n, system, history = args.one
        print(json.dumps(measure_one(kind, int(n), system, int(history), args.rules)))
        return
    key_time = "cpu" if args.plot_cpu else "seconds"
    before = json.loads(Path(args.before).read_text()) if args.before else None
    if args.from_json:
        if args.plot:
            plot(json.loads(Path(args.from_json).read_text()), args.plot, args.system, key_time,
                 before)
        return
    sizes = [int(x) for x in args.sizes.split(",")]
    edition = f" ({args.rules} rules)" if args.system == "fide-dutch" else ""
    print(f"system={args.system}{edition}, round {args.history + 1} after {args.history} "
          "greedy rounds; "
          "each cell in a fresh process")
    print("times are wall / CPU seconds")
    header = (f"{'players':>8} {'exact s':>13} {'peak MB':>8} {'edges priced':>13} "
              f"{'/round/(n^2/2)':>14} {'solved on':>10} {'rounds':>6} {'round 1 s':>11} "
              f"{'dense s':>13} {'bbp dutch s':>13}")
    print(header)
    rows = []
    for n in sizes:
        cell = (args.system, args.history, args.timeout, args.rules)
        exact = run_child("exact", n, *cell)
        first = run_child("round1", n, *cell)
        dense = run_child("dense", n, *cell) if n <= args.dense_max else None
        bbp = (run_child("bbp", n, *cell)
               if n <= args.bbp_max and BBP.exists() else None)
        rows.append({"n": n, "exact": exact, "round1": first, "dense": dense, "bbp": bbp})
        stats = (exact or {}).get("stats", {})
        half = n * (n - 1) // 2 + (n if n % 2 else 0)

        def secs(cell: dict | None) -> str:
            if not cell:
                return "-"
            if "timeout" in cell:
                return f">{cell['timeout']:.0f}"
            return f"{cell['seconds']:.2f} / {cell.get('cpu', 0):.2f}"

        priced = stats.get("priced_edges", 0)
        share = priced / max(stats.get("rounds", 1), 1) / half if half else 0
        print(f"{n:>8} {secs(exact):>13} {(exact or {}).get('peak_mb', 0):>8.0f} {priced:>13,} "
              f"{share:>14.2f} {stats.get('candidate_edges', 0):>10,} "
              f"{stats.get('rounds', 0):>6} {secs(first):>11} {secs(dense):>13} "
              f"{secs(bbp):>13}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    if args.plot:
        plot(rows, args.plot, args.system, key_time, before)


def plot(
    rows: list[dict], path: str, system: str, key_time: str = "seconds",
    before: list[dict] | None = None,
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    series = [(rows, "exact", f"exact, round 7 ({system})"), (rows, "round1", "exact, round 1"),
              (rows, "dense", "dense, compiled"), (rows, "bbp", "bbpPairings Dutch")]
    if before:
        series += [(before, "exact", "exact, round 7, before"),
                   (before, "round1", "exact, round 1, before")]
    for table, key, label in series:
        points = [(r["n"], r[key][key_time]) for r in table
                  if r.get(key) and key_time in r[key]]
        if points:
            style = "--" if table is before else "-"
            ax.plot(*zip(*points, strict=True), style, marker="o", label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("players")
    ax.set_ylabel("CPU seconds per round" if key_time == "cpu" else "seconds per round")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
