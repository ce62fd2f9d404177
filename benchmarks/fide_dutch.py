"""swissbot ``fide-dutch`` versus bbpPairings on the same TRF files (mid-tournament rounds).

    .venv/bin/python benchmarks/fide_dutch.py [--sizes 50,100,250] [--rules 2025]
    .venv/bin/python benchmarks/fide_dutch.py --sizes 500,1000 --cache /tmp/fd  # the large ones
    .venv/bin/python benchmarks/fide_dutch.py --sizes 100 --seeds 1,2,3,4,5 --repeat 5

For each size (and seed: by default the size itself), bbpPairings' generator makes a
9-round tournament; round 5 is cut out (rounds 1-4 played) and paired by both engines.

How each engine is measured (the same work for both: read the TRF file, pair the round):
bbpPairings is a fresh process per run and its CPU time is the child's (process start,
reading the file, pairing, printing); swissbot runs in this process, its CPU time is
this process's for reading the file's text, parsing it and pairing (``time.process_time``,
without the per-board explanations, as ``swissbot pair`` without ``--explain``);
Python's start-up and imports are not counted (they are paid once per process, not per
round: the bot and the CLI pair many rounds per process), and one small round is paired
first, untimed, so that the first size does not pay for loading modules either. Each
engine runs ``--repeat`` times and the *smallest* CPU time of each is shown (on a shared
machine, other work only ever adds time). Prints both, their ratio, both wall times
(which mean little on a shared machine) and whether the pairings agree. Generating a
1,000-player tournament takes bbpPairings minutes (it pairs all 9 rounds): ``--cache DIR``
keeps the generated files and reuses them. Needs ../shared/tools/bbpPairings; skips
otherwise.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from swiss.model import Scoring  # noqa: E402
from swiss.pairing import PairingConfig, pair_round  # noqa: E402
from swiss.trf import parse_trf, read_pairs, write_trf  # noqa: E402

ROUNDS, CUT = 9, 5


def _differential() -> ModuleType:
    """scripts/dutch_differential.py (the generator and oracle helpers), loaded by path."""
    spec = importlib.util.spec_from_file_location(
        "dutch_differential", ROOT / "scripts" / "dutch_differential.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="50,100,250")
    parser.add_argument("--seeds", default="",
                        help="generator seeds, comma-separated (default: the size)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per engine and case; the smallest CPU time is shown")
    parser.add_argument("--rules", default="2025")
    parser.add_argument("--cache", type=Path, default=None,
                        help="keep the generated tournaments here and reuse them")
    args = parser.parse_args()
    d = _differential()
    oracle = d.find_oracle(args.rules)
    if oracle is None:
        print("skipped: bbpPairings not found (../shared is absent)")
        return 0
    # No explanations: bbpPairings -p prints none, nor does ``swissbot pair`` without --explain.
    config = PairingConfig(system="fide-dutch", rules=args.rules, explain=False)
    with tempfile.TemporaryDirectory() as tmp:
        cache = args.cache or Path(tmp)
        cache.mkdir(parents=True, exist_ok=True)
        warm = parse_trf(_case(d, oracle, cache, 12).read_text())
        pair_round(warm.tournament, config, states=warm.states)
        print(f"{'players':>8} {'seed':>5} {'swissbot cpu s':>15} {'bbp cpu s':>10} "
              f"{'ratio':>7} {'swissbot wall s':>16} {'bbp wall s':>11}  same")
        for n in (int(x) for x in args.sizes.split(",")):
            for seed in [int(x) for x in args.seeds.split(",") if x] or [n]:
                path = _case(d, oracle, cache, n, seed)
                bbp, bbp_wall, expected = _time_bbp(oracle, path, args.repeat)
                ours, ours_wall, got = _time_ours(path, config, args.repeat)
                same = got == expected
                ratio = ours / bbp if bbp > 0 else float("inf")
                print(f"{n:>8} {seed:>5} {ours:>15.3f} {bbp:>10.3f} {ratio:>7.2f} "
                      f"{ours_wall:>16.3f} {bbp_wall:>11.3f}  {same}", flush=True)
    return 0


Pairs = tuple[frozenset[tuple[int, int]], int | None]


def _time_bbp(oracle: Path, path: Path, repeat: int) -> tuple[float, float, Pairs]:
    """bbpPairings' smallest CPU time (a fresh process each run), its wall time then and
    its pairing."""
    best: tuple[float, float] | None = None
    out = ""
    for _ in range(max(repeat, 1)):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = time.perf_counter()
        run = subprocess.run([str(oracle), "--dutch", str(path), "-p"],
                             capture_output=True, text=True, check=True)
        wall = time.perf_counter() - wall
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        out = run.stdout
        if best is None or cpu < best[0]:
            best = (cpu, wall)
    assert best is not None
    return best[0], best[1], read_pairs(out)


def _time_ours(path: Path, config: PairingConfig, repeat: int) -> tuple[float, float, Pairs]:
    """swissbot's smallest CPU time (reading the file, parsing, pairing), its wall time then
    and its pairing."""
    best: tuple[float, float] | None = None
    got: Pairs | None = None
    for _ in range(max(repeat, 1)):
        start, wall = time.process_time(), time.perf_counter()
        parsed = parse_trf(path.read_text())
        result = pair_round(parsed.tournament, config, states=parsed.states)
        cpu, wall = time.process_time() - start, time.perf_counter() - wall
        got = (frozenset((g.white, g.black) for g in result.games), result.pairing_bye)
        if best is None or cpu < best[0]:
            best = (cpu, wall)
    assert best is not None and got is not None
    return best[0], best[1], got


def _case(d: ModuleType, oracle: Path, cache: Path, n: int, seed: int | None = None) -> Path:
    """Round 5 of bbpPairings' 9-round tournament of ``n`` players generated with ``seed``
    (default ``n``), as a TRF file (generated once per cache directory)."""
    seed = n if seed is None else seed
    path = cache / (f"case-{n}.trf" if seed == n else f"case-{n}-s{seed}.trf")
    if path.exists():
        return path
    (cache / "gen.cfg").write_text(
        f"PlayersNumber={n}\nRoundsNumber={ROUNDS}\nDrawPercentage=30\n"
        "ForfeitRate=20\nRetiredRate=20\nHalfPointByeRate=20\n")
    subprocess.run([str(oracle), "--dutch", "-g", str(cache / "gen.cfg"), "-o",
                    str(cache / "g.trf"), "-s", str(seed)], check=True, capture_output=True)
    raw = (cache / "g.trf").read_text().replace("\r\n", "\n").replace("\r", "\n")
    full = parse_trf(f"XXR {ROUNDS}\n" + raw).tournament
    full = dataclasses.replace(full, total_rounds=ROUNDS, initial_color=d.initial_colour(full),
                               scoring=Scoring.chess())
    path.write_text(write_trf(d.cut(full, CUT)))
    return path


if __name__ == "__main__":
    raise SystemExit(main())
