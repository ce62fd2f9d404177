"""swissbot ``fide-dutch`` versus bbpPairings on the same TRF files (mid-tournament rounds).

    .venv/bin/python benchmarks/fide_dutch.py [--sizes 50,100,250] [--rules 2025]
    .venv/bin/python benchmarks/fide_dutch.py --sizes 500,1000 --cache /tmp/fd  # the large ones

For each size, bbpPairings' generator makes a 9-round tournament (seeded); round 5 is cut out
(rounds 1-4 played) and paired by both engines. Prints both CPU times (this process's for
swissbot, parsing the TRF included; the child's for bbpPairings), their ratio, both wall
times (which mean little on a shared machine) and whether the pairings agree. Generating a
1,000-player tournament takes bbpPairings minutes (it pairs all 9 rounds): ``--cache DIR``
keeps the generated files and reuses them. One small round is paired first, untimed, so that
the first size does not pay for loading modules. Needs ../shared/tools/bbpPairings; skips
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
    parser.add_argument("--rules", default="2025")
    parser.add_argument("--cache", type=Path, default=None,
                        help="keep the generated tournaments here and reuse them")
    args = parser.parse_args()
    d = _differential()
    oracle = d.find_oracle(args.rules)
    if oracle is None:
        print("skipped: bbpPairings not found (../shared is absent)")
        return 0
    config = PairingConfig(system="fide-dutch", rules=args.rules)
    with tempfile.TemporaryDirectory() as tmp:
        cache = args.cache or Path(tmp)
        cache.mkdir(parents=True, exist_ok=True)
        pair_round(parse_trf(_case(d, oracle, cache, 12).read_text()).tournament, config)
        print(f"{'players':>8} {'swissbot cpu s':>15} {'bbp cpu s':>10} {'ratio':>7} "
              f"{'swissbot wall s':>16} {'bbp wall s':>11}  same")
        for n in (int(x) for x in args.sizes.split(",")):
            path = _case(d, oracle, cache, n)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            wall = time.perf_counter()
            run = subprocess.run([str(oracle), "--dutch", str(path), "-p"],
                                 capture_output=True, text=True, check=True)
            bbp_wall = time.perf_counter() - wall
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            bbp = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
            start, wall = time.process_time(), time.perf_counter()
            tournament = parse_trf(path.read_text()).tournament
            result = pair_round(tournament, config)
            ours, ours_wall = time.process_time() - start, time.perf_counter() - wall
            got = (frozenset((g.white, g.black) for g in result.games), result.pairing_bye)
            same = got == read_pairs(run.stdout)
            ratio = ours / bbp if bbp > 0 else float("inf")
            print(f"{n:>8} {ours:>15.2f} {bbp:>10.2f} {ratio:>7.2f} {ours_wall:>16.2f} "
                  f"{bbp_wall:>11.2f}  {same}", flush=True)
    return 0


def _case(d: ModuleType, oracle: Path, cache: Path, n: int) -> Path:
    """Round 5 of bbpPairings' seeded 9-round tournament of ``n`` players, as a TRF file
    (generated once per cache directory)."""
    path = cache / f"case-{n}.trf"
    if path.exists():
        return path
    (cache / "gen.cfg").write_text(
        f"PlayersNumber={n}\nRoundsNumber={ROUNDS}\nDrawPercentage=30\n"
        "ForfeitRate=20\nRetiredRate=20\nHalfPointByeRate=20\n")
    subprocess.run([str(oracle), "--dutch", "-g", str(cache / "gen.cfg"), "-o",
                    str(cache / "g.trf"), "-s", str(n)], check=True, capture_output=True)
    raw = (cache / "g.trf").read_text().replace("\r\n", "\n").replace("\r", "\n")
    full = parse_trf(f"XXR {ROUNDS}\n" + raw).tournament
    full = dataclasses.replace(full, total_rounds=ROUNDS, initial_color=d.initial_colour(full),
                               scoring=Scoring.chess())
    path.write_text(write_trf(d.cut(full, CUT)))
    return path


if __name__ == "__main__":
    raise SystemExit(main())
