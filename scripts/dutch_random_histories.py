"""Differential test of ``fide-dutch`` against bbpPairings on rounds after *random* histories.

    .venv/bin/python scripts/dutch_random_histories.py --rules 2017 --cases 2000 [--seed 1]
                                 [--players 7-14] [--played 3-6] [--out diffs/] [--keep 10]

bbpPairings' generator plays Dutch pairings, so its histories rarely strain the rules for
heterogeneous brackets. Here the rounds already played are random: any pairing without a
rematch (one PAB when the field is odd, never twice to a player), random results (30% of the
rounds with draws), random colours. Then the next round is paired by both engines and
compared (set of coloured pairs and the PAB; a round both refuse counts as identical). Such
histories leave many players unable to meet, so brackets float many players, fill Limbos and
collapse (A.9). Prints the identity rate and writes the first differing cases as TRF files,
bbpPairings' pairs beside them. Needs the oracle binaries in ../shared/tools/bbpPairings;
skips otherwise.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from swiss.trf import parse_trf  # noqa: E402


def _differential() -> ModuleType:
    """scripts/dutch_differential.py (the oracle helpers), loaded by path."""
    spec = importlib.util.spec_from_file_location(
        "dutch_differential", ROOT / "scripts" / "dutch_differential.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def random_history(rng: random.Random, players: int, played: int, total: int) -> str | None:
    """A TRF of ``players`` players after ``played`` random rounds (None: no rematch-free
    pairing was found for some round)."""
    met: set[frozenset[int]] = set()
    had_bye: set[int] = set()
    cells: dict[int, list[str]] = {p: [] for p in range(1, players + 1)}
    score = dict.fromkeys(cells, 0)  # in half points
    for _ in range(played):
        for _attempt in range(200):
            order = list(cells)
            rng.shuffle(order)
            bye = None
            if players % 2:
                bye = next((p for p in order if p not in had_bye), None)
                if bye is None:
                    return None
                order.remove(bye)
            pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
            if not any(frozenset(pair) in met for pair in pairs):
                break
        else:
            return None
        draws = rng.random() < 0.3
        for white, black in pairs:
            met.add(frozenset((white, black)))
            result = rng.choice("10=" if draws else "10")
            mine, theirs = {"1": ("1", "0"), "0": ("0", "1"), "=": ("=", "=")}[result]
            cells[white].append(f"{black:4d} w {mine}")
            cells[black].append(f"{white:4d} b {theirs}")
            score[white] += {"1": 2, "0": 0, "=": 1}[mine]
            score[black] += {"1": 2, "0": 0, "=": 1}[theirs]
        if bye is not None:
            had_bye.add(bye)
            cells[bye].append("0000 - U")
            score[bye] += 2
    lines = ["012 random history", f"XXR {total}", "XXC white1"]
    for p in cells:
        name = f"Player{p:04d}"
        line = f"001 {p:4d}      {name:<33s}{2500 - 10 * p:4d}{'':29s}{score[p] / 2:4.1f} {p:4d}"
        lines.append(line + "".join("  " + cell for cell in cells[p]))
    return "\n".join(lines) + "\n"


def _span(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    return int(low), int(high or low)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rules", default="2017", choices=("2017", "2025"))
    parser.add_argument("--cases", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=_span, default=(7, 14), metavar="LOW-HIGH")
    parser.add_argument("--played", type=_span, default=(3, 6), metavar="LOW-HIGH",
                        help="rounds played before the one compared")
    parser.add_argument("--out", default="dutch-random-differences")
    parser.add_argument("--keep", type=int, default=10)
    args = parser.parse_args()
    diff = _differential()
    oracle = diff.find_oracle(args.rules)
    if oracle is None:
        print(f"skipped: {diff.TOOLS / diff.BINARY[args.rules]} not found "
              "(../shared is absent)")
        return 0
    rng = random.Random(args.seed)
    out = Path(args.out)
    same = total = kept = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "case.trf"
        while total < args.cases:
            players = rng.randint(*args.players)
            played = min(rng.randint(*args.played), players - 2)
            text = random_history(rng, players, played, played + 2)
            if text is None:
                continue
            path.write_text(text)
            run, want = diff.oracle_pairing(oracle, path)
            if run.returncode not in (0, 1):
                continue  # the oracle refused the file: not a case
            got = diff.swissbot_pairing(parse_trf(text).tournament, args.rules)
            total += 1
            if got == want:
                same += 1
            elif kept < args.keep:
                kept += 1
                diff.keep_case(out, f"{args.rules}-random-{total:05d}", text, run.stdout)
            if total % 100 == 0:
                print(f"... {total} cases, {same} identical", file=sys.stderr)
    rate = 100 * same / max(total, 1)
    print(f"fide-dutch {args.rules} vs {oracle.name} after random histories: "
          f"{same}/{total} identical ({rate:.1f}%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
