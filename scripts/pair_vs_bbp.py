"""FIDE Dutch as a user runs it: one ``swissbot pair`` process against one bbpPairings process.

For every round to pair, both engines run as fresh processes on the same TRF file (start-up,
reading and printing included): ``swissbot pair --system fide-dutch --rules EDITION FILE``
against ``bbpPairings --dutch FILE -p`` of that edition (2025: 6.0.0, 2017: 5.0.1, from
../shared/tools/bbpPairings). Rounds: the conformance corpus's rounds of at least
``--min-players`` players (../shared/fixtures/dutch-EDITION), and fresh events of
``swiss.histories`` (``--kinds``, ``--sizes``, rounds ``--rounds``). Prints per group the
summed CPU seconds (user + system) of each engine and their ratio, and whether the pairs
were the same (a difference is listed: the differential scripts say more).

    python scripts/pair_vs_bbp.py --rules 2025
    python scripts/pair_vs_bbp.py --rules 2017 --sizes 100,200 --rounds 2,5
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.pairing import run_once, swissbot  # noqa: E402
from scripts.dutch_differential import BINARY, TOOLS  # noqa: E402
from swiss.histories import history  # noqa: E402
from swiss.trf import read_pairs, write_trf  # noqa: E402


def corpus_rounds(rules: str, min_players: int) -> list[Path]:
    """The corpus's round files of at least ``min_players`` players."""
    corpus = TOOLS.parent.parent / "fixtures" / f"dutch-{rules}"  # shared/tools/bbpPairings
    manifest = corpus / "manifest.tsv"
    if not manifest.exists():
        return []
    rows = [line.split("\t") for line in manifest.read_text().splitlines()[1:] if line]
    big = [r[0] for r in rows if int(r[1]) >= min_players]
    return sorted(p for name in big for p in (corpus / name).glob("round-*.trf"))


def compare(path: Path, rules: str, timeout: float) -> tuple[float, float, bool]:
    """CPU seconds of swissbot and of bbpPairings on ``path``, and whether they agree."""
    with tempfile.TemporaryDirectory() as tmp:
        ours, theirs = Path(tmp) / "ours", Path(tmp) / "theirs"
        mine = run_once([*swissbot(), "pair", "--system", "fide-dutch", "--rules", rules,
                         str(path)], timeout, ours)
        oracle = run_once([str(TOOLS / BINARY[rules]), "--dutch", str(path), "-p"], timeout,
                          theirs)
        same = (mine.get("exit") == oracle.get("exit") == 0
                and read_pairs(ours.read_text()) == read_pairs(theirs.read_text()))
    return mine.get("cpu", timeout), oracle.get("cpu", timeout), same


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", choices=tuple(BINARY), default="2025")
    parser.add_argument("--min-players", type=int, default=40,
                        help="corpus rounds of at least this many players (default 40)")
    parser.add_argument("--kinds", default="dutch,random,draws")
    parser.add_argument("--sizes", default="100,200,400")
    parser.add_argument("--rounds", default="2,5,9", help="fresh events: the rounds to pair")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    if not (TOOLS / BINARY[args.rules]).exists():
        print(f"no {BINARY[args.rules]} under {TOOLS}: nothing to compare", file=sys.stderr)
        return 1
    groups: dict[str, list[Path]] = {}
    corpus = corpus_rounds(args.rules, args.min_players)
    if corpus:
        groups[f"corpus dutch-{args.rules}, >= {args.min_players} players"] = corpus
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(x) for x in args.sizes.split(",")):
            files = groups.setdefault(f"fresh, {n} players", [])
            for kind in args.kinds.split(","):
                for number in (int(x) for x in args.rounds.split(",")):
                    event = replace(history(kind, n, number - 1, seed=args.seed),
                                    total_rounds=max(11, number))
                    path = Path(tmp) / f"{kind}-{n}-{number}.trf"
                    path.write_text(write_trf(event))
                    files.append(path)
        print(f"FIDE Dutch {args.rules}: swissbot pair against {BINARY[args.rules]}, one "
              "process each per round, CPU seconds summed")
        print(f"{'rounds':<40} {'count':>5} {'swissbot':>9} {'bbp':>9} {'ratio':>6} "
              f"{'differ':>6}")
        for name, paths in groups.items():
            mine = theirs = 0.0
            differ = []
            for path in paths:
                a, b, same = compare(path, args.rules, args.timeout)
                mine, theirs = mine + a, theirs + b
                if not same:
                    differ.append(path.name)
            ratio = mine / theirs if theirs else float("inf")
            print(f"{name:<40} {len(paths):>5} {mine:>9.2f} {theirs:>9.2f} {ratio:>6.2f} "
                  f"{len(differ):>6}", flush=True)
            for path_name in differ[:5]:
                print(f"  differs: {path_name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
