"""swissbot ``fide-dutch`` versus bbpPairings on the same TRF files (mid-tournament rounds).

    .venv/bin/python benchmarks/fide_dutch.py [--sizes 50,100,250] [--rules 2025]
    .venv/bin/python benchmarks/fide_dutch.py --sizes 500,1000      # the large ones (slow)

For each size, bbpPairings' generator makes a 9-round tournament (seeded); round 5 is cut out
(rounds 1-4 played) and paired by both engines. Prints both CPU times (this process's for
swissbot, the child's for bbpPairings: wall time means little on a shared machine), the
ratio and whether the pairings agree. Needs ../shared/tools/bbpPairings; skips otherwise.
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
    args = parser.parse_args()
    d = _differential()
    oracle = d.find_oracle(args.rules)
    if oracle is None:
        print("skipped: bbpPairings not found (../shared is absent)")
        return 0
    print(f"{'players':>8} {'swissbot cpu s':>15} {'bbp cpu s':>10} {'ratio':>7}  same")
    for n in (int(x) for x in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            (work / "gen.cfg").write_text(
                f"PlayersNumber={n}\nRoundsNumber={ROUNDS}\nDrawPercentage=30\n"
                "ForfeitRate=20\nRetiredRate=20\nHalfPointByeRate=20\n")
            subprocess.run([str(oracle), "--dutch", "-g", str(work / "gen.cfg"), "-o",
                            str(work / "g.trf"), "-s", str(n)], check=True, capture_output=True)
            raw = (work / "g.trf").read_text().replace("\r\n", "\n").replace("\r", "\n")
            full = parse_trf(f"XXR {ROUNDS}\n" + raw).tournament
            full = dataclasses.replace(full, total_rounds=ROUNDS,
                                       initial_color=d.initial_colour(full),
                                       scoring=Scoring.chess())
            case = d.cut(full, CUT)
            path = work / "case.trf"
            path.write_text(write_trf(case))
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            run = subprocess.run([str(oracle), "--dutch", str(path), "-p"],
                                 capture_output=True, text=True, check=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            bbp = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
            start = time.process_time()
            tournament = parse_trf(path.read_text()).tournament
            result = pair_round(tournament, PairingConfig(system="fide-dutch", rules=args.rules))
            ours = time.process_time() - start
            got = (frozenset((g.white, g.black) for g in result.games), result.pairing_bye)
            same = got == read_pairs(run.stdout)
            ratio = ours / bbp if bbp > 0 else float("inf")
            print(f"{n:>8} {ours:>15.2f} {bbp:>10.2f} {ratio:>7.1f}  {same}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
