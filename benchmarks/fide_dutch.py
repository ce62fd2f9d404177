"""swissbot ``fide-dutch`` versus bbpPairings on the same TRF files (mid-tournament rounds).

    .venv/bin/python benchmarks/fide_dutch.py [--sizes 50,100,250,500] [--rules 2025]

For each size, bbpPairings' generator makes a 9-round tournament (seeded); round 5 is cut out
(rounds 1-4 played) and paired by both engines. Prints both wall times, the ratio and whether
the pairings agree. Needs ../shared/tools/bbpPairings; skips with a message otherwise.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
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
    parser.add_argument("--sizes", default="50,100,250,500")
    parser.add_argument("--rules", default="2025")
    args = parser.parse_args()
    d = _differential()
    oracle = d.find_oracle(args.rules)
    if oracle is None:
        print("skipped: bbpPairings not found (../shared is absent)")
        return 0
    print(f"{'players':>8} {'swissbot s':>11} {'bbp s':>9} {'ratio':>7}  same")
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
            start = time.perf_counter()
            run = subprocess.run([str(oracle), "--dutch", str(path), "-p"],
                                 capture_output=True, text=True, check=True)
            bbp = time.perf_counter() - start
            start = time.perf_counter()
            tournament = parse_trf(path.read_text()).tournament
            result = pair_round(tournament, PairingConfig(system="fide-dutch", rules=args.rules))
            ours = time.perf_counter() - start
            got = (frozenset((g.white, g.black) for g in result.games), result.pairing_bye)
            same = got == read_pairs(run.stdout)
            print(f"{n:>8} {ours:>11.2f} {bbp:>9.2f} {ours / bbp:>7.1f}  {same}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
